#version 330
#extension GL_ARB_vertex_attrib_64bit : require
#extension GL_ARB_gpu_shader_fp64 : require
#extension GL_ARB_explicit_attrib_location : require
// Attributes of many types and explicit locations: float vectors, int/uint vectors,
// a mat4 attribute, and 64-bit dvec3/double attributes.
layout(location = 0) in vec4 a_pos;
layout(location = 1) in ivec2 a_ids;
layout(location = 2) in uvec4 a_bits;
layout(location = 3) in mat4 a_model;
layout(location = 7) in dvec3 a_precise;
layout(location = 9) in double a_scale;
out vec4 v_col;
flat out ivec2 v_ids;
void main()
{
    dvec3 p = a_precise * a_scale;
    v_col = vec4(a_bits) / 255.0 + vec4(vec3(p), 1.0);
    v_ids = a_ids;
    gl_Position = a_model * a_pos;
}
