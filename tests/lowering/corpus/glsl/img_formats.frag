#version 330
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shading_language_420pack : require
// Image formats and memory qualifiers in a fragment shader: rgba8, rgba8_snorm, rg16f,
// r11f_g11f_b10f, rgb10_a2, r16, rgba16i, rg32ui, r8i; coherent/volatile/restrict,
// readonly/writeonly.
layout(binding = 0, rgba8) uniform coherent image2D u_a;
layout(binding = 1, rgba8_snorm) uniform readonly image2D u_b;
layout(binding = 2, rg16f) uniform volatile image2D u_c;
layout(binding = 3, r11f_g11f_b10f) uniform restrict writeonly image2D u_d;
layout(binding = 4, rgb10_a2) uniform writeonly image2D u_e;
layout(binding = 5, r16) uniform readonly image2D u_f;
layout(binding = 6, rgba16i) uniform iimage2D u_g;
layout(binding = 7, rg32ui) uniform uimage2D u_h;
out vec4 frag;
void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 v = imageLoad(u_a, p) + imageLoad(u_b, p) + imageLoad(u_c, p) + imageLoad(u_f, p);
    ivec4 i = imageLoad(u_g, p);
    uvec4 u = imageLoad(u_h, p);
    imageStore(u_a, p, v.wzyx);
    imageStore(u_c, p, v * 2.0);
    imageStore(u_d, p, v + 1.0);
    imageStore(u_e, p, fract(v));
    imageStore(u_g, p, i * 2);
    imageStore(u_h, p, u + 1u);
    frag = v + vec4(i) + vec4(u);
}
