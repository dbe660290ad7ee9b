#version 330 core
// glpipe: lowered from TGSI VERT

layout(location = 0) in vec4 glp_attr_0;
layout(location = 1) in vec4 glp_attr_1;
out glp_generic_0_block { vec4 glp_generic_0; };
out glp_generic_1_block { vec4 glp_generic_1; };
out glp_generic_2_block { vec4 glp_generic_2; };

void main()
{
    vec4 temps[4];
    ivec4 addr0 = ivec4(0);
    for (int glp_zi = 0; glp_zi < 4; ++glp_zi) temps[glp_zi] = vec4(0.0);
    temps[0] = glp_attr_0;
    temps[1] = glp_attr_1;
    addr0.x = int(floor(glp_attr_1.w));
    temps[2] = temps[addr0.x];
    temps[addr0.x + 1] = glp_attr_0.wzyx;
    gl_Position = temps[0];
    glp_generic_0 = temps[1];
    glp_generic_1 = temps[2];
    switch (addr0.x + 2) {
    case 0:
        gl_Position = temps[3];
        break;
    case 1:
        glp_generic_0 = temps[3];
        break;
    case 2:
        glp_generic_1 = temps[3];
        break;
    case 3:
        glp_generic_2 = temps[3];
        break;
    }
}
