#version 450 core
// glpipe: lowered from TGSI TESS_EVAL

layout(quads, fractional_odd_spacing, cw, point_mode) in;

in glp_generic_0_block { vec4 glp_generic_0; } glp_generic_0_in[];
patch in glp_patch_0_block { vec4 glp_patch_0; };
out glp_generic_0_block { vec4 glp_generic_0; };

void main()
{
    vec4 t0;
    vec4 t1_0;
    vec4 t1_1;
    vec4 t2_0;
    vec4 t2_1;
    vec4 t3_0;
    vec4 t3_1;
    t0.xy = vec2(1.0) - gl_TessCoord.xy;
    t1_0 = gl_in[0].gl_Position * t0.xxxx;
    t1_1 = gl_in[1].gl_Position * gl_TessCoord.xxxx + t1_0;
    t2_0 = gl_in[3].gl_Position * t0.yyyy;
    t2_1 = gl_in[2].gl_Position * gl_TessCoord.yyyy + t2_0;
    gl_Position = t1_1 + t2_1;
    t3_0 = glp_generic_0_in[0].glp_generic_0 + glp_patch_0;
    t3_1.xy = t3_0.xy + vec2(gl_TessLevelOuter[0], gl_TessLevelOuter[1]);
    t3_1.zw = t3_0.zw + vec2(gl_TessLevelInner[0], gl_TessLevelInner[1]);
    t0.z = float(gl_PatchVerticesIn);
    t0.w = float(gl_PrimitiveID);
    glp_generic_0 = t3_1 + t0;
}
