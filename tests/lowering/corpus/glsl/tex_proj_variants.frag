#version 330
// textureProj family on 1D/2D/3D/rect, with offset, lod and grad, including shadow
// projective lookups.
uniform sampler1D u_1d;
uniform sampler2D u_2d;
uniform sampler3D u_3d;
uniform sampler2DShadow u_s2;
uniform sampler1DShadow u_s1;
in vec4 v_q;
out vec4 frag;
void main()
{
    vec4 a = textureProj(u_1d, v_q) + textureProjLod(u_1d, v_q.xy, 1.0);
    vec4 b = textureProjGrad(u_2d, v_q, dFdx(v_q.xy), dFdy(v_q.xy)) + textureProjLodOffset(u_2d, v_q.xyz, 0.5, ivec2(1, 1));
    vec4 c = textureProj(u_3d, v_q) + textureProjOffset(u_3d, v_q, ivec3(0, 0, 1));
    float s = textureProj(u_s2, v_q) + textureProjLod(u_s1, v_q, 0.0) + textureProjOffset(u_s2, v_q, ivec2(-1, 0));
    frag = a + b + c + vec4(s);
}
