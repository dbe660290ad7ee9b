#version 330
// Four render-target outputs with explicit locations: float, int and uint outputs
// (a G-buffer).
in vec3 v_normal;
in vec4 v_albedo;
in vec3 v_world;
flat in int v_material;
layout(location = 0) out vec4 o_albedo;
layout(location = 1) out vec4 o_normal;
layout(location = 2) out ivec4 o_material;
layout(location = 3) out uvec2 o_packed;
void main()
{
    o_albedo = v_albedo;
    o_normal = vec4(normalize(v_normal) * 0.5 + 0.5, 1.0);
    o_material = ivec4(v_material, v_material >> 8, 0, 1);
    o_packed = uvec2(floatBitsToUint(v_world.x), floatBitsToUint(v_world.y));
}
