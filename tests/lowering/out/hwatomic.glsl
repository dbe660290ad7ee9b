#version 450 core
#extension GL_ARB_shader_atomic_counter_ops : require
// glpipe: lowered from TGSI FRAG

layout(binding = 0, offset = 0) uniform atomic_uint glp_fs_ac0_0;
layout(binding = 0, offset = 4) uniform atomic_uint glp_fs_ac0_1[3];

in glp_generic_0_block { vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    vec4 t0_0 = vec4(0.0);
    uvec4 t0_1 = uvec4(0u);
    uvec4 t1 = uvec4(0u);
    vec4 t2 = vec4(0.0);
    vec4 t3 = vec4(0.0);
    ivec4 addr0 = ivec4(0);
    t0_0.x = uintBitsToFloat(atomicCounterIncrement(glp_fs_ac0_0));
    t1.x = uint(glp_generic_0.x);
    addr0.x = int(t1.x);
    t0_1.y = atomicCounterDecrement(glp_fs_ac0_1[addr0.x]) + 1u;
    t0_1.z = atomicCounter(glp_fs_ac0_1[1]);
    t0_1.w = atomicCounterMaxARB(glp_fs_ac0_1[2], 8u);
    t2.x = uintBitsToFloat(atomicCounterAddARB(glp_fs_ac0_1[0], 8u));
    t0_1.x = floatBitsToUint(t0_0.x + t2.x);
    t3 = vec4(t0_1);
    glp_frag_color_0 = t3;
}
