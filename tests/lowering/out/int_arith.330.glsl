#version 330 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { flat vec4 glp_generic_0; };
in glp_generic_1_block { flat vec4 glp_generic_1; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

uint glp_udiv(uint a, uint b)
{
    return b == 0u ? 0xffffffffu : a / b;
}
uint glp_umod(uint a, uint b)
{
    return b == 0u ? 0xffffffffu : a % b;
}
int glp_idiv(int a, int b)
{
    return b == 0 ? -1 : ((a == int(0x80000000u) && b == -1) ? a : a / b);
}
int glp_imod(int a, int b)
{
    return b == 0 ? -1 : ((b == -1) ? 0 : a - b * (a / b));
}
uvec4 glp_select(bvec4 c, uvec4 a, uvec4 b)
{
    return uvec4(c.x ? a.x : b.x, c.y ? a.y : b.y, c.z ? a.z : b.z, c.w ? a.w : b.w);
}

void main()
{
    ivec4 t0_0 = ivec4(0);
    uvec4 t0_1 = uvec4(0u);
    uvec4 t1_0 = uvec4(0u);
    uvec4 t1_1 = uvec4(0u);
    uvec4 t2_0 = uvec4(0u);
    uvec4 t2_1 = uvec4(0u);
    uvec4 t2_2 = uvec4(0u);
    uvec4 t3_0 = uvec4(0u);
    uvec4 t3_1 = uvec4(0u);
    uvec4 t4_0 = uvec4(0u);
    vec4 t4_1 = vec4(0.0);
    ivec4 t5_0 = ivec4(0);
    vec4 t5_1 = vec4(0.0);
    t0_0 = ivec4(glp_generic_0);
    t1_0 = uvec4(glp_generic_1);
    t2_0 = t1_0 + uvec4(7u, 0u, 0xffffffffu, 2u);
    t2_1.x = t2_0.x - t1_0.y;
    t2_1.y = t1_0.y * 0xffffffffu;
    t2_1.zw = t1_0.xy * t1_0.zw + uvec2(2u);
    t3_0.x = glp_udiv(t1_0.x, t2_1.y);
    t3_0.y = glp_umod(t1_0.y, 0u);
    t3_0.z = uint(glp_idiv(t0_0.z, 3));
    t3_0.w = uint(glp_imod(t0_0.w, -7));
    t4_0.x = uint(max(t0_0.x, int(0x80000000u)));
    t4_0.y = uint(min(t0_0.y, -7));
    t4_0.z = max(t1_0.z, 7u);
    t4_0.w = min(t1_0.w, 0xffffffffu);
    t5_0.x = -t0_0.x;
    t5_0.y = abs(t0_0.y);
    t5_0.z = sign(t0_0.z);
    t5_0.w = int(-uint(t0_0.w < 0));
    t0_1.x = -uint(t0_0.x >= 3);
    t0_1.y = -uint(t1_0.y < 2u);
    t0_1.z = -uint(t1_0.z >= 7u);
    t0_1.w = -uint(t1_0.w == 0u);
    t1_1 = -uvec4(notEqual(t2_1, t3_0));
    t2_2 = glp_select(notEqual(t1_1, uvec4(0u)), t3_0, t4_0);
    t3_1 = t0_1.w != 0u ? uvec4(t5_0) : uvec4(0xfffffff9u, 3u, 0u, 0x80000000u);
    t4_1 = vec4(ivec4(t2_2));
    t5_1 = vec4(t3_1);
    glp_frag_color_0 = t4_1 + t5_1;
    glp_frag_color_1 = uintBitsToFloat(t0_1);
}
