#version 330
#extension GL_ARB_shading_language_packing : require
// packHalf2x16 / unpackHalf2x16.
in vec4 v_a;
flat in uint v_h;
out uvec2 o_packed;
out vec4 o_unpacked;
void main()
{
    o_packed = uvec2(packHalf2x16(v_a.xy), packHalf2x16(v_a.zw));
    o_unpacked = vec4(unpackHalf2x16(v_h), unpackHalf2x16(v_h >> 3u));
}
