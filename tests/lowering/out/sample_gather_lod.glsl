#version 450 core
// glpipe: lowered from TGSI FRAG

layout(binding = 0) uniform sampler2D glp_fs_samp0;
layout(binding = 1) uniform isampler2DMS glp_fs_samp1;
layout(binding = 2) uniform sampler2DArray glp_fs_samp2;

in glp_texcoord_0_block { vec4 glp_texcoord_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

void main()
{
    vec4 t0 = vec4(0.0);
    ivec4 t1 = ivec4(0);
    vec4 t2 = vec4(0.0);
    t0 = textureGather(glp_fs_samp0, glp_texcoord_0.xy).zwxy;
    t1 = floatBitsToInt(textureGatherOffset(glp_fs_samp0, glp_texcoord_0.xy, ivec2(1, -1)));
    t2.xy = textureQueryLod(glp_fs_samp0, glp_texcoord_0.xy);
    t2.zw = vec2(0.0);
    t1.w = textureQueryLevels(glp_fs_samp2);
    t0.xw = intBitsToFloat(ivec2(textureSamples(glp_fs_samp1), 0));
    t1.x = gl_NumSamples;
    glp_frag_color_0 = t0 + t2;
    glp_frag_color_1 = intBitsToFloat(t1);
}
