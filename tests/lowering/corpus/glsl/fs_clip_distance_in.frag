#version 330
// gl_ClipDistance read in a fragment shader (e.g. for soft clipping fades).
in float gl_ClipDistance[2];
in vec4 v_col;
out vec4 frag;
void main()
{
    float fade = clamp(min(gl_ClipDistance[0], gl_ClipDistance[1]) * 4.0, 0.0, 1.0);
    frag = v_col * fade;
}
