#version 330
// gl_FragCoord redeclared with origin_upper_left and pixel_center_integer.
layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;
uniform vec2 u_size;
out vec4 frag;
void main()
{
    vec2 uv = gl_FragCoord.xy / u_size;
    frag = vec4(uv, gl_FragCoord.z, gl_FragCoord.w);
}
