#version 330 core
// glpipe: lowered from TGSI FRAG

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

layout(std140) uniform glp_fs_cb0
{
    vec4 c[1];
} cb0;
uniform sampler2D glp_fs_samp0;
uniform sampler2DShadow glp_fs_samp1;
uniform usamplerCube glp_fs_samp2;
uniform sampler2DArray glp_fs_samp3;

in glp_texcoord_0_block { vec4 glp_texcoord_0; };
in glp_generic_0_block { flat vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

vec4 glp_gtexel_sampler2D(sampler2D s, ivec2 t, ivec2 size)
{
    if (all(greaterThanEqual(t, ivec2(0))) && all(lessThan(t, size)))
        return texelFetch(s, t, 0);
    return textureGrad(s, (vec2(t) + 0.5) / vec2(size), vec2(0.0), vec2(0.0));
}
vec4 glp_gather_sampler2D_x(sampler2D s, vec2 P, ivec2 o0, ivec2 o1, ivec2 o2, ivec2 o3)
{
    ivec2 size = textureSize(s, 0);
    vec2 f = P * vec2(size) - 0.5;
    ivec2 b = ivec2(floor(f));
    return vec4(
        glp_gtexel_sampler2D(s, b + ivec2(0, 1) + o0, size).x,
        glp_gtexel_sampler2D(s, b + ivec2(1, 1) + o1, size).x,
        glp_gtexel_sampler2D(s, b + ivec2(1, 0) + o2, size).x,
        glp_gtexel_sampler2D(s, b + ivec2(0, 0) + o3, size).x);
}
vec4 glp_gather_sampler2D_z(sampler2D s, vec2 P, ivec2 o0, ivec2 o1, ivec2 o2, ivec2 o3)
{
    ivec2 size = textureSize(s, 0);
    vec2 f = P * vec2(size) - 0.5;
    ivec2 b = ivec2(floor(f));
    return vec4(
        glp_gtexel_sampler2D(s, b + ivec2(0, 1) + o0, size).z,
        glp_gtexel_sampler2D(s, b + ivec2(1, 1) + o1, size).z,
        glp_gtexel_sampler2D(s, b + ivec2(1, 0) + o2, size).z,
        glp_gtexel_sampler2D(s, b + ivec2(0, 0) + o3, size).z);
}
vec4 glp_gather_sampler2D_w(sampler2D s, vec2 P, ivec2 o0, ivec2 o1, ivec2 o2, ivec2 o3)
{
    ivec2 size = textureSize(s, 0);
    vec2 f = P * vec2(size) - 0.5;
    ivec2 b = ivec2(floor(f));
    return vec4(
        glp_gtexel_sampler2D(s, b + ivec2(0, 1) + o0, size).w,
        glp_gtexel_sampler2D(s, b + ivec2(1, 1) + o1, size).w,
        glp_gtexel_sampler2D(s, b + ivec2(1, 0) + o2, size).w,
        glp_gtexel_sampler2D(s, b + ivec2(0, 0) + o3, size).w);
}
float glp_gtexel_sampler2DShadow(sampler2DShadow s, ivec2 t, ivec2 size, float ref)
{
    return textureGrad(s, vec3((vec2(t) + 0.5) / vec2(size), ref), vec2(0.0), vec2(0.0));
}
vec4 glp_gather_sampler2DShadow(sampler2DShadow s, vec2 P, float ref, ivec2 o0, ivec2 o1, ivec2 o2, ivec2 o3)
{
    ivec2 size = textureSize(s, 0);
    vec2 f = P * vec2(size) - 0.5;
    ivec2 b = ivec2(floor(f));
    return vec4(
        glp_gtexel_sampler2DShadow(s, b + ivec2(0, 1) + o0, size, ref),
        glp_gtexel_sampler2DShadow(s, b + ivec2(1, 1) + o1, size, ref),
        glp_gtexel_sampler2DShadow(s, b + ivec2(1, 0) + o2, size, ref),
        glp_gtexel_sampler2DShadow(s, b + ivec2(0, 0) + o3, size, ref));
}
// GL 4.5 Table 8.19: major axis, sc axis, tc axis of faces +X, -X, +Y, -Y, +Z, -Z
const ivec3 glp_cube_m[6] = ivec3[6](ivec3(1, 0, 0), ivec3(-1, 0, 0), ivec3(0, 1, 0), ivec3(0, -1, 0), ivec3(0, 0, 1), ivec3(0, 0, -1));
const ivec3 glp_cube_s[6] = ivec3[6](ivec3(0, 0, -1), ivec3(0, 0, 1), ivec3(1, 0, 0), ivec3(1, 0, 0), ivec3(1, 0, 0), ivec3(-1, 0, 0));
const ivec3 glp_cube_t[6] = ivec3[6](ivec3(0, -1, 0), ivec3(0, -1, 0), ivec3(0, 0, 1), ivec3(0, 0, -1), ivec3(0, -1, 0), ivec3(0, -1, 0));
vec3 glp_cube_texel_dir(int f, ivec2 t, int n, bool seamless)
{
    if (!seamless)
        t = clamp(t, ivec2(0), ivec2(n - 1));
    ivec3 q = n * glp_cube_m[f] + (2 * t.x + 1 - n) * glp_cube_s[f] + (2 * t.y + 1 - n) * glp_cube_t[f];
    ivec3 a = abs(q);
    if (any(greaterThan(a, ivec3(n))))
        q -= sign(q) * ivec3(greaterThanEqual(a, ivec3(n)));
    return vec3(q);
}
ivec3 glp_cube_footprint(vec3 P, int n)
{
    vec3 a = abs(P);
    int m = a.z >= max(a.x, a.y) ? 2 : (a.x > a.y ? 0 : 1);
    int f = 2 * m + (floatBitsToInt(P[m]) < 0 ? 1 : 0);
    vec2 sc = vec2(dot(P, vec3(glp_cube_s[f])), dot(P, vec3(glp_cube_t[f])));
    vec2 st = sc * (0.5 / a[m]) + 0.5;
    return ivec3(f, ivec2(floor(st * float(n) - 0.5)));
}
uvec4 glp_gather_usamplerCube_y(usamplerCube s, vec3 P, bool seamless)
{
    int n = textureSize(s, 0).x;
    ivec3 b = glp_cube_footprint(P, n);
    uvec4 v = uvec4(
        textureGrad(s, glp_cube_texel_dir(b.x, b.yz + ivec2(0, 1), n, seamless), vec3(0.0), vec3(0.0)).y,
        textureGrad(s, glp_cube_texel_dir(b.x, b.yz + ivec2(1, 1), n, seamless), vec3(0.0), vec3(0.0)).y,
        textureGrad(s, glp_cube_texel_dir(b.x, b.yz + ivec2(1, 0), n, seamless), vec3(0.0), vec3(0.0)).y,
        textureGrad(s, glp_cube_texel_dir(b.x, b.yz + ivec2(0, 0), n, seamless), vec3(0.0), vec3(0.0)).y);
    // a texel off a cube corner (outside in i and in j): the corner rule (texture_gather_cube.py)
    ivec2 i = b.yz;
    if (seamless && (i.x < 0 || i.x + 1 >= n) && (i.y < 0 || i.y + 1 >= n))
    {
        if (i.x < 0 && i.y + 1 >= n) v[0] = v[3];
        if (i.x + 1 >= n && i.y + 1 >= n) v[1] = v[2];
        if (i.x + 1 >= n && i.y < 0) v[2] = v[1];
        if (i.x < 0 && i.y < 0) v[3] = v[0];
    }
    return v;
}
vec2 glp_lodq_select(float lambda, vec4 smp, int levels)
{
    float l = min(max(lambda, smp.y), smp.z);
    l = clamp(l, 0.0, max(float(levels - 1), 0.0));
    float x = smp.w == 0.0 ? 0.0 : (smp.w == 1.0 ? ceil(l + 0.5) - 1.0 : l);
    return vec2(x, lambda);
}
vec2 glp_lodq_sampler2D(sampler2D s, vec2 P, vec4 smp, int levels)
{
    vec2 size = vec2(textureSize(s, 0));
    vec2 dx = dFdx(P) * size, dy = dFdy(P) * size;
    float rho = max(length(dx), length(dy));
    return glp_lodq_select(log2(rho) + smp.x, smp, levels);
}
vec2 glp_lodq_sampler2DArray(sampler2DArray s, vec2 P, vec4 smp, int levels)
{
    vec2 size = vec2(textureSize(s, 0).xy);
    vec2 dx = dFdx(P) * size, dy = dFdy(P) * size;
    float rho = max(length(dx), length(dy));
    return glp_lodq_select(log2(rho) + smp.x, smp, levels);
}

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t0_2 = vec4(0.0);
    vec4 t1_0 = vec4(0.0);
    vec4 t1_1 = vec4(0.0);
    vec4 t2 = vec4(0.0);
    vec4 t3 = vec4(0.0);
    uvec4 t4 = uvec4(0u);
    t0_0 = glp_gather_sampler2D_x(glp_fs_samp0, glp_texcoord_0.xy, ivec2(0), ivec2(0), ivec2(0), ivec2(0));
    t1_0 = glp_gather_sampler2D_z(glp_fs_samp0, glp_texcoord_0.xy, ivec2(-1, 1), ivec2(-1, 1), ivec2(-1, 1), ivec2(-1, 1));
    t2 = glp_gather_sampler2D_w(glp_fs_samp0, glp_texcoord_0.xy, floatBitsToInt(cb0.c[0].xy), floatBitsToInt(cb0.c[0].xy), floatBitsToInt(cb0.c[0].xy), floatBitsToInt(cb0.c[0].xy));
    t3 = glp_gather_sampler2DShadow(glp_fs_samp1, glp_texcoord_0.xy, glp_texcoord_0.z, ivec2(0), ivec2(0), ivec2(0), ivec2(0));
    t4 = glp_gather_usamplerCube_y(glp_fs_samp2, glp_texcoord_0.xyz, (sysvals.sampler_seamless[32][2] != 0u));
    t1_1.xy = glp_lodq_sampler2D(glp_fs_samp0, glp_texcoord_0.xy, sysvals.sampler_lod[128], int(sysvals.view_levels[128][0]));
    t1_1.zw = vec2(0.0);
    t2.xw = vec2(glp_lodq_sampler2DArray(glp_fs_samp3, glp_texcoord_0.xy, sysvals.sampler_lod[131], int(sysvals.view_levels[128][3])).x, 0.0);
    t0_1 = t0_0 + t1_1;
    t0_2 = t0_1 + t2;
    glp_frag_color_0 = t0_2 + t3;
    glp_frag_color_1 = uintBitsToFloat(t4);
}
