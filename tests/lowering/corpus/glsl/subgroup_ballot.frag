#version 330
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_ARB_gpu_shader5 : require
//! force: GL_ARB_shader_ballot
// ARB_shader_ballot: ballotARB, readInvocationARB, readFirstInvocationARB and the
// subgroup built-ins (size, invocation, eq/ge/gt/le/lt masks). Extension forced: not
// exposed by softpipe or virgl on Mesa 22.3.
in vec4 v_a;
out vec4 frag;
out uvec4 frag_masks;
void main()
{
    uint64_t b = ballotARB(v_a.x > 0.5);
    float first = readFirstInvocationARB(v_a.y);
    vec2 other = readInvocationARB(v_a.zw, 1u);
    uvec2 bb = unpackUint2x32(b);
    frag = vec4(first, other, float(bitCount(bb.x) + bitCount(bb.y)) + float(gl_SubGroupSizeARB));
    frag_masks = uvec4(unpackUint2x32(gl_SubGroupEqMaskARB ^ gl_SubGroupGeMaskARB).x,
                       unpackUint2x32(gl_SubGroupGtMaskARB).x,
                       unpackUint2x32(gl_SubGroupLeMaskARB | gl_SubGroupLtMaskARB).y,
                       gl_SubGroupInvocationARB);
}
