#version 330 core
// glpipe: lowered from TGSI FRAG

uniform sampler2D glp_fs_samp0;
uniform sampler2D glp_fs_samp1;

in glp_texcoord_0_block { vec4 glp_texcoord_0; };
layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    ivec4 t1_0 = ivec4(0);
    ivec4 t1_1 = ivec4(0);
    vec4 t1_2 = vec4(0.0);
    vec4 t2 = vec4(0.0);
    if (any(lessThan(glp_texcoord_0, vec4(0.0)))) discard;
    t0_0 = textureLod(glp_fs_samp0, glp_texcoord_0.xy, 0.0);
    t1_0 = ivec4(glp_texcoord_0);
    t2 = texelFetch(glp_fs_samp1, t1_0.xy, 0);
    t1_1.xy = textureSize(glp_fs_samp1, 0);
    t1_2.xy = vec2(t1_1.xy);
    t0_1 = t0_0 + t2;
    t0_1.xy = t0_1.xy + t1_2.xy;
    glp_frag_color_0 = t0_1;
    if (glp_texcoord_0.w != 0.0) {
        discard;
    }
}
