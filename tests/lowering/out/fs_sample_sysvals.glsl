#version 450 core
#extension GL_ARB_shader_stencil_export : require
// glpipe: lowered from TGSI FRAG

layout(early_fragment_tests) in;

in glp_generic_0_block { sample vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;
layout(location = 1) out vec4 glp_frag_color_1;

void main()
{
    vec4 t0 = vec4(0.0);
    uvec4 t1 = uvec4(0u);
    t0.x = float(uint(gl_SampleID));
    t0.yz = gl_SamplePosition;
    t0.w = glp_generic_0.x;
    t1 = uvec4(uint(gl_SampleMaskIn[0])) & uvec4(uint(gl_SampleID));
    glp_frag_color_0 = t0;
    glp_frag_color_1 = uintBitsToFloat(t1);
    gl_FragStencilRefARB = int(uint(gl_SampleID));
    gl_SampleMask[0] = gl_SampleMaskIn[0];
}
