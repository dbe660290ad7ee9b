#version 330
// samplerBuffer / isamplerBuffer / usamplerBuffer: texelFetch and textureSize.
uniform samplerBuffer u_fbuf;
uniform isamplerBuffer u_ibuf;
uniform usamplerBuffer u_ubuf;
flat in int v_index;
out vec4 frag;
out ivec4 frag_i;
void main()
{
    vec4 f = texelFetch(u_fbuf, v_index) + texelFetch(u_fbuf, v_index + 1);
    ivec4 i = texelFetch(u_ibuf, v_index * 2);
    uvec4 u = texelFetch(u_ubuf, textureSize(u_ubuf) - 1 - v_index);
    frag = f + vec4(u);
    frag_i = i + ivec4(textureSize(u_fbuf), textureSize(u_ibuf), 0, 0);
}
