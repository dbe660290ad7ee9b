#version 330
// A constant lookup table indexed dynamically.
flat in int v_i;
in vec2 v_uv;
out vec4 frag;
const vec4 palette[8] = vec4[8](
    vec4(0.0, 0.0, 0.0, 1.0), vec4(1.0, 0.0, 0.0, 1.0),
    vec4(0.0, 1.0, 0.0, 1.0), vec4(0.0, 0.0, 1.0, 1.0),
    vec4(1.0, 1.0, 0.0, 1.0), vec4(1.0, 0.0, 1.0, 1.0),
    vec4(0.0, 1.0, 1.0, 1.0), vec4(0.5, 0.25, 0.125, 1.0));
const float bayer[16] = float[16](0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0,
                                  3.0, 11.0, 1.0, 9.0, 15.0, 7.0, 13.0, 5.0);
void main()
{
    ivec2 p = ivec2(v_uv * 4.0) & 3;
    frag = palette[v_i & 7] * (bayer[p.y * 4 + p.x] / 16.0) + palette[(v_i >> 3) & 7];
}
