#version 330
// gl_PrimitiveID read in a fragment shader.
uniform vec4 u_palette[16];
out vec4 frag;
void main()
{
    frag = u_palette[gl_PrimitiveID & 15] * float(gl_PrimitiveID >> 4);
}
