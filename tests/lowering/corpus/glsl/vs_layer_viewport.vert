#version 330
#extension GL_AMD_vertex_shader_layer : require
#extension GL_AMD_vertex_shader_viewport_index : require
// gl_Layer and gl_ViewportIndex written from a vertex shader (AMD_vertex_shader_layer /
// AMD_vertex_shader_viewport_index).
in vec4 a_pos;
uniform int u_layers;
void main()
{
    gl_Layer = gl_InstanceID % u_layers;
    gl_ViewportIndex = gl_InstanceID / u_layers;
    gl_Position = a_pos;
}
