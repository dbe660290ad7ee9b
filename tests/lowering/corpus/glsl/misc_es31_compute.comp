#version 310 es
// A GLSL ES 3.10 compute shader (softpipe exposes ES 3.1 compatibility): precision
// qualifiers, shared memory, an image store and an SSBO.
precision highp float;
precision highp int;
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0, rgba8) writeonly uniform highp image2D u_out;
layout(std430, binding = 0) readonly buffer Params { vec4 color_a; vec4 color_b; };
shared vec4 s_row[16];
void main()
{
    uvec2 l = gl_LocalInvocationID.xy;
    if (l.y == 0u)
        s_row[l.x] = mix(color_a, color_b, float(l.x) / 15.0);
    barrier();
    imageStore(u_out, ivec2(gl_GlobalInvocationID.xy), s_row[l.x] * float(l.y) / 15.0);
}
