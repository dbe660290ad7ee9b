#version 330
// sampler1D: texture (with bias), textureLod, textureOffset, textureProj, texelFetch,
// textureSize, textureGrad.
uniform sampler1D u_tex;
in float v_s;
in vec2 v_proj;
flat in int v_texel;
out vec4 frag;
void main()
{
    vec4 a = texture(u_tex, v_s) + texture(u_tex, v_s, 1.5);
    vec4 b = textureLod(u_tex, v_s, 2.0) + textureOffset(u_tex, v_s, -2);
    vec4 c = textureProj(u_tex, v_proj) + texelFetch(u_tex, v_texel, 1);
    vec4 d = textureGrad(u_tex, v_s, dFdx(v_s) * 2.0, dFdy(v_s));
    frag = a + b + c + d + vec4(float(textureSize(u_tex, 0)));
}
