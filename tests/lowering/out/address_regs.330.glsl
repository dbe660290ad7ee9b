#version 330 core
// glpipe: lowered from TGSI VERT

layout(std140) uniform glp_vs_cb0
{
    vec4 c[16];
} cb0;
layout(std140) uniform glp_vs_cb1
{
    vec4 c[8];
} cb1;

layout(location = 0) in vec4 glp_attr_0;
layout(location = 1) in vec4 glp_attr_1;
out glp_generic_0_block { vec4 glp_generic_0; };

void main()
{
    ivec4 t0 = ivec4(0);
    vec4 t1_0 = vec4(0.0);
    vec4 t1_1 = vec4(0.0);
    vec4 t2 = vec4(0.0);
    ivec4 addr0 = ivec4(0);
    ivec4 addr1 = ivec4(0);
    addr0.x = int(floor(glp_attr_1.x));
    addr0.y = int(roundEven(glp_attr_1.y));
    t0.x = int(glp_attr_1.z);
    addr1.x = t0.x;
    t1_0 = cb0.c[addr0.x + 3];
    t1_1 = t1_0 + cb1.c[addr0.y - 1].wzyx;
    t2 = cb0.c[addr1.x] * glp_attr_0.xxxx + cb0.c[0];
    gl_Position = t2;
    glp_generic_0 = t1_1;
}
