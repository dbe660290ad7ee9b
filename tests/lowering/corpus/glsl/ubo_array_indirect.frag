#version 330
#extension GL_ARB_gpu_shader5 : require
// An array of uniform blocks selected by a dynamically uniform index, and an array member
// inside a block read with a per-fragment index.
layout(std140) uniform Params {
    vec4 colors[16];
    ivec4 select;
} params[4];
uniform int u_block;
flat in int v_i;
out vec4 frag;
void main()
{
    vec4 a = params[u_block].colors[v_i & 15];
    vec4 b = params[2].colors[(v_i + params[1].select.x) & 15];
    frag = a + b + vec4(params[u_block & 3].select);
}
