#version 430
//! driver: virgl
// virgl flavour: several sampler targets, shadow compare, gather with offsets, texel
// fetch and size queries.
uniform sampler2D u_2d;
uniform sampler2DArrayShadow u_shadow;
uniform samplerCube u_cube;
uniform usampler3D u_3d;
in vec3 v_c;
out vec4 frag;
void main()
{
    vec4 a = texture(u_2d, v_c.xy, 0.5) + textureGatherOffset(u_2d, v_c.xy, ivec2(1, -1), 2);
    float s = texture(u_shadow, vec4(v_c, 0.5));
    vec4 c = textureLod(u_cube, v_c, 2.0);
    uvec4 u = texelFetch(u_3d, ivec3(v_c * 8.0), 0);
    frag = a + c + vec4(s) + vec4(u) + vec4(textureSize(u_2d, 1), textureQueryLevels(u_cube), 0.0);
}
