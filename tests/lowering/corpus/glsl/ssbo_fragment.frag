#version 330
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shading_language_420pack : require
// SSBOs in a fragment shader: a read-only lookup table, a histogram with atomics and a
// per-pixel store.
layout(std430, binding = 0) readonly buffer Lut { vec4 lut[]; };
layout(std430, binding = 1) buffer Hist { uint histogram[256]; };
layout(std430, binding = 2) writeonly buffer Dump { vec4 dump[]; };
in vec4 v_col;
out vec4 frag;
void main()
{
    uint bucket = uint(clamp(dot(v_col.rgb, vec3(0.3, 0.59, 0.11)), 0.0, 1.0) * 255.0);
    atomicAdd(histogram[bucket], 1u);
    vec4 c = lut[bucket] * v_col;
    dump[uint(gl_FragCoord.y) * 1024u + uint(gl_FragCoord.x)] = c;
    frag = c;
}
