#version 430
//! driver: virgl
// Reads patch inputs, gl_TessLevelOuter/Inner, gl_PatchVerticesIn and gl_PrimitiveID in
// the evaluation shader (quads, fractional_odd_spacing).
layout(quads, fractional_odd_spacing) in;
patch in int tc_patch_id;
patch in float tc_weights[3];
out vec4 te_info;
void main()
{
    vec2 t = gl_TessCoord.xy;
    float lv = gl_TessLevelOuter[0] + gl_TessLevelOuter[1] + gl_TessLevelOuter[2] + gl_TessLevelOuter[3];
    float li = gl_TessLevelInner[0] * gl_TessLevelInner[1];
    te_info = vec4(lv, li, float(gl_PatchVerticesIn + tc_patch_id), float(gl_PrimitiveID) + tc_weights[1]);
    gl_Position = mix(mix(gl_in[0].gl_Position, gl_in[1].gl_Position, t.x),
                      mix(gl_in[3].gl_Position, gl_in[2].gl_Position, t.x), t.y);
}
