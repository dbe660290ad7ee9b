#version 330
// sampler1DShadow, sampler2DShadow, samplerCubeShadow, sampler2DArrayShadow:
// texture (bias), textureLod, textureOffset, textureProj, textureGrad, textureSize.
uniform sampler1DShadow u_s1;
uniform sampler2DShadow u_s2;
uniform samplerCubeShadow u_scube;
uniform sampler2DArrayShadow u_s2a;
in vec4 v_coord;
in float v_ref;
out vec4 frag;
void main()
{
    float a = texture(u_s1, vec3(v_coord.x, 0.0, v_ref)) + textureLod(u_s1, vec3(v_coord.x, 0.0, v_ref), 1.0);
    float b = texture(u_s2, vec3(v_coord.xy, v_ref)) + texture(u_s2, vec3(v_coord.xy, v_ref), 1.0)
            + textureOffset(u_s2, vec3(v_coord.xy, v_ref), ivec2(1, 1))
            + textureProj(u_s2, v_coord) + textureLod(u_s2, vec3(v_coord.xy, v_ref), 0.0)
            + textureGrad(u_s2, vec3(v_coord.xy, v_ref), dFdx(v_coord.xy), dFdy(v_coord.xy));
    float c = texture(u_scube, vec4(v_coord.xyz, v_ref));
    float d = texture(u_s2a, vec4(v_coord.xyz, v_ref)) + textureOffset(u_s2a, vec4(v_coord.xyz, v_ref), ivec2(-1, 0));
    frag = vec4(a, b, c, d) + vec4(textureSize(u_s2, 0), textureSize(u_scube, 0));
}
