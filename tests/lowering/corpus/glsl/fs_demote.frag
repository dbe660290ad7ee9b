#version 330
#extension GL_EXT_demote_to_helper_invocation : require
//! force: GL_EXT_demote_to_helper_invocation
// demote and helperInvocationEXT() (extension forced: not exposed on Mesa 22.3 here);
// derivatives stay valid after demotion.
in vec4 v_col;
in vec2 v_uv;
out vec4 frag;
void main()
{
    if (v_col.a < 0.1)
        demote;
    vec2 d = dFdx(v_uv) + dFdy(v_uv);
    frag = vec4(d, helperInvocationEXT() ? 1.0 : 0.0, v_col.a);
}
