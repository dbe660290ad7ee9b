#version 450 core
// glpipe: lowered from TGSI TESS_CTRL

layout(vertices = 4) out;

in glp_generic_0_block { vec4 glp_generic_0; } glp_generic_0_in[];
out glp_generic_0_block { vec4 glp_generic_0; } glp_generic_0_out[];
patch out glp_patch_0_block { vec4 glp_patch_0; };

void main()
{
    vec4 t0_0 = vec4(0.0);
    vec4 t0_1 = vec4(0.0);
    uvec4 t1 = uvec4(0u);
    vec4 t2 = vec4(0.0);
    ivec4 addr0 = ivec4(0);
    glp_generic_0_out[gl_InvocationID].glp_generic_0 = vec4(0.0);
    addr0.x = gl_InvocationID;
    gl_out[gl_InvocationID].gl_Position = gl_in[clamp(addr0.x, 0, gl_PatchVerticesIn - 1)].gl_Position;
    glp_generic_0_out[gl_InvocationID].glp_generic_0 = glp_generic_0_in[clamp(addr0.x, 0, gl_PatchVerticesIn - 1)].glp_generic_0 * vec4(2.0);
    barrier();
    t0_0 = glp_generic_0_out[0].glp_generic_0;
    t0_1 = t0_0 + glp_generic_0_out[1].glp_generic_0;
    t1.x = -uint(uint(gl_InvocationID) == 0u);
    if (t1.x != 0u) {
        gl_TessLevelOuter[0] = 4.0;
        gl_TessLevelOuter[1] = 4.0;
        gl_TessLevelOuter[2] = 4.0;
        gl_TessLevelOuter[3] = 2.0;
        gl_TessLevelInner[0] = 2.0;
        gl_TessLevelInner[1] = 2.0;
        t2.x = float(gl_PatchVerticesIn);
        t2.y = float(gl_PrimitiveID);
        t2.zw = t0_1.yy;
        glp_patch_0 = t2;
    }
}
