#version 330
// Unconditional discard inside a data-dependent loop, plus discard in a function.
in vec4 v_a;
uniform int u_n;
out vec4 frag;
void reject_if_dark(vec4 c)
{
    if (dot(c.rgb, vec3(1.0)) < 0.01)
        discard;
}
void main()
{
    vec4 c = v_a;
    for (int i = 0; i < u_n; i++) {
        c = c * c + v_a;
        if (c.x > 1e6) {
            discard;
        }
    }
    reject_if_dark(c);
    frag = c;
}
