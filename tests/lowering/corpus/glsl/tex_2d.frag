#version 330
// sampler2D: texture, bias, textureLod, textureOffset, textureLodOffset, textureGrad,
// textureGradOffset, textureProj (vec3 and vec4), textureProjLod, textureProjOffset.
uniform sampler2D u_tex;
in vec2 v_uv;
in vec4 v_proj;
uniform float u_lod;
out vec4 frag;
void main()
{
    vec4 a = texture(u_tex, v_uv) + texture(u_tex, v_uv, -0.5);
    vec4 b = textureLod(u_tex, v_uv, u_lod) + textureOffset(u_tex, v_uv, ivec2(1, -1));
    vec4 c = textureLodOffset(u_tex, v_uv, 1.0, ivec2(-3, 2));
    vec4 d = textureGrad(u_tex, v_uv, dFdx(v_uv), dFdy(v_uv) * 0.5);
    vec4 e = textureGradOffset(u_tex, v_uv, vec2(0.01, 0.0), vec2(0.0, 0.01), ivec2(2, 2));
    vec4 f = textureProj(u_tex, v_proj.xyz) + textureProj(u_tex, v_proj);
    vec4 g = textureProjLod(u_tex, v_proj, 0.0) + textureProjOffset(u_tex, v_proj, ivec2(1, 0));
    frag = a + b + c + d + e + f + g;
}
