#version 330
// A helper called many times and a recursive-looking chain of helpers (GLSL inlines them).
in vec4 v_a;
in vec4 v_b;
out vec4 frag;
vec4 shade(vec4 c, float k)
{
    vec4 t = c * k + vec4(0.1, 0.2, 0.3, 0.4);
    return t / (1.0 + abs(t));
}
float lum(vec4 c) { return dot(c.rgb, vec3(0.2126, 0.7152, 0.0722)); }
vec4 twice(vec4 c) { return shade(shade(c, lum(c)), 2.0); }
void accumulate(inout vec4 acc, vec4 v) { acc += twice(v) * lum(v); }
void main()
{
    vec4 acc = vec4(0.0);
    accumulate(acc, v_a);
    accumulate(acc, v_b);
    accumulate(acc, v_a * v_b);
    accumulate(acc, v_a + v_b);
    frag = acc + shade(v_b, 3.0) + twice(v_a.wzyx);
}
