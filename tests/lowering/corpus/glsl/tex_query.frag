#version 330
#extension GL_ARB_texture_query_levels : require
#extension GL_ARB_texture_query_lod : require
// textureSize at several levels and targets, textureQueryLevels, textureQueryLOD.
uniform sampler2D u_2d;
uniform sampler3D u_3d;
uniform samplerCube u_cube;
uniform sampler2DArray u_arr;
uniform sampler1D u_1d;
uniform int u_level;
in vec3 v_c;
out vec4 o_size;
out vec4 o_lod;
void main()
{
    ivec2 s0 = textureSize(u_2d, 0);
    ivec2 sl = textureSize(u_2d, u_level);
    ivec3 s3 = textureSize(u_3d, 2);
    ivec3 sa = textureSize(u_arr, 0);
    int s1 = textureSize(u_1d, u_level);
    int levels = textureQueryLevels(u_2d) + textureQueryLevels(u_cube) + textureQueryLevels(u_3d);
    o_size = vec4(s0 + sl, float(s3.x + sa.z + s1), float(levels));
    o_lod = vec4(textureQueryLOD(u_2d, v_c.xy), textureQueryLOD(u_cube, v_c));
}
