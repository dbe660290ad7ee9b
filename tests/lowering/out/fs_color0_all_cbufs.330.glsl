#version 330 core
// glpipe: lowered from TGSI FRAG

in glp_color_0_block { vec4 glp_color_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;
layout(location = 2) out uvec4 glp_frag_color_2;

void main()
{
    glp_frag_color_0 = glp_color_0;
    if (glp_color_0.w != 0.0) {
        glp_frag_color_1 = glp_frag_color_0;
        glp_frag_color_2 = floatBitsToUint(glp_frag_color_0);
        return;
    }
    glp_frag_color_0 = glp_color_0 * glp_color_0;
    glp_frag_color_1 = glp_frag_color_0;
    glp_frag_color_2 = floatBitsToUint(glp_frag_color_0);
}
