#version 330
#extension GL_ARB_post_depth_coverage : require
#extension GL_ARB_gpu_shader5 : require
#extension GL_ARB_shader_image_load_store : require
//! force: GL_ARB_post_depth_coverage
// post_depth_coverage with early_fragment_tests: gl_SampleMaskIn reflects the depth test
// (extension forced: softpipe and virgl do not expose it on Mesa 22.3).
layout(early_fragment_tests, post_depth_coverage) in;
in vec4 v_col;
out vec4 frag;
void main()
{
    frag = v_col * float(bitCount(gl_SampleMaskIn[0])) * 0.25;
}
