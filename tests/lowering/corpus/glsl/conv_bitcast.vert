#version 330
// Bit casts in a vertex shader: floatBitsToInt/Uint and back, packed colour decoding.
in vec4 a_pos;
in uint a_packed;
uniform vec4 u_v;
out vec4 v_color;
flat out ivec4 v_ibits;
void main()
{
    uvec4 c = (uvec4(a_packed) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu;
    v_color = vec4(c) / 255.0 + uintBitsToFloat(floatBitsToUint(u_v) & 0x7fffffffu);
    v_ibits = floatBitsToInt(a_pos) + ivec4(intBitsToFloat(ivec4(1065353216)));
    gl_Position = a_pos;
}
