#version 430
//! driver: virgl
// virgl flavour: packing functions (half, unorm/snorm) and frexp/ldexp on floats.
in vec4 v_a;
flat in uvec2 v_p;
flat in ivec4 v_e;
out uvec4 o_packed;
out vec4 o_unpacked;
void main()
{
    o_packed = uvec4(packHalf2x16(v_a.xy), packUnorm2x16(v_a.zw), packSnorm4x8(v_a), packUnorm4x8(v_a.wzyx));
    ivec4 e;
    vec4 m = frexp(v_a, e);
    o_unpacked = vec4(unpackHalf2x16(v_p.x), unpackSnorm2x16(v_p.y)) + ldexp(m, v_e + e);
}
