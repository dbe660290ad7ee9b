#version 330
#extension GL_ARB_shading_language_packing : require
// packUnorm2x16, packSnorm2x16, packUnorm4x8, packSnorm4x8 and their unpack functions.
in vec4 v_a;
flat in uvec4 v_p;
out uvec4 o_packed;
out vec4 o_unpacked;
void main()
{
    o_packed = uvec4(packUnorm2x16(v_a.xy), packSnorm2x16(v_a.zw), packUnorm4x8(v_a), packSnorm4x8(v_a.wzyx));
    o_unpacked = vec4(unpackUnorm2x16(v_p.x), unpackSnorm2x16(v_p.y)) + unpackUnorm4x8(v_p.z) + unpackSnorm4x8(v_p.w);
}
