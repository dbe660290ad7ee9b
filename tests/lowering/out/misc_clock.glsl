#version 450 core
#extension GL_ARB_shader_clock : require
// glpipe: lowered from TGSI VERT

layout(location = 0) in vec4 glp_attr_0;
out glp_generic_0_block { vec4 glp_generic_0; };

void main()
{
    uvec4 t0 = uvec4(0u);
    t0.xy = clock2x32ARB();
    t0.zw = floatBitsToUint(glp_attr_0.ww);
    gl_Position = glp_attr_0;
    glp_generic_0 = uintBitsToFloat(t0);
}
