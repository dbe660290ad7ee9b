#version 330
#extension GL_ARB_shader_viewport_layer_array : require
//! force: GL_ARB_shader_viewport_layer_array
// gl_Layer / gl_ViewportIndex through ARB_shader_viewport_layer_array (extension forced).
in vec4 a_pos;
in int a_layer;
void main()
{
    gl_Layer = a_layer;
    gl_ViewportIndex = a_layer >> 2;
    gl_Position = a_pos;
}
