#version 450 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { noperspective vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

uint glp_pk2us(vec2 v)
{
    uvec2 q = uvec2(roundEven(clamp(v.xy, 0.0, 1.0) * 65535.0));
    return q.x | (q.y << 16);
}
uint glp_pk4b(vec4 v)
{
    uvec4 q = uvec4(ivec4(roundEven(clamp(v, -1.0, 1.0) * 127.0))) & 0xffu;
    return q.x | (q.y << 8) | (q.z << 16) | (q.w << 24);
}
uint glp_pk4ub(vec4 v)
{
    uvec4 q = uvec4(roundEven(clamp(v, 0.0, 1.0) * 255.0));
    return q.x | (q.y << 8) | (q.z << 16) | (q.w << 24);
}
vec4 glp_up2us(uint u)
{
    return vec4(float(u & 0xffffu), float(u >> 16), float(u & 0xffffu), float(u >> 16)) / 65535.0;
}
vec4 glp_up4b(uint u)
{
    return clamp(vec4(ivec4(int(u << 24), int(u << 16), int(u << 8), int(u)) >> 24) / 127.0, -1.0, 1.0);
}
vec4 glp_up4ub(uint u)
{
    return vec4(u & 0xffu, (u >> 8) & 0xffu, (u >> 16) & 0xffu, u >> 24) / 255.0;
}

void main()
{
    uvec4 t0 = uvec4(0u);
    vec4 t1_0 = vec4(0.0);
    vec4 t1_1 = vec4(0.0);
    vec4 t2 = vec4(0.0);
    vec4 t3 = vec4(0.0);
    t0.x = glp_pk2us(glp_generic_0.xy);
    t0.y = glp_pk4b(glp_generic_0);
    t0.z = glp_pk4ub(glp_generic_0);
    t1_0 = glp_up2us(t0.x);
    t2 = glp_up4b(t0.y);
    t3 = glp_up4ub(t0.z);
    t1_1 = t1_0 + t2;
    glp_frag_color_0 = t1_1 + t3;
    glp_frag_color_1 = uintBitsToFloat(t0);
}
