#version 450 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    vec4 t0 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    t0.xy = dFdx(glp_generic_0.xy);
    t0.zw = dFdy(glp_generic_0.zw);
    t1.xy = dFdxFine(glp_generic_0.xy);
    t1.zw = dFdyFine(glp_generic_0.zw);
    glp_frag_color_0 = t0 + t1;
}
