#version 430
//! driver: virgl
// isolines, equal_spacing: a cubic Bezier per line, line index from gl_TessCoord.y.
layout(isolines, equal_spacing) in;
in vec4 tc_col[];
out vec4 te_col;
void main()
{
    float u = gl_TessCoord.x;
    float line = gl_TessCoord.y;
    vec4 p0 = gl_in[0].gl_Position;
    vec4 p1 = gl_in[1].gl_Position;
    vec4 c0 = p0 + vec4(0.0, 0.5, 0.0, 0.0);
    vec4 c1 = p1 + vec4(0.0, -0.5, 0.0, 0.0);
    float iu = 1.0 - u;
    vec4 p = iu * iu * iu * p0 + 3.0 * iu * iu * u * c0 + 3.0 * iu * u * u * c1 + u * u * u * p1;
    te_col = mix(tc_col[0], tc_col[1], u) * (1.0 + line);
    gl_Position = p + vec4(line * 0.1, 0.0, 0.0, 0.0);
}
