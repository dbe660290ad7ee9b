#version 330
#extension GL_ARB_shading_language_420pack : require
// Several uniform blocks with explicit bindings plus default-block uniforms.
layout(std140, binding = 0) uniform Material {
    vec4 albedo;
    vec4 emissive;
    float roughness;
} material;
layout(std140, binding = 2) uniform Lighting {
    vec4 light_dir;
    vec4 light_color;
    vec4 ambient;
};
layout(std140, binding = 3) uniform Fog {
    vec4 fog_color;
    float fog_density;
} fog;
uniform float u_exposure;
in vec3 v_normal;
in float v_depth;
out vec4 frag;
void main()
{
    float ndl = max(dot(normalize(v_normal), -light_dir.xyz), 0.0);
    vec4 c = material.albedo * (ambient + light_color * ndl * (1.0 - material.roughness)) + material.emissive;
    float f = exp(-fog.fog_density * v_depth);
    frag = mix(fog.fog_color, c, f) * u_exposure;
}
