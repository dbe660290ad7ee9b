#version 330
#extension GL_ARB_conservative_depth : require
// gl_FragDepth with layout(depth_less), written in one branch only.
layout(depth_less) out float gl_FragDepth;
in vec4 v_col;
out vec4 frag;
void main()
{
    gl_FragDepth = gl_FragCoord.z;
    if (v_col.a > 0.5)
        gl_FragDepth = gl_FragCoord.z * 0.5;
    frag = v_col;
}
