#version 330 core
// glpipe: lowered from TGSI VERT

layout(std140) uniform glp_sysvals
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

layout(location = 0) in vec4 glp_attr_0;
layout(location = 1) in vec4 glp_attr_1;
out glp_generic_0_block { vec4 glp_generic_0; };

void main()
{
    vec4 glp_window_position = vec4(0.0);
    glp_window_position = glp_attr_0;
    glp_generic_0 = glp_attr_1;
    // VS_WINDOW_SPACE_POSITION: glp_window_position is in window coordinates with 1/w in .w;
    // undo the viewport transform and restore w so GL's divide and viewport give it back.
    gl_Position.w = (glp_window_position.w != 0.0) ? 1.0 / glp_window_position.w : 1.0;
    gl_Position.xyz = (glp_window_position.xyz - sysvals.viewport_translate.xyz) / sysvals.viewport_scale.xyz * gl_Position.w;
}
