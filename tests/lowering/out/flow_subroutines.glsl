#version 450 core
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;

vec4 t0 = vec4(0.0);
vec4 t1 = vec4(0.0);
vec4 t2 = vec4(0.0);

void glp_sub_8();
void glp_sub_16();

void glp_sub_8()
{
    t1 = t0 * vec4(2.0);
    glp_sub_16();
    if (t2.x != 0.0) {
        return;
    }
    t1 = t1 + vec4(0.5);
}
void glp_sub_16()
{
    t2 = vec4(lessThan(t1, vec4(1.0)));
}

void main()
{
    t0 = glp_generic_0;
    glp_sub_8();
    if (t1.x != 0.0) {
        glp_frag_color_0 = t0;
        return;
    }
    glp_frag_color_0 = t1;
}
