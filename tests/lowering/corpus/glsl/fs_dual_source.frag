#version 330
// Dual-source blending outputs: location 0 with index 0 and 1.
in vec4 v_col;
in vec4 v_cov;
layout(location = 0, index = 0) out vec4 o_color;
layout(location = 0, index = 1) out vec4 o_blend_factor;
void main()
{
    o_color = v_col;
    o_blend_factor = vec4(1.0) - v_cov;
}
