#version 330
#extension GL_ARB_shader_atomic_counters : require
// Atomic counters: atomicCounterIncrement, atomicCounterDecrement, atomicCounter, on two
// bindings and a counter array with a dynamic index.
layout(binding = 0, offset = 0) uniform atomic_uint u_frags;
layout(binding = 0, offset = 4) uniform atomic_uint u_rejected;
layout(binding = 1) uniform atomic_uint u_bins[4];
in vec4 v_col;
out vec4 frag;
void main()
{
    uint n = atomicCounterIncrement(u_frags);
    uint r = 0u;
    if (v_col.a < 0.5)
        r = atomicCounterDecrement(u_rejected);
    uint b = atomicCounterIncrement(u_bins[int(v_col.r * 3.99)]);
    frag = v_col * float(n + r + b + atomicCounter(u_frags));
}
