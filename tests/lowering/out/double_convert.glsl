#version 450 core
// glpipe: lowered from TGSI VERT

layout(location = 0) in vec4 glp_attr_0;
out glp_generic_0_block { vec4 glp_generic_0; };
out glp_generic_1_block { vec4 glp_generic_1; };

void main()
{
    uvec4 t0_0 = uvec4(0u);
    uvec4 t0_1 = uvec4(0u);
    uvec4 t0_2 = uvec4(0u);
    uvec4 t1_0 = uvec4(0u);
    ivec4 t1_1 = ivec4(0);
    uvec4 t2 = uvec4(0u);
    vec4 t3 = vec4(0.0);
    uvec4 t4 = uvec4(0u);
    t0_0.xy = unpackDouble2x32(double(glp_attr_0.x));
    t0_0.zw = unpackDouble2x32(double(glp_attr_0.y));
    t1_0.xy = unpackDouble2x32(double(-5));
    t1_0.zw = unpackDouble2x32(double(7));
    t2.xy = unpackDouble2x32(double(0xee6b2800u));
    t2.zw = unpackDouble2x32(double(9u));
    t0_1.xy = unpackDouble2x32(packDouble2x32(t0_0.xy) + packDouble2x32(t1_0.xy));
    t0_1.zw = unpackDouble2x32(packDouble2x32(t0_0.zw) + packDouble2x32(t1_0.zw));
    t0_2.xy = unpackDouble2x32(packDouble2x32(t0_1.xy) + packDouble2x32(t2.xy));
    t0_2.zw = unpackDouble2x32(packDouble2x32(t0_1.zw) + packDouble2x32(t2.zw));
    t3.x = float(packDouble2x32(t0_2.xy));
    t3.y = float(packDouble2x32(t0_2.zw));
    t3.z = intBitsToFloat(int(packDouble2x32(t0_2.xy)));
    t3.w = uintBitsToFloat(uint(packDouble2x32(t0_2.zw)));
    int glp_exp1;
    double glp_mant2 = frexp(packDouble2x32(t0_2.xy), glp_exp1);
    t4.xy = unpackDouble2x32(glp_mant2);
    t1_1.x = glp_exp1;
    int glp_exp3;
    double glp_mant4 = frexp(packDouble2x32(t0_2.zw), glp_exp3);
    t4.zw = unpackDouble2x32(glp_mant4);
    t1_1.y = glp_exp3;
    gl_Position = glp_attr_0;
    glp_generic_0 = t3;
    glp_generic_1 = uintBitsToFloat(t4);
}
