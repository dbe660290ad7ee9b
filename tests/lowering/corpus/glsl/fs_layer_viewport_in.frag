#version 330
#extension GL_ARB_fragment_layer_viewport : require
// gl_Layer and gl_ViewportIndex read in a fragment shader.
in vec4 v_col;
out vec4 frag;
void main()
{
    frag = v_col * float(gl_Layer + 1) + vec4(float(gl_ViewportIndex));
}
