#version 450 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { noperspective vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

void main()
{
    uvec4 t0 = uvec4(0u);
    vec4 t1 = vec4(0.0);
    t0.xw = uvec2(packHalf2x16(glp_generic_0.zw));
    t1 = unpackHalf2x16(t0.w).xyxy;
    t1.zw = unpackHalf2x16(t0.x);
    glp_frag_color_0 = t1;
    glp_frag_color_1 = uintBitsToFloat(t0);
}
