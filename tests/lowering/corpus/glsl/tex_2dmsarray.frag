#version 330
// sampler2DMSArray / usampler2DMSArray: texelFetch per sample and layer, textureSize.
uniform sampler2DMSArray u_msa;
uniform usampler2DMSArray u_msa_uint;
flat in int v_layer;
out vec4 frag;
void main()
{
    ivec3 p = ivec3(ivec2(gl_FragCoord.xy), v_layer);
    vec4 c = texelFetch(u_msa, p, 0) + texelFetch(u_msa, p, 3);
    uvec4 u = texelFetch(u_msa_uint, p, 1);
    frag = c + vec4(u) + vec4(textureSize(u_msa), 0.0) + vec4(textureSize(u_msa_uint).zyx, 0.0);
}
