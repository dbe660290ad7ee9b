#version 450 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { vec4 glp_generic_0; };
in glp_generic_1_block { flat vec4 glp_generic_1; };
in glp_generic_2_block { noperspective vec4 glp_generic_2; };
in glp_color_0_block { flat vec4 glp_color_0; };
in glp_color_1_block { centroid vec4 glp_color_1; };
in glp_texcoord_0_block { vec4 glp_texcoord_0; };
in glp_clipdist_0_block { noperspective vec4 glp_clipdist_0; };
in glp_fog_0_block { vec4 glp_fog_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t0_2 = vec4(0.0);
    vec4 t1_0 = vec4(0.0);
    vec4 t1_1 = vec4(0.0);
    vec4 t1_2 = vec4(0.0);
    vec4 t1_3 = vec4(0.0);
    vec4 t2 = vec4(0.0);
    uvec4 t3 = uvec4(0u);
    t0_0 = gl_FragCoord + vec4(gl_FrontFacing ? 1.0 : -1.0);
    t0_1 = glp_generic_0 * glp_color_0 + t0_0;
    t1_0 = glp_generic_2 + glp_color_1;
    t1_1 = t1_0 + glp_texcoord_0;
    t1_2.xy = t1_1.xy + gl_PointCoord;
    t1_2.zw = t1_1.zw + glp_clipdist_0.xy;
    t1_3 = t1_2 + glp_fog_0.xxxx;
    t2.w = float(gl_PrimitiveID);
    t2.xyz = glp_generic_1.xyz;
    t3 = floatBitsToUint(glp_generic_1) & uvec4(uint(gl_PrimitiveID));
    t0_2 = t0_1 + t1_3;
    glp_frag_color_0 = t0_2 + t2;
    glp_frag_color_1 = uintBitsToFloat(t3);
}
