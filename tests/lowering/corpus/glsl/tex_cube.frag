#version 330
// samplerCube: texture with and without bias, textureLod, textureGrad, textureSize.
uniform samplerCube u_env;
in vec3 v_dir;
uniform float u_rough;
out vec4 frag;
void main()
{
    vec4 a = texture(u_env, v_dir) + texture(u_env, reflect(v_dir, vec3(0.0, 1.0, 0.0)), 2.0);
    vec4 b = textureLod(u_env, v_dir, u_rough * 6.0);
    vec4 c = textureGrad(u_env, v_dir, dFdx(v_dir), dFdy(v_dir));
    frag = a + b + c + vec4(textureSize(u_env, 0), 0.0, 0.0);
}
