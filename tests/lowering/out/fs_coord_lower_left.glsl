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

layout(pixel_center_integer) in vec4 gl_FragCoord;
layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    vec4 t0 = vec4(0.0);
    t0 = vec4(gl_FragCoord.x, sysvals.fb_size.y - 1.0 - gl_FragCoord.y, gl_FragCoord.z, gl_FragCoord.w);
    t0.w = uintBitsToFloat((gl_FrontFacing ? 0xffffffffu : 0u) & floatBitsToUint(gl_FragCoord.w));
    glp_frag_color_0 = t0;
}
