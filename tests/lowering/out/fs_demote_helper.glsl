#version 450 core
#extension GL_EXT_demote_to_helper_invocation : require
// glpipe: lowered from TGSI FRAG

in glp_generic_0_block { vec4 glp_generic_0; };
layout(location = 0) out vec4 glp_frag_color_0;

void main()
{
    uvec4 t0_0 = uvec4(0u);
    uvec4 t0_1 = uvec4(0u);
    uvec4 t0_2 = uvec4(0u);
    vec4 t1 = vec4(0.0);
    t0_0.x = -uint(glp_generic_0.x < 0.5);
    if (t0_0.x != 0u) {
        demote;
    }
    t0_1.y = helperInvocationEXT() ? 0xffffffffu : 0u;
    t0_2.z = gl_HelperInvocation ? 0xffffffffu : 0u;
    t1 = dFdx(glp_generic_0);
    glp_frag_color_0 = t0_1.y != 0u ? vec4(0.0) : t1;
}
