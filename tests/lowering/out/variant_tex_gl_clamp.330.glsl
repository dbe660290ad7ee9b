#version 330 core
// glpipe: lowered from TGSI FRAG

uniform sampler2D glp_fs_samp0;
uniform sampler2DRect glp_fs_samp1;
uniform sampler2DArrayShadow glp_fs_samp2;
uniform sampler1D glp_fs_samp3;
uniform sampler2D glp_fs_samp4;

in glp_generic_0_block { vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t0_2 = vec4(0.0);
    vec4 t0_3 = vec4(0.0);
    vec4 t1_0 = vec4(0.0);
    vec4 t1_1 = vec4(0.0);
    vec4 t1_2 = vec4(0.0);
    vec4 t1_3 = vec4(0.0);
    vec2 glp_coord1 = glp_generic_0.xy;
    vec2 glp_clamped2 = glp_coord1;
    glp_clamped2.xy = clamp(glp_clamped2.xy, 0.0, 1.0);   // GL_CLAMP (sampler 0)
    float glp_bias_scale3 = exp2(glp_generic_0.w);
    // GL_CLAMP: keep the LOD of the unclamped coordinate (vec2 gradients)
    t0_0 = textureGrad(glp_fs_samp0, glp_clamped2, dFdx(glp_coord1) * glp_bias_scale3, dFdy(glp_coord1) * glp_bias_scale3);
    vec2 glp_coord4 = glp_generic_0.xy / glp_generic_0.w;
    vec2 glp_clamped5 = glp_coord4;
    glp_clamped5.xy = clamp(glp_clamped5.xy, vec2(0.0), vec2(textureSize(glp_fs_samp1)).xy);   // GL_CLAMP (sampler 1)
    t1_0 = texture(glp_fs_samp1, glp_clamped5);
    t0_1 = t0_0 + t1_0;
    vec4 glp_coord6 = glp_generic_0;
    vec4 glp_clamped7 = glp_coord6;
    glp_clamped7.xy = clamp(glp_clamped7.xy, 0.0, 1.0);   // GL_CLAMP (sampler 2)
    // GL_CLAMP: keep the LOD of the unclamped coordinate (vec2 gradients)
    t1_1.x = textureGrad(glp_fs_samp2, glp_clamped7, dFdx(glp_coord6.xy), dFdy(glp_coord6.xy));
    t0_2 = t0_1 + t1_1.xxxx;
    float glp_coord8 = glp_generic_0.x;
    float glp_clamped9 = glp_coord8;
    glp_clamped9 = clamp(glp_clamped9, 0.0, 1.0);   // GL_CLAMP (sampler 3)
    t1_2 = textureGrad(glp_fs_samp3, glp_clamped9, glp_generic_0.y, glp_generic_0.z);
    t0_3 = t0_2 + t1_2;
    vec2 glp_coord10 = glp_generic_0.xy;
    vec2 glp_clamped11 = glp_coord10;
    glp_clamped11.xy = clamp(glp_clamped11.xy, 0.0, 1.0);   // GL_CLAMP (sampler 0)
    // GL_CLAMP: keep the LOD of the unclamped coordinate (vec2 gradients)
    t1_3 = textureGrad(glp_fs_samp4, glp_clamped11, dFdx(glp_coord10), dFdy(glp_coord10));
    glp_frag_color_0 = t0_3 + t1_3;
}
