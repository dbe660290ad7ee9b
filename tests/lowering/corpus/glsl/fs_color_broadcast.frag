#version 130
// Legacy GLSL 1.30: gl_FragColor (written to all colour buffers) and gl_FragCoord.
in vec4 v_col;
void main()
{
    gl_FragColor = v_col * vec4(gl_FragCoord.xy * 0.001, 1.0, 1.0);
}
