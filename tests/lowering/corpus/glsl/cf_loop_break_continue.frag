#version 330
// for loop with a uniform trip count, continue and break.
in vec4 v_a;
uniform int u_count;
uniform float u_limit;
out vec4 frag;
void main()
{
    vec4 acc = vec4(0.0);
    for (int i = 0; i < u_count; i++) {
        vec4 t = v_a * float(i) + sin(acc);
        if (t.x < 0.0)
            continue;
        acc += t;
        if (acc.y > u_limit)
            break;
    }
    frag = acc;
}
