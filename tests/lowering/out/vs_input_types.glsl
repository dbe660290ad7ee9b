#version 450 core
// glpipe: lowered from TGSI VERT

layout(location = 0) in vec4 glp_attr_0;
layout(location = 1) in ivec4 glp_attr_1;
layout(location = 2) in uvec4 glp_attr_2;
out glp_generic_0_block { vec4 glp_generic_0; };

void main()
{
    vec4 t0 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    t0 = vec4(glp_attr_1);
    t1 = vec4(glp_attr_2);
    gl_Position = glp_attr_0;
    glp_generic_0 = t0 + t1;
}
