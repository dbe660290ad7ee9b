#version 330
// One std140 uniform block with matrices, vectors and scalars.
layout(std140) uniform Transform {
    mat4 model;
    mat4 view_proj;
    vec4 tint;
    float time;
    int frame;
};
in vec4 a_pos;
out vec4 v_col;
void main()
{
    vec4 w = model * a_pos;
    w.y += sin(time + w.x) * 0.1;
    v_col = tint * float(frame & 1);
    gl_Position = view_proj * w;
}
