#version 450 core
// glpipe: lowered from TGSI GEOM

layout(points, invocations = 3) in;
layout(points, max_vertices = 4) out;

in glp_generic_0_block { vec4 glp_generic_0; } glp_generic_0_in[1];
out glp_generic_0_block { vec4 glp_generic_0; };
layout(stream = 1) out glp_generic_1_block { vec4 glp_generic_1; };
layout(stream = 2) out glp_generic_2_block { vec4 glp_generic_2; };

void main()
{
    vec4 t0 = vec4(0.0);
    t0 = vec4(ivec4(gl_InvocationID));
    gl_Position = gl_in[0].gl_Position;
    glp_generic_0 = glp_generic_0_in[0].glp_generic_0 + t0;
    EmitVertex();
    glp_generic_1 = glp_generic_0_in[0].glp_generic_0;
    EmitStreamVertex(1);
    EndStreamPrimitive(1);
    glp_generic_2 = t0;
    EmitStreamVertex(2);
}
