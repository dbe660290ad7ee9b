#version 330
#extension GL_EXT_shader_framebuffer_fetch : require
//! force: GL_EXT_shader_framebuffer_fetch
// Framebuffer fetch: programmable blending reading two inout colour outputs (extension
// forced: not exposed by softpipe or virgl on Mesa 22.3).
in vec4 v_col;
layout(location = 0) inout vec4 o_color;
layout(location = 1) inout vec4 o_accum;
void main()
{
    o_color = o_color * (1.0 - v_col.a) + v_col * v_col.a;
    o_accum = max(o_accum, v_col);
}
