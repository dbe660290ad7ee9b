#version 330
#extension GL_ARB_cull_distance : require
// gl_CullDistance together with gl_ClipDistance (the two share the CLIPDIST outputs).
in vec4 a_pos;
uniform vec4 u_clip[2];
uniform vec4 u_cull[3];
out float gl_ClipDistance[2];
out float gl_CullDistance[3];
void main()
{
    gl_ClipDistance[0] = dot(a_pos, u_clip[0]);
    gl_ClipDistance[1] = dot(a_pos, u_clip[1]);
    gl_CullDistance[0] = dot(a_pos, u_cull[0]);
    gl_CullDistance[1] = dot(a_pos, u_cull[1]);
    gl_CullDistance[2] = dot(a_pos, u_cull[2]);
    gl_Position = a_pos;
}
