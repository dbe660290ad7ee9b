#version 430
//! driver: virgl
// quads, equal_spacing, cw: input block from the TCS, clip distance and point size outputs.
layout(quads, equal_spacing, cw) in;
uniform vec4 u_plane;
in Vertex { vec4 col; vec2 uv; } tc_in[];
out vec4 te_col;
out float gl_ClipDistance[1];
void main()
{
    vec2 t = gl_TessCoord.xy;
    vec4 p = mix(mix(gl_in[0].gl_Position, gl_in[1].gl_Position, t.x),
                 mix(gl_in[2].gl_Position, gl_in[3].gl_Position, t.x), t.y);
    te_col = mix(mix(tc_in[0].col, tc_in[1].col, t.x), mix(tc_in[2].col, tc_in[3].col, t.x), t.y)
           + vec4(tc_in[3].uv, 0.0, 0.0);
    gl_ClipDistance[0] = dot(p, u_plane);
    gl_PointSize = 1.0 + t.x;
    gl_Position = p;
}
