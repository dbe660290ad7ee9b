#version 450 core
// glpipe: lowered from TGSI VERT

layout(std140, binding = 0) uniform glp_vs_cb0
{
    vec4 c[4];
} cb0;

layout(location = 0) in vec4 glp_attr_0;
layout(location = 1) in vec4 glp_attr_1;
out float gl_ClipDistance[7];
out glp_generic_0_block { vec4 glp_generic_0; };
out glp_texcoord_3_block { vec4 glp_texcoord_3; };
out glp_color_0_block { vec4 glp_color_0; };
out glp_bcolor_0_block { vec4 glp_bcolor_0; };
out glp_fog_0_block { vec4 glp_fog_0; };

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    vec4 t0_2 = vec4(0.0);
    vec4 t0_3 = vec4(0.0);
    vec4 t1 = vec4(0.0);
    vec4 glp_clipvertex = vec4(0.0);
    vec4 glp_edgeflag = vec4(0.0);
    t0_0 = glp_attr_0.xxxx * cb0.c[0];
    t0_1 = glp_attr_0.yyyy * cb0.c[1] + t0_0;
    t0_2 = glp_attr_0.zzzz * cb0.c[2] + t0_1;
    t0_3 = t0_2 + cb0.c[3];
    gl_Position = t0_3;
    glp_clipvertex = glp_attr_0;
    gl_PointSize = 4.0;
    gl_ClipDistance[0] = dot(t0_3, vec4(1.0, 0.0, 0.0, 1.0));
    float glp_v1 = dot(t0_3, vec4(0.0, 1.0, 0.0, 1.0));
    gl_ClipDistance[1] = glp_v1;
    gl_ClipDistance[2] = glp_v1;
    gl_ClipDistance[3] = glp_v1;
    gl_ClipDistance[4] = -1.0;
    gl_ClipDistance[5] = 1.0;
    gl_ClipDistance[6] = -1.0;
    t1.x = float(gl_VertexID);
    t1.y = float(gl_InstanceID);
    t1.zw = glp_attr_1.zw;
    glp_generic_0 = t1;
    glp_texcoord_3 = glp_attr_1.wzyx;
    glp_color_0 = glp_attr_1;
    glp_bcolor_0 = -glp_attr_1;
    glp_fog_0 = vec4(1.0, 0.0, 0.0, 0.0);
    glp_edgeflag = vec4(1.0);
}
