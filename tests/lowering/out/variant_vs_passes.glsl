#version 450 core
// glpipe: lowered from TGSI VERT

layout(std140, binding = 83) uniform glp_sysvals
{
    vec4 fb_size;
    vec4 viewport_scale;
    vec4 viewport_translate;
    vec4 alpha_ref;
    vec4 depth_offset;
    vec4 tess_default_outer;
    vec4 tess_default_inner;
    uvec4 compute_info;
    vec4 clip_plane[8];
    uvec4 stipple[8];
    ivec4 window_rect[8];
    uvec4 line_stipple;
    uvec4 view_levels[192];
    vec4 sampler_lod[192];
    uvec4 sampler_seamless[48];
} sysvals;

layout(std140, binding = 0) uniform glp_vs_cb0
{
    vec4 c[4];
} cb0;

layout(location = 0) in vec4 glp_attr_0;
layout(location = 1) in vec4 glp_attr_1;
out glp_color_0_block { flat vec4 glp_color_0; };
out glp_color_1_block { flat centroid vec4 glp_color_1; };
out glp_bcolor_1_block { flat centroid vec4 glp_bcolor_1; };
out glp_generic_0_block { vec4 glp_generic_0; };
out glp_color_2_block { flat vec4 glp_color_2; };
out glp_bcolor_0_block { flat vec4 glp_bcolor_0; };
out glp_bcolor_2_block { flat vec4 glp_bcolor_2; };

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t0_2 = vec4(0.0);
    vec4 glp_clipvertex = vec4(0.0);
    glp_color_2 = vec4(0.0);
    t0_0 = glp_attr_0.xxxx * cb0.c[0];
    t0_1 = glp_attr_0.yyyy * cb0.c[1] + t0_0;
    t0_2 = glp_attr_0.zzzz * cb0.c[2] + t0_1;
    gl_Position = glp_attr_0.wwww * cb0.c[3] + t0_2;
    glp_clipvertex = glp_attr_0;
    glp_color_0 = glp_attr_1;
    glp_color_1 = glp_attr_1.zyxw;
    glp_bcolor_1 = -glp_attr_1;
    glp_generic_0 = glp_attr_0;
    gl_ClipDistance[0] = dot(glp_clipvertex, sysvals.clip_plane[0]);
    gl_ClipDistance[1] = dot(glp_clipvertex, sysvals.clip_plane[1]);
    gl_ClipDistance[3] = dot(glp_clipvertex, sysvals.clip_plane[3]);
    glp_bcolor_0 = glp_color_0;
    glp_bcolor_0 = clamp(glp_bcolor_0, 0.0, 1.0);
    glp_bcolor_1 = clamp(glp_bcolor_1, 0.0, 1.0);
    glp_color_0 = clamp(glp_color_0, 0.0, 1.0);
    glp_color_1 = clamp(glp_color_1, 0.0, 1.0);
    gl_Position.y = -gl_Position.y;   // y flip
}
