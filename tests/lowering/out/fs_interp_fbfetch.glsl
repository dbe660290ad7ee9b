#version 450 core
#extension GL_EXT_shader_framebuffer_fetch : require
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { vec4 glp_generic_0; };
in glp_generic_1_block { noperspective centroid vec4 glp_generic_1; };
in glp_generic_2_block { sample vec4 glp_generic_2; };
layout(location = 0) inout vec4 glp_frag_color_0;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t0_2 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    vec4 t2 = vec4(0.0);
    vec4 t3 = vec4(0.0);
    vec4 glp_fbfetch_0 = glp_frag_color_0;
    t0_0 = interpolateAtCentroid(glp_generic_0);
    t1 = interpolateAtSample(glp_generic_1, 2).wzyx;
    t2.xy = -interpolateAtOffset(glp_generic_0, vec2(0.25, -0.25)).xy;
    t2.zw = glp_generic_2.zw;
    t3 = glp_fbfetch_0;
    t0_1 = t0_0 + t1;
    t0_2 = t0_1 + t2;
    glp_frag_color_0 = t0_2;
    glp_frag_color_0 = t0_2 + t3;
}
