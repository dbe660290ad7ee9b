#version 330
#extension GL_ARB_shader_storage_buffer_object : require
// discard after a side effect inside a branch (cannot become a conditional kill), and a
// discard at the end of a loop iteration.
layout(std430) buffer Rejects { uint rejected; };
in vec4 v_col;
uniform int u_iters;
out vec4 frag;
void main()
{
    if (v_col.a < 0.25) {
        atomicAdd(rejected, 1u);
        discard;
    }
    vec4 c = v_col;
    for (int i = 0; i < u_iters; i++) {
        c = c * c;
        if (c.r > 4.0) {
            atomicAdd(rejected, 2u);
            discard;
        }
    }
    frag = c;
}
