#version 330 core
// glpipe: lowered from TGSI VERT

layout(location = 0) in uvec4 glp_attr_0;
layout(location = 1) in uvec4 glp_attr_1;
out glp_generic_0_block { vec4 glp_generic_0; };
out glp_generic_1_block { vec4 glp_generic_1; };

void main()
{
    uvec4 t0 = uvec4(0u);
    uvec4 t1_0 = uvec4(0u);
    uvec4 t1_1 = uvec4(0u);
    uvec4 t2 = uvec4(0u);
    uvec4 t3_0 = uvec4(0u);
    ivec4 t3_1 = ivec4(0);
    t0 = ~glp_attr_0;
    t1_0 = glp_attr_0 & glp_attr_1;
    t1_1.xy = t1_0.xy | t0.zw;
    t1_1.zw = t1_0.zw ^ glp_attr_1.zw;
    t2 = t1_1 << uvec4(1u, 31u, 0u, 1u);
    t3_0 = t1_1 >> uvec4(1u, 0u, 31u, 1u);
    t3_1.xy = ivec2(-16) >> (t2.xy & 31u);
    t3_1.zw = ivec2(t3_0.zw) >> uvec2(4u);
    gl_Position = uintBitsToFloat(glp_attr_0);
    glp_generic_0 = uintBitsToFloat(t0);
    glp_generic_1 = uintBitsToFloat(t2 ^ uvec4(t3_1));
}
