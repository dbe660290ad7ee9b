#version 450 core
// glpipe: lowered from TGSI VERT

layout(location = 0) in vec4 glp_attr_0;
out float gl_ClipDistance[3];
out float gl_CullDistance[2];

void main()
{
    gl_Position = glp_attr_0;
    gl_ClipDistance[0] = glp_attr_0.x;
    gl_ClipDistance[1] = glp_attr_0.y;
    gl_ClipDistance[2] = glp_attr_0.z;
    gl_CullDistance[0] = glp_attr_0.w;
    gl_CullDistance[1] = -1.0;
}
