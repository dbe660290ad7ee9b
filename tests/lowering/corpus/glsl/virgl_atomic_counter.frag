#version 430
//! driver: virgl
// virgl flavour: atomic counters (virgl passes them to the host as hardware atomics).
layout(binding = 0, offset = 0) uniform atomic_uint u_count;
layout(binding = 0, offset = 4) uniform atomic_uint u_bins[3];
layout(binding = 1, offset = 0) uniform atomic_uint u_other;
in vec4 v_col;
out vec4 frag;
void main()
{
    uint n = atomicCounterIncrement(u_count);
    uint b = atomicCounterDecrement(u_bins[int(v_col.r * 2.99)]);
    frag = v_col * float(n + b + atomicCounter(u_other));
}
