#version 330
// sampler2DArray: texture, bias, textureLod, textureOffset, textureGrad, texelFetch,
// texelFetchOffset, textureSize.
uniform sampler2DArray u_layers;
in vec3 v_uvl;
flat in ivec3 v_texel;
out vec4 frag;
void main()
{
    vec4 a = texture(u_layers, v_uvl) + texture(u_layers, v_uvl, 0.75);
    vec4 b = textureLod(u_layers, v_uvl, 2.0) + textureOffset(u_layers, v_uvl, ivec2(4, -4));
    vec4 c = textureGrad(u_layers, v_uvl, dFdx(v_uvl.xy), dFdy(v_uvl.xy));
    vec4 d = texelFetch(u_layers, v_texel, 0) + texelFetchOffset(u_layers, v_texel, 0, ivec2(1, 1));
    frag = a + b + c + d + vec4(textureSize(u_layers, 0), 1.0);
}
