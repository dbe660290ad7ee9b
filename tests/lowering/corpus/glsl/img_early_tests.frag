#version 330
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shading_language_420pack : require
// early_fragment_tests with an image atomic counting shaded fragments and a memory barrier.
layout(early_fragment_tests) in;
layout(binding = 0, r32ui) uniform coherent uimage2D u_counter;
layout(binding = 1, rgba32f) uniform writeonly image2D u_dump;
in vec4 v_col;
out vec4 frag;
void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint n = imageAtomicAdd(u_counter, p, 1u);
    memoryBarrier();
    imageStore(u_dump, p, v_col * float(n));
    frag = v_col;
}
