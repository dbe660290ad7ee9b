#version 330
#extension GL_ARB_texture_cube_map_array : require
// samplerCubeArray and samplerCubeArrayShadow: texture, bias, textureLod, textureGrad,
// textureSize, shadow compare.
uniform samplerCubeArray u_cubes;
uniform samplerCubeArrayShadow u_cube_shadows;
in vec4 v_dir_layer;
in float v_ref;
out vec4 frag;
void main()
{
    vec4 a = texture(u_cubes, v_dir_layer) + texture(u_cubes, v_dir_layer, 1.0);
    vec4 b = textureLod(u_cubes, v_dir_layer, 3.0) + textureGrad(u_cubes, v_dir_layer, dFdx(v_dir_layer.xyz), dFdy(v_dir_layer.xyz));
    float s = texture(u_cube_shadows, v_dir_layer, v_ref);
    frag = a + b + vec4(s) + vec4(textureSize(u_cubes, 0), 0.0) + vec4(textureSize(u_cube_shadows, 0), 0.0);
}
