#version 330
// texelFetch and texelFetchOffset on 1D, 2D, 3D, 1D-array and 2D-array targets with
// negative and positive constant offsets and dynamic lods.
uniform sampler1D u_1d;
uniform sampler2D u_2d;
uniform sampler3D u_3d;
uniform sampler1DArray u_1da;
uniform sampler2DArray u_2da;
flat in ivec4 v_p;
flat in int v_lod;
out vec4 frag;
void main()
{
    vec4 a = texelFetchOffset(u_1d, v_p.x, v_lod, -1) + texelFetchOffset(u_2d, v_p.xy, v_lod, ivec2(2, -3));
    vec4 b = texelFetchOffset(u_3d, v_p.xyz, 0, ivec3(-1, 1, 2)) + texelFetchOffset(u_1da, v_p.xy, 0, 4);
    vec4 c = texelFetchOffset(u_2da, v_p.xyz, v_lod, ivec2(-8, 7)) + texelFetch(u_2d, v_p.zw, v_lod);
    frag = a + b + c;
}
