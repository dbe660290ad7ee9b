#version 330 core
// glpipe: lowered from TGSI GEOM

layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;

in glp_generic_0_block { vec4 glp_generic_0; } glp_generic_0_in[3];
out glp_generic_0_block { vec4 glp_generic_0; };

void main()
{
    uvec4 t0 = uvec4(0u);
    uvec4 t1 = uvec4(0u);
    ivec4 addr0 = ivec4(0);
    t0.x = 0u;
    while (true) {
        t1.x = -uint(int(t0.x) >= 3);
        if (t1.x != 0u) {
            break;
        }
        addr0.x = int(t0.x);
        gl_Position = gl_in[clamp(addr0.x, 0, 2)].gl_Position;
        glp_generic_0 = glp_generic_0_in[clamp(addr0.x, 0, 2)].glp_generic_0;
        glp_generic_0.w = gl_in[clamp(addr0.x, 0, 2)].gl_PointSize;
        gl_ClipDistance[0] = gl_in[clamp(addr0.x, 0, 2)].gl_ClipDistance[0];
        gl_ClipDistance[1] = gl_in[clamp(addr0.x, 0, 2)].gl_ClipDistance[1];
        gl_ClipDistance[2] = gl_in[clamp(addr0.x, 0, 2)].gl_ClipDistance[2];
        gl_ClipDistance[3] = gl_in[clamp(addr0.x, 0, 2)].gl_ClipDistance[3];
        gl_PrimitiveID = gl_PrimitiveIDIn;
        gl_Layer = 1;
        EmitVertex();
        t0.x = t0.x + 1u;
    }
    EndPrimitive();
    gl_Position = gl_in[0].gl_Position * vec4(0.5);
    glp_generic_0 = glp_generic_0_in[2].glp_generic_0;
    EmitVertex();
    EndPrimitive();
}
