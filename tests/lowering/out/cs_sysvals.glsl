#version 450 core
// glpipe: lowered from TGSI COMP

layout(local_size_x = 4, local_size_y = 4, local_size_z = 2) in;

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

layout(std140, binding = 0) uniform glp_cs_cb0
{
    uvec4 c[1];
} cb0;
layout(std430, binding = 0) buffer glp_cs_ssbo0
{
    uint d[];
} ssbo0;

void main()
{
    uvec4 t0 = uvec4(0u);
    uvec4 t1_0 = uvec4(0u);
    uvec4 t1_1 = uvec4(0u);
    uvec4 t1_2 = uvec4(0u);
    uvec4 t2 = uvec4(0u);
    t0.xyz = gl_WorkGroupID * gl_WorkGroupSize + gl_LocalInvocationID;
    t1_0.x = t0.z * gl_NumWorkGroups.y + t0.y;
    t1_1.x = t1_0.x * gl_NumWorkGroups.x + t0.x;
    t1_2.y = t1_1.x * 16u;
    t2.xyz = t0.xyz;
    t2.w = sysvals.compute_info.x + cb0.c[0].x;
    uint glp_addr1 = t1_2.y >> 2;
    ssbo0.d[glp_addr1] = t2.x;
    ssbo0.d[glp_addr1 + 1u] = t2.y;
    ssbo0.d[glp_addr1 + 2u] = t2.z;
    ssbo0.d[glp_addr1 + 3u] = t2.w;
}
