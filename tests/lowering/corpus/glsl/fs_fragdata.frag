#version 130
// Legacy GLSL 1.30: gl_FragData[] outputs and discard.
in vec4 v_col;
in vec2 v_uv;
void main()
{
    if (v_col.a == 0.0)
        discard;
    gl_FragData[0] = v_col;
    gl_FragData[1] = vec4(v_uv, 0.0, 1.0);
    gl_FragData[2] = v_col.bgra;
}
