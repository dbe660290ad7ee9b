#version 450 core
#extension GL_ARB_shader_viewport_layer_array : require
#extension GL_ARB_shader_draw_parameters : require
// glpipe: lowered from TGSI VERT

layout(location = 0) in vec4 glp_attr_0;
out glp_generic_0_block { vec4 glp_generic_0; };

void main()
{
    vec4 t0 = vec4(0.0);
    gl_Position = glp_attr_0;
    gl_Layer = gl_DrawIDARB;
    gl_ViewportIndex = int(uint(gl_BaseInstanceARB) + uint(gl_BaseVertexARB));
    t0.x = float(gl_VertexID - gl_BaseVertexARB);
    t0.yzw = vec3(ivec3(gl_BaseVertexARB));
    glp_generic_0 = t0;
}
