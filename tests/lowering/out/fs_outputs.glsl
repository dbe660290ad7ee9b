#version 450 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out ivec4 glp_frag_color_1;
layout(location = 2) out uvec4 glp_frag_color_2;
layout(depth_greater) out float gl_FragDepth;

void main()
{
    glp_frag_color_0 = glp_generic_0;
    glp_frag_color_1 = ivec4(glp_generic_0);
    glp_frag_color_2 = uvec4(0xfffffffbu, 7u, 255u, 0u);
    gl_FragDepth = 0.75;
}
