#version 330
// sampler1DArray and sampler1DArrayShadow: texture, textureLod, textureOffset, texelFetch,
// textureSize.
uniform sampler1DArray u_arr;
uniform sampler1DArrayShadow u_arr_shadow;
in vec2 v_sl;
in float v_ref;
flat in ivec2 v_texel;
out vec4 frag;
void main()
{
    vec4 a = texture(u_arr, v_sl) + textureLod(u_arr, v_sl, 1.0) + textureOffset(u_arr, v_sl, 3);
    vec4 b = texelFetch(u_arr, v_texel, 0);
    float s = texture(u_arr_shadow, vec3(v_sl, v_ref)) + textureLod(u_arr_shadow, vec3(v_sl, v_ref), 0.0);
    frag = a + b + vec4(s) + vec4(textureSize(u_arr, 0), textureSize(u_arr_shadow, 1));
}
