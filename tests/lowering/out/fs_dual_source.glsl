#version 450 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 0, index = 1) out vec4 glp_frag_color_1;

void main()
{
    glp_frag_color_0 = glp_generic_0;
    glp_frag_color_1 = glp_generic_0.wwww;
}
