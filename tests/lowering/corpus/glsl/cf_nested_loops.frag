#version 330
// Nested loops with dynamic bounds, inner break and outer continue.
in vec4 v_a;
uniform int u_outer;
uniform int u_inner;
out vec4 frag;
void main()
{
    vec4 acc = vec4(0.0);
    for (int i = 0; i < u_outer; i++) {
        if ((i & 1) == 1)
            continue;
        for (int j = 0; j < u_inner; j++) {
            acc += v_a * float(i * j) + vec4(0.01);
            if (dot(acc, acc) > 1000.0)
                break;
        }
        acc = fract(acc);
    }
    frag = acc;
}
