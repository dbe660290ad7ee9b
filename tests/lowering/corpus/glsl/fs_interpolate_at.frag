#version 330
#extension GL_ARB_gpu_shader5 : require
// interpolateAtCentroid, interpolateAtSample, interpolateAtOffset on a vector, a scalar and
// an array element.
in vec4 v_col;
in float v_s;
in vec2 v_arr[2];
uniform int u_sample;
uniform vec2 u_offset;
out vec4 frag;
void main()
{
    vec4 c = interpolateAtCentroid(v_col);
    vec4 s = interpolateAtSample(v_col, u_sample) + vec4(interpolateAtSample(v_s, 2));
    vec4 o = interpolateAtOffset(v_col, u_offset) + vec4(interpolateAtOffset(v_arr[1], vec2(-0.25, 0.125)), 0.0, 0.0);
    frag = c + s + o + vec4(interpolateAtCentroid(v_arr[0]), 0.0, 0.0);
}
