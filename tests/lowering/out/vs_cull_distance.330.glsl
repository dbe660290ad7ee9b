#version 330 core
// glpipe: lowered from TGSI VERT

layout(location = 0) in vec4 glp_attr_0;
out float gl_ClipDistance[8];
out glp_culldist_block { vec4 glp_culldist[2]; };

void main()
{
    gl_Position = glp_attr_0;
    gl_ClipDistance[0] = glp_attr_0.x;
    gl_ClipDistance[1] = glp_attr_0.y;
    gl_ClipDistance[2] = glp_attr_0.z;
    glp_culldist[0].x = glp_attr_0.w;
    glp_culldist[0].y = -1.0;
    gl_ClipDistance[3] = 0.0;   // no distance here
    gl_ClipDistance[4] = 0.0;   // no distance here
    gl_ClipDistance[5] = 0.0;   // no distance here
    gl_ClipDistance[6] = (glp_culldist[0].x < 0.0 || isnan(glp_culldist[0].x) || isinf(glp_culldist[0].x)) ? -1.0 : 1e30;   // cull distance 0
    gl_ClipDistance[7] = (glp_culldist[0].y < 0.0 || isnan(glp_culldist[0].y) || isinf(glp_culldist[0].y)) ? -1.0 : 1e30;   // cull distance 1
}
