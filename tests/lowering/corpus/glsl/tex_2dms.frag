#version 330
// sampler2DMS / isampler2DMS: texelFetch per sample, textureSize.
uniform sampler2DMS u_ms;
uniform isampler2DMS u_ms_int;
uniform int u_samples;
out vec4 frag;
void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 sum = vec4(0.0);
    for (int s = 0; s < u_samples; s++)
        sum += texelFetch(u_ms, p, s);
    ivec4 k = texelFetch(u_ms_int, p, 2);
    frag = sum / float(u_samples) + vec4(k) + vec4(textureSize(u_ms), textureSize(u_ms_int));
}
