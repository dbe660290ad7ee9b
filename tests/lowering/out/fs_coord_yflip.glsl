#version 450 core
// glpipe: lowered from TGSI FRAG

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

layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    glp_frag_color_0 = vec4(sysvals.fb_size.y - gl_FragCoord.y, gl_FragCoord.x, gl_FragCoord.z, gl_FragCoord.w);
}
