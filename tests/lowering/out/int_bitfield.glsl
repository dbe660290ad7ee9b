#version 450 core
// glpipe: lowered from TGSI COMP

layout(local_size_x = 8, local_size_y = 1, local_size_z = 1) in;

layout(std430, binding = 0) buffer glp_cs_ssbo0
{
    uint d[];
} ssbo0;

void main()
{
    uvec4 t0 = uvec4(0u);
    uvec4 t1_0 = uvec4(0u);
    uvec4 t1_1 = uvec4(0u);
    uvec4 t2_0 = uvec4(0u);
    uvec4 t2_1 = uvec4(0u);
    uvec4 t3 = uvec4(0u);
    t0.x = gl_LocalInvocationID.x * 16u;
    uint glp_addr1 = t0.x >> 2;
    t1_0 = uvec4(ssbo0.d[glp_addr1], ssbo0.d[glp_addr1 + 1u], ssbo0.d[glp_addr1 + 2u], ssbo0.d[glp_addr1 + 3u]);
    t2_0 = uvec4(bitfieldExtract(ivec4(t1_0), 3, 5));
    t3 = uvec4(bitfieldExtract(t1_0.x, 3, 5), bitfieldExtract(t1_0.y, 5, 3), bitfieldExtract(t1_0.z, 0, 0), bitfieldExtract(t1_0.w, 31, 3));
    t2_1.xy = bitfieldInsert(t2_0.xy, t3.xy, 4, 8);
    t2_1.z = bitfieldReverse(t1_0.z);
    t2_1.w = uint(bitCount(int(t1_0.w)));
    t3.x = uint(findLSB(int(t1_0.x)));
    t3.y = uint(findMSB(int(t1_0.y)));
    t3.z = uint(findMSB(t1_0.z));
    t1_1 = t2_1 ^ t3;
    uint glp_addr2 = t0.x >> 2;
    ssbo0.d[glp_addr2] = t1_1.x;
    ssbo0.d[glp_addr2 + 1u] = t1_1.y;
    ssbo0.d[glp_addr2 + 2u] = t1_1.z;
    ssbo0.d[glp_addr2 + 3u] = t1_1.w;
}
