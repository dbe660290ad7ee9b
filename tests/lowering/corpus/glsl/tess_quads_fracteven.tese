#version 430
//! driver: virgl
// quads, fractional_even_spacing, ccw: bilinear interpolation of 4 control points, a
// height map lookup and patch inputs.
layout(quads, fractional_even_spacing, ccw) in;
uniform sampler2D u_height;
uniform mat4 u_mvp;
in vec2 tc_uv[];
patch in vec4 tc_patch_color;
out vec2 te_uv;
out vec4 te_color;
void main()
{
    vec2 t = gl_TessCoord.xy;
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, t.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, t.x);
    vec4 p = mix(a, b, t.y);
    vec2 uv = mix(mix(tc_uv[0], tc_uv[1], t.x), mix(tc_uv[3], tc_uv[2], t.x), t.y);
    p.y += textureLod(u_height, uv, 0.0).r * 0.25;
    te_uv = uv;
    te_color = tc_patch_color * vec4(t, 1.0, 1.0);
    gl_Position = u_mvp * p;
}
