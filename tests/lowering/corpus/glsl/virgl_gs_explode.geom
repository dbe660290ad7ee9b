#version 430
//! driver: virgl
// virgl flavour: a geometry shader pushing triangles along their face normal, with
// invocations and gl_PrimitiveIDIn.
layout(triangles, invocations = 2) in;
layout(triangle_strip, max_vertices = 3) out;
uniform float u_amount;
in vec3 v_normal[];
out vec3 g_normal;
flat out int g_prim;
void main()
{
    vec3 n = normalize(cross(gl_in[1].gl_Position.xyz - gl_in[0].gl_Position.xyz,
                             gl_in[2].gl_Position.xyz - gl_in[0].gl_Position.xyz));
    for (int i = 0; i < 3; i++) {
        g_normal = v_normal[i];
        g_prim = gl_PrimitiveIDIn * 2 + gl_InvocationID;
        gl_Position = gl_in[i].gl_Position + vec4(n * u_amount * float(gl_InvocationID + 1), 0.0);
        EmitVertex();
    }
    EndPrimitive();
}
