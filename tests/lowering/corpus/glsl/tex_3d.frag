#version 330
// sampler3D: texture, textureLod, textureOffset, textureGrad, textureProj, texelFetch,
// texelFetchOffset, textureSize.
uniform sampler3D u_vol;
in vec3 v_str;
in vec4 v_proj;
flat in ivec3 v_texel;
out vec4 frag;
void main()
{
    vec4 a = texture(u_vol, v_str) + textureLod(u_vol, v_str, 1.0);
    vec4 b = textureOffset(u_vol, v_str, ivec3(1, 0, -1)) + textureGrad(u_vol, v_str, dFdx(v_str), dFdy(v_str));
    vec4 c = textureProj(u_vol, v_proj) + texelFetch(u_vol, v_texel, 0) + texelFetchOffset(u_vol, v_texel, 1, ivec3(0, 1, 0));
    frag = a + b + c + vec4(textureSize(u_vol, 1), 1.0);
}
