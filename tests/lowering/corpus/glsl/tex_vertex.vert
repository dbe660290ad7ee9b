#version 330
// Texture sampling in a vertex shader: displacement map with textureLod, texelFetch of a
// buffer texture and textureSize.
in vec4 a_pos;
in vec2 a_uv;
uniform sampler2D u_height;
uniform samplerBuffer u_offsets;
uniform float u_scale;
out vec2 v_uv;
out float v_h;
void main()
{
    float h = textureLod(u_height, a_uv, 0.0).r;
    vec4 o = texelFetch(u_offsets, gl_InstanceID);
    ivec2 sz = textureSize(u_height, 0);
    v_uv = a_uv * vec2(sz);
    v_h = h;
    gl_Position = a_pos + vec4(0.0, h * u_scale, 0.0, 0.0) + o;
}
