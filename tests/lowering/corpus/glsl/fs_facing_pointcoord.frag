#version 330
// gl_FrontFacing and gl_PointCoord.
in vec4 v_front;
in vec4 v_back;
out vec4 frag;
void main()
{
    vec2 pc = gl_PointCoord * 2.0 - 1.0;
    float disk = 1.0 - smoothstep(0.9, 1.0, dot(pc, pc));
    frag = (gl_FrontFacing ? v_front : v_back) * disk + vec4(gl_PointCoord, 0.0, 0.0);
}
