#version 330
// Conditional discard on float and integer tests, then normal output.
in vec4 v_a;
flat in int v_id;
uniform float u_alpha_ref;
out vec4 frag;
void main()
{
    if (v_a.w < u_alpha_ref)
        discard;
    if ((v_id & 3) == 2)
        discard;
    frag = v_a * 2.0;
}
