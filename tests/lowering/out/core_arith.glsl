#version 450 core
// glpipe: lowered from TGSI FRAG

layout(std140, binding = 52) uniform glp_fs_cb0
{
    vec4 c[2];
} cb0;

in glp_generic_0_block { vec4 glp_generic_0; };
in glp_generic_1_block { vec4 glp_generic_1; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t0_2 = vec4(0.0);
    vec4 t1_0 = vec4(0.0);
    vec4 t1_1 = vec4(0.0);
    vec4 t1_2 = vec4(0.0);
    vec4 t2_0 = vec4(0.0);
    vec4 t2_1 = vec4(0.0);
    vec4 t3_0 = vec4(0.0);
    vec4 t3_1 = vec4(0.0);
    vec4 t4_0 = vec4(0.0);
    vec4 t4_1 = vec4(0.0);
    vec4 t4_2 = vec4(0.0);
    vec4 t4_3 = vec4(0.0);
    t0_0 = glp_generic_0 + glp_generic_1;
    t1_0.xy = glp_generic_0.zw * vec2(2.0);
    t1_0.zw = glp_generic_0.xy * cb0.c[0].xy - glp_generic_1.zz;
    t2_0 = t0_0 / cb0.c[1];
    t2_0.x = min(t2_0.x, abs(glp_generic_1.y));
    t2_0.y = max(t2_0.y, -abs(glp_generic_1.z));
    t3_0 = mix(t2_0, t1_0, vec4(0.5));
    t4_0.x = fract(t3_0.x);
    t4_0.y = floor(t3_0.y);
    t4_0.z = ceil(t3_0.z);
    t4_0.w = trunc(t3_0.w);
    t0_1 = roundEven(t4_0.wzyx);
    t1_1 = sign(t0_1);
    t2_1 = mix(vec4(2.0), vec4(0.5), lessThan(t1_1, vec4(0.0)));
    t3_1 = mix(t4_0, t0_1, lessThan(t1_1, vec4(0.0)));
    t4_1.xy = vec2(1.0 / t2_1.z);
    t4_2.z = inversesqrt(abs(t3_1.x));
    t4_3.w = sqrt(t3_1.y);
    t0_2.x = exp2(t4_1.x);
    t0_2.y = log2(t4_1.y);
    t0_2.z = pow(t4_2.z, 0.25);
    t0_2.w = cos(t4_3.w);
    t1_2.x = sin(t0_2.x);
    t1_2.y = dot(t0_2.xy, t2_1.xy);
    t1_2.z = dot(t0_2.xyz, t2_1.xyz);
    t1_2.w = dot(t0_2, t2_1);
    glp_frag_color_0 = clamp(t0_2 + t1_2, 0.0, 1.0);
    glp_frag_color_1 = t1_2.wzyx;
}
