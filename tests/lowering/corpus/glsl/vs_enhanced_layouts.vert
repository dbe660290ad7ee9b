#version 330
#extension GL_ARB_enhanced_layouts : require
#extension GL_ARB_separate_shader_objects : require
// Explicit output locations and component qualifiers packing two varyings into one slot.
in vec4 a_pos;
in vec4 a_col;
layout(location = 0) out vec2 v_uv;
layout(location = 0, component = 2) out vec2 v_extra;
layout(location = 1) out vec3 v_dir;
layout(location = 1, component = 3) out float v_w;
layout(location = 4) flat out int v_id;
void main()
{
    v_uv = a_pos.xy;
    v_extra = a_col.zw;
    v_dir = a_col.rgb;
    v_w = a_pos.w;
    v_id = gl_VertexID;
    gl_Position = a_pos;
}
