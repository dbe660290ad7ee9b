#version 330
// Integer samplers: isampler2D, usampler3D, isampler2DArray, usamplerCube, isampler1D,
// usampler2DRect with texture, textureLod, texelFetch.
uniform isampler2D u_i2;
uniform usampler3D u_u3;
uniform isampler2DArray u_i2a;
uniform usamplerCube u_ucube;
uniform isampler1D u_i1;
uniform usampler2DRect u_urect;
in vec3 v_c;
flat in ivec3 v_texel;
out ivec4 o_i;
out uvec4 o_u;
void main()
{
    ivec4 a = texture(u_i2, v_c.xy) + texelFetch(u_i2, v_texel.xy, 0) + texture(u_i2a, v_c) + texelFetch(u_i1, v_texel.x, 0);
    uvec4 b = textureLod(u_u3, v_c, 0.0) + texture(u_ucube, v_c) + texelFetch(u_urect, v_texel.xy);
    o_i = a;
    o_u = b;
}
