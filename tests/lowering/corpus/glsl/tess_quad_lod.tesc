#version 430
//! driver: virgl
// Quad patch with screen-space LOD: layout(vertices = 4), patch outputs, barrier(), reads
// of other invocations' outputs, gl_PatchVerticesIn and gl_PrimitiveID.
layout(vertices = 4) out;
uniform vec2 u_viewport;
uniform float u_pixels_per_edge;
in vec2 v_uv[];
out vec2 tc_uv[];
patch out vec4 tc_patch_color;
patch out int tc_patch_id;
float edge_level(vec4 a, vec4 b)
{
    vec2 sa = a.xy / a.w * u_viewport;
    vec2 sb = b.xy / b.w * u_viewport;
    return clamp(distance(sa, sb) / u_pixels_per_edge, 1.0, 64.0);
}
void main()
{
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    tc_uv[gl_InvocationID] = v_uv[gl_InvocationID] * 2.0;
    barrier();
    if (gl_InvocationID == 0) {
        vec4 p0 = gl_out[0].gl_Position, p1 = gl_out[1].gl_Position;
        vec4 p2 = gl_out[2].gl_Position, p3 = gl_out[3].gl_Position;
        gl_TessLevelOuter[0] = edge_level(p3, p0);
        gl_TessLevelOuter[1] = edge_level(p0, p1);
        gl_TessLevelOuter[2] = edge_level(p1, p2);
        gl_TessLevelOuter[3] = edge_level(p2, p3);
        gl_TessLevelInner[0] = max(gl_TessLevelOuter[1], gl_TessLevelOuter[3]);
        gl_TessLevelInner[1] = max(gl_TessLevelOuter[0], gl_TessLevelOuter[2]);
        tc_patch_color = vec4(tc_uv[1] + tc_uv[3], float(gl_PatchVerticesIn), 1.0);
        tc_patch_id = gl_PrimitiveID;
    }
}
