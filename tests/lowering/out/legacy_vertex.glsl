#version 450 core
// glpipe: lowered from TGSI VERT

layout(std140, binding = 0) uniform glp_vs_cb0
{
    vec4 c[4];
} cb0;

layout(location = 0) in vec4 glp_attr_0;
layout(location = 1) in vec4 glp_attr_1;
out glp_generic_0_block { vec4 glp_generic_0; };
out glp_generic_1_block { vec4 glp_generic_1; };
out glp_generic_2_block { vec4 glp_generic_2; };

void main()
{
    vec4 t0 = vec4(0.0);
    vec4 t1_0 = vec4(0.0);
    vec4 t1_1 = vec4(0.0);
    vec4 t2_0 = vec4(0.0);
    vec4 t2_1 = vec4(0.0);
    vec4 t2_2 = vec4(0.0);
    vec4 t3_0 = vec4(0.0);
    vec4 t3_1 = vec4(0.0);
    vec4 t4_0 = vec4(0.0);
    vec4 t4_1 = vec4(0.0);
    vec4 t5_0 = vec4(0.0);
    vec4 t5_1 = vec4(0.0);
    vec4 t5_2 = vec4(0.0);
    t0.x = dot(glp_attr_0.xyz, cb0.c[0].xyz) + cb0.c[0].w;
    t0.y = dot(glp_attr_0.xyz, cb0.c[1].xyz) + cb0.c[1].w;
    t0.z = dot(glp_attr_0.xyz, cb0.c[2].xyz) + cb0.c[2].w;
    t0.w = dot(glp_attr_0.xyz, cb0.c[3].xyz) + cb0.c[3].w;
    t1_0 = vec4(1.0, max(glp_attr_1.x, 0.0), (glp_attr_1.x > 0.0 ? pow(max(glp_attr_1.y, 0.0), clamp(glp_attr_1.w, -128.0, 128.0)) : 0.0), 1.0);
    t2_0 = vec4(exp2(floor(glp_attr_1.x)), glp_attr_1.x - floor(glp_attr_1.x), exp2(glp_attr_1.x), 1.0);
    t3_0 = vec4(floor(log2(abs(glp_attr_1.y))), abs(glp_attr_1.y) / exp2(floor(log2(abs(glp_attr_1.y)))), log2(abs(glp_attr_1.y)), 1.0);
    t4_0 = vec4(1.0, t1_0.y * t2_0.y, t1_0.z, t2_0.w);
    t5_0 = vec4(cross(glp_attr_0.xyz, glp_attr_1.xyz), 1.0);
    t5_0.xy = vec2(cos(glp_attr_1.z), sin(glp_attr_1.z));
    t1_1 = vec4(normalize(t5_0.xyz), 1.0);
    t2_1 = normalize(t4_0);
    t3_1.x = dot(t1_1.xy, t2_1.xy) + 0.5;
    t3_1.yzw = mix(t2_1.yzw, t1_1.yzw, greaterThan(vec3(1.0, 0.0, 0.5), vec3(0.5)));
    t4_1 = clamp(t3_1, vec4(0.0), vec4(1.0));
    t5_1 = abs(t4_1);
    t5_2 = t5_1 - vec4(0.5);
    t2_2.x = 0.0;
    t2_2.y = 1.0;
    t2_2.zw = vec2(sign(1.0 / t5_2.w) * clamp(abs(1.0 / t5_2.w), 5.42101e-20, 1.884467e19));
    gl_Position = t0;
    glp_generic_0 = t1_1;
    glp_generic_1 = t2_2;
    glp_generic_2 = t3_1 + t5_2;
}
