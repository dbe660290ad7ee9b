#version 330
#extension GL_ARB_gpu_shader5 : require
// textureGather with every component, textureGatherOffset, textureGatherOffsets,
// shadow gathers, gathers on arrays, cubes and rects, and integer gathers.
uniform sampler2D u_tex;
uniform sampler2DArray u_arr;
uniform samplerCube u_cube;
uniform sampler2DShadow u_shadow;
uniform sampler2DRect u_rect;
uniform isampler2D u_itex;
in vec3 v_c;
in float v_ref;
uniform ivec2 u_off;
out vec4 frag;
out ivec4 frag_i;
void main()
{
    vec4 g = textureGather(u_tex, v_c.xy) + textureGather(u_tex, v_c.xy, 1)
           + textureGather(u_tex, v_c.xy, 2) + textureGather(u_tex, v_c.xy, 3);
    vec4 o = textureGatherOffset(u_tex, v_c.xy, ivec2(-2, 3)) + textureGatherOffset(u_tex, v_c.xy, u_off, 1);
    vec4 os = textureGatherOffsets(u_tex, v_c.xy, ivec2[4](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(-1, -1)));
    vec4 a = textureGather(u_arr, v_c, 2) + textureGather(u_cube, v_c);
    vec4 s = textureGather(u_shadow, v_c.xy, v_ref) + textureGatherOffset(u_shadow, v_c.xy, v_ref, ivec2(1, 1));
    vec4 r = textureGather(u_rect, v_c.xy * 64.0);
    frag = g + o + os + a + s + r;
    frag_i = textureGather(u_itex, v_c.xy, 3);
}
