#version 450 core
// glpipe: lowered from TGSI VERT

layout(location = 0) in vec4 glp_attr_0;
layout(location = 1) in vec4 glp_attr_1;
out glp_generic_0_block { vec4 glp_generic_0; };
out glp_generic_1_block { vec4 glp_generic_1; };

vec4 glp_mul_legacy(vec4 a, vec4 b)
{
    vec4 r;
    for (int i = 0; i < 4; i++)
        r[i] = (a[i] == 0.0 || b[i] == 0.0) ? 0.0 : a[i] * b[i];
    return r;
}
vec3 glp_mul_legacy(vec3 a, vec3 b)
{
    vec3 r;
    for (int i = 0; i < 3; i++)
        r[i] = (a[i] == 0.0 || b[i] == 0.0) ? 0.0 : a[i] * b[i];
    return r;
}
vec2 glp_mul_legacy(vec2 a, vec2 b)
{
    vec2 r;
    for (int i = 0; i < 2; i++)
        r[i] = (a[i] == 0.0 || b[i] == 0.0) ? 0.0 : a[i] * b[i];
    return r;
}

void main()
{
    precise vec4 t0 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    vec4 t2 = vec4(0.0);
    t0 = glp_mul_legacy(glp_attr_0, glp_attr_1);
    t1 = glp_mul_legacy(glp_attr_0, glp_attr_1) + vec4(0.5);
    t2.x = dot(glp_mul_legacy(glp_attr_0.xyz, glp_attr_1.xyz), vec3(1.0));
    t2.y = clamp(dot(glp_mul_legacy(glp_attr_0, glp_attr_1), vec4(1.0)), 0.0, 1.0);
    t0.xy = glp_mul_legacy(vec2(0.5), glp_attr_0.xy) + glp_mul_legacy(vec2(1.0) - vec2(0.5), glp_attr_1.xy);
    gl_Position = clamp(t0, 0.0, 1.0);
    precise vec4 glp_precise1 = t1 + t2;
    glp_generic_0 = glp_precise1;
    glp_generic_1 = glp_mul_legacy(glp_attr_1, vec4(0.0));
}
