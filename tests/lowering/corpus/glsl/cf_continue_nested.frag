#version 330
#extension GL_ARB_shader_storage_buffer_object : require
// continue statements deep inside a loop body with stores after them, so they cannot be
// turned into if/else nesting easily.
layout(std430) buffer Log { uint entries[64]; uint n; };
in vec4 v_a;
uniform int u_count;
out vec4 frag;
void main()
{
    vec4 acc = vec4(0.0);
    for (int i = 0; i < u_count; i++) {
        float t = v_a.x * float(i);
        if (t > 2.0) {
            if (fract(t) < 0.5) {
                atomicAdd(n, 1u);
                continue;
            }
            entries[i & 63] = uint(t);
        }
        acc += vec4(t);
        if (acc.x > 100.0)
            continue;
        acc.y += sin(t);
        entries[(i + 1) & 63] = uint(acc.y);
    }
    frag = acc;
}
