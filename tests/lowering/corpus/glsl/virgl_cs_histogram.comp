#version 430
//! driver: virgl
// virgl flavour: a compute histogram with shared atomics, image loads, barriers and an
// SSBO atomic merge.
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0, rgba8) uniform readonly image2D u_img;
layout(std430, binding = 0) buffer Hist { uint bins[64]; };
shared uint s_bins[64];
void main()
{
    uint l = gl_LocalInvocationIndex;
    if (l < 64u)
        s_bins[l] = 0u;
    barrier();
    vec4 c = imageLoad(u_img, ivec2(gl_GlobalInvocationID.xy));
    uint b = uint(clamp(dot(c.rgb, vec3(0.299, 0.587, 0.114)), 0.0, 1.0) * 63.0);
    atomicAdd(s_bins[b], 1u);
    memoryBarrierShared();
    barrier();
    if (l < 64u)
        atomicAdd(bins[l], s_bins[l]);
}
