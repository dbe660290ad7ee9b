#version 450 core
// glpipe: lowered from TGSI FRAG

layout(binding = 0) uniform isampler2D glp_fs_samp0;
layout(binding = 1) uniform usampler1DArray glp_fs_samp1;
layout(binding = 2) uniform sampler2DMS glp_fs_samp2;

layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    uvec4 t0 = uvec4(0u);
    ivec4 t1 = ivec4(0);
    t0 = uvec4(ivec4(textureSize(glp_fs_samp0, 1), 0, textureQueryLevels(glp_fs_samp0)));
    t1.w = textureQueryLevels(glp_fs_samp1);
    t1.x = textureSamples(glp_fs_samp2);
    t1.y = 1;
    t1.z = 0;
    glp_frag_color_0 = uintBitsToFloat(t0 ^ uvec4(t1));
}
