#version 330
#extension GL_ARB_shader_stencil_export : require
// gl_FragStencilRefARB computed per fragment, plus a colour output.
flat in int v_id;
in vec4 v_col;
out vec4 frag;
void main()
{
    gl_FragStencilRefARB = (v_id * 3 + int(gl_FragCoord.x)) & 0xff;
    frag = v_col;
}
