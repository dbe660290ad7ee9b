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

layout(binding = 0) uniform sampler2D glp_fs_samp0;

in glp_color_0_block { flat vec4 glp_color_0; };
in glp_bcolor_0_block { flat vec4 glp_bcolor_0; };
in glp_color_1_block { flat centroid vec4 glp_color_1; };
in glp_bcolor_1_block { flat centroid vec4 glp_bcolor_1; };
in glp_generic_0_block { vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

vec4 glp_two_side_color_0;
vec4 glp_two_side_color_1;
vec4 glp_sprite_coord;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    glp_two_side_color_0 = gl_FrontFacing ? glp_color_0 : glp_bcolor_0;
    glp_two_side_color_1 = gl_FrontFacing ? glp_color_1 : glp_bcolor_1;
    glp_sprite_coord = vec4(gl_PointCoord.x, 1.0 - gl_PointCoord.y, 0.0, 1.0);
    ivec2 glp_window_pos = ivec2(floor(gl_FragCoord.xy));
    glp_window_pos.y = int(sysvals.fb_size.y) - 1 - glp_window_pos.y;
    // polygon stipple: row y % 32, bit 31 - x % 32 (the MSB is the leftmost pixel)
    uint glp_stipple_row = sysvals.stipple[(glp_window_pos.y & 31) >> 2][glp_window_pos.y & 3];
    if (((glp_stipple_row >> uint(31 - (glp_window_pos.x & 31))) & 1u) == 0u) discard;
    // window rectangles (exclusive): x, y, width, height
    bool glp_in_window_rect = false;
    for (int glp_r = 0; glp_r < 3; ++glp_r) {
        ivec4 glp_window_rect = sysvals.window_rect[glp_r];
        glp_in_window_rect = glp_in_window_rect || (all(greaterThanEqual(glp_window_pos, glp_window_rect.xy)) && all(lessThan(glp_window_pos, glp_window_rect.xy + glp_window_rect.zw)));
    }
    if (glp_in_window_rect) discard;
    vec2 glp_coord1 = glp_generic_0.xy;
    vec2 glp_clamped2 = glp_coord1;
    glp_clamped2.xy = clamp(glp_clamped2.xy, 0.0, 1.0);   // GL_CLAMP (sampler 0)
    // GL_CLAMP: keep the LOD of the unclamped coordinate (vec2 gradients)
    t0_0 = textureGrad(glp_fs_samp0, glp_clamped2, dFdx(glp_coord1), dFdy(glp_coord1));
    t1 = glp_two_side_color_0 * glp_two_side_color_1;
    t0_1 = t0_0 * t1 + glp_sprite_coord;
    t0_1.xy = t0_1.xy + vec2(gl_FragCoord.x, sysvals.fb_size.y - gl_FragCoord.y);
    glp_frag_color_0 = t0_1;
    glp_frag_color_0 = clamp(glp_frag_color_0, 0.0, 1.0);
    if (!(glp_frag_color_0.a >= sysvals.alpha_ref.x)) discard;   // alpha test
    glp_frag_color_1 = glp_frag_color_0;
}
