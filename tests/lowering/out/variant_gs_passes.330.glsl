#version 330 core
// glpipe: lowered from TGSI GEOM

layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;

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

in glp_color_0_block { vec4 glp_color_0; } glp_color_0_in[3];
out glp_color_0_block { vec4 glp_color_0; };
out glp_bcolor_0_block { vec4 glp_bcolor_0; };

void main()
{
    uvec4 t0_0 = uvec4(0u);
    uvec4 t0_1 = uvec4(0u);
    ivec4 addr0 = ivec4(0);
    t0_0.x = 0u;
    while (true) {
        t0_1.y = -uint(int(t0_0.x) >= 3);
        if (t0_1.y != 0u) {
            break;
        }
        addr0.x = int(t0_0.x);
        gl_Position = gl_in[clamp(addr0.x, 0, 2)].gl_Position;
        glp_color_0 = glp_color_0_in[clamp(addr0.x, 0, 2)].glp_color_0;
        gl_ClipDistance[0] = dot(gl_Position, sysvals.clip_plane[0]);
        gl_ClipDistance[1] = dot(gl_Position, sysvals.clip_plane[1]);
        glp_bcolor_0 = glp_color_0;
        gl_Position.y = -gl_Position.y;   // y flip
        EmitVertex();
        t0_0.x = t0_0.x + 1u;
    }
    EndPrimitive();
}
