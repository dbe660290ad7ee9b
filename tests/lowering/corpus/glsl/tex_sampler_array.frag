#version 330
#extension GL_ARB_gpu_shader5 : require
// An array of samplers indexed by a dynamically uniform value and by constants.
uniform sampler2D u_texs[4];
uniform int u_which;
in vec2 v_uv;
out vec4 frag;
void main()
{
    vec4 a = texture(u_texs[u_which], v_uv);
    vec4 b = texture(u_texs[3], v_uv * 2.0) + textureLod(u_texs[(u_which + 1) & 3], v_uv, 1.0);
    frag = a + b;
}
