#version 330
// A fragment shader that always discards: the smallest unconditional kill (no output
// survives, so only the kill remains).
out vec4 frag;
void main()
{
    discard;
}
