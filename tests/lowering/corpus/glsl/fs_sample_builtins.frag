#version 430
//! driver: virgl
// Per-sample shading built-ins (ARB_sample_shading, core in 4.0; softpipe lacks it):
// gl_SampleID, gl_SamplePosition, gl_SampleMaskIn, gl_NumSamples, gl_SampleMask.
in vec4 v_col;
out vec4 frag;
void main()
{
    vec2 pos = gl_SamplePosition - 0.5;
    float cover = float(bitCount(gl_SampleMaskIn[0])) / float(gl_NumSamples);
    gl_SampleMask[0] = gl_SampleMaskIn[0] & ~(1 << gl_SampleID);
    frag = v_col * cover + vec4(pos, float(gl_SampleID), 0.0);
}
