#version 430
//! driver: virgl
// virgl flavour: boolean-to-float conversions (float immediates, which virgl dumps as raw
// hex bits), comparisons, discard and a UBO.
layout(std140, binding = 0) uniform Params { vec4 threshold; ivec4 flags; };
in vec4 v_col;
out vec4 frag;
void main()
{
    bvec4 above = greaterThan(v_col, threshold);
    vec4 mask = vec4(above) * 0.75 + vec4(not(above)) * 0.25;
    if (flags.x != 0 && !any(above))
        discard;
    frag = mask * v_col + vec4(float(flags.y > 2), float(v_col.a == 1.0), 0.5, 1.0);
}
