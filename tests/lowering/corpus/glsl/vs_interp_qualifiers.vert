#version 330
#extension GL_ARB_gpu_shader5 : require
// Outputs with every interpolation / auxiliary qualifier: smooth, flat, noperspective,
// centroid, sample, and an invariant gl_Position.
invariant gl_Position;
in vec4 a_pos;
in vec4 a_col;
in int a_id;
smooth out vec4 v_smooth;
flat out int v_flat;
flat out vec3 v_flat_vec;
noperspective out vec2 v_noperspective;
centroid out vec4 v_centroid;
sample out vec4 v_sample;
noperspective centroid out float v_both;
void main()
{
    v_smooth = a_col;
    v_flat = a_id;
    v_flat_vec = a_pos.xyz;
    v_noperspective = a_pos.xy / a_pos.w;
    v_centroid = a_col.wzyx;
    v_sample = a_col * 2.0;
    v_both = a_pos.z;
    gl_Position = a_pos;
}
