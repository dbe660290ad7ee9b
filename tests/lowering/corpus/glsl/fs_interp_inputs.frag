#version 330
#extension GL_ARB_gpu_shader5 : require
// Inputs with every interpolation qualifier: smooth, flat (float and int), noperspective,
// centroid, sample and centroid noperspective.
smooth in vec4 v_smooth;
flat in int v_flat;
flat in vec3 v_flat_vec;
noperspective in vec2 v_noperspective;
centroid in vec4 v_centroid;
sample in vec4 v_sample;
noperspective centroid in float v_both;
out vec4 frag;
void main()
{
    frag = v_smooth + vec4(float(v_flat)) + vec4(v_flat_vec, 0.0) + vec4(v_noperspective, 0.0, 0.0)
         + v_centroid + v_sample + vec4(v_both);
}
