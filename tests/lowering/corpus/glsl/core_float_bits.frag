#version 330
// isnan/isinf and bit casts between float and int/uint.
in vec4 v_a;
flat in uvec4 v_bits;
out vec4 frag;
out ivec4 frag_i;
void main()
{
    bvec4 n = isnan(v_a);
    bvec4 i = isinf(v_a);
    ivec4 ib = floatBitsToInt(v_a);
    uvec4 ub = floatBitsToUint(v_a * 2.0);
    frag = uintBitsToFloat(v_bits) + intBitsToFloat(ib + 1) + vec4(n) + vec4(i) * 2.0;
    frag_i = ib ^ ivec4(ub);
}
