#version 450 core
#extension GL_EXT_texture_shadow_lod : require
// glpipe: lowered from TGSI VERT

layout(binding = 15) uniform sampler1DArray glp_vs_samp0;
layout(binding = 16) uniform sampler2DArray glp_vs_samp1;
layout(binding = 17) uniform samplerCubeArray glp_vs_samp2;
layout(binding = 18) uniform samplerCubeArrayShadow glp_vs_samp3;

layout(location = 0) in vec4 glp_attr_0;
layout(location = 1) in vec4 glp_attr_1;
out glp_generic_0_block { vec4 glp_generic_0; };

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t0_2 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    vec4 t2 = vec4(0.0);
    vec4 t3 = vec4(0.0);
    t0_0 = textureLod(glp_vs_samp0, glp_attr_0.xy, glp_attr_0.w);
    t1 = textureLod(glp_vs_samp1, glp_attr_0.xyz, glp_attr_0.w);
    t2 = textureLod(glp_vs_samp2, glp_attr_1, 1.0);
    t3.x = texture(glp_vs_samp3, glp_attr_1, glp_attr_0.w);
    t3.y = textureLod(glp_vs_samp3, glp_attr_1, 2.0, 0.0);
    t3.zw = textureGrad(glp_vs_samp2, glp_attr_1, glp_attr_0.xyz, glp_attr_0.yxz).zw;
    t0_1 = t0_0 + t1;
    t0_2 = t0_1 + t2;
    gl_Position = glp_attr_0;
    glp_generic_0 = t0_2 + t3;
}
