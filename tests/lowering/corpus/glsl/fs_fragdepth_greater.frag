#version 330
#extension GL_ARB_conservative_depth : require
// gl_FragDepth with layout(depth_greater).
layout(depth_greater) out float gl_FragDepth;
in float v_offset;
out vec4 frag;
void main()
{
    gl_FragDepth = gl_FragCoord.z + abs(v_offset);
    frag = vec4(v_offset);
}
