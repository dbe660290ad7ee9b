#version 330 core
// glpipe: lowered from TGSI VERT

layout(location = 0) in vec4 glp_attr_0;
out glp_generic_0_block { flat vec4 glp_generic_0; };
out glp_generic_1_block { noperspective centroid vec4 glp_generic_1; };
out glp_color_0_block { flat vec4 glp_color_0; };
out glp_bcolor_0_block { flat vec4 glp_bcolor_0; };
out glp_generic_2_block { vec4 glp_generic_2; };

void main()
{
    gl_Position = glp_attr_0;
    glp_generic_0 = glp_attr_0;
    glp_generic_1 = glp_attr_0.yxzw;
    glp_color_0 = glp_attr_0.zzzz;
    glp_bcolor_0 = glp_attr_0.wwww;
    glp_generic_2 = glp_attr_0.xxxx;
}
