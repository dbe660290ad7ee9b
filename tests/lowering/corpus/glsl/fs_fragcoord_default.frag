#version 330
// Default gl_FragCoord (lower-left origin, half-integer centres), checkerboard from it.
uniform float u_cell;
out vec4 frag;
void main()
{
    ivec2 c = ivec2(floor(gl_FragCoord.xy / u_cell));
    float k = float((c.x + c.y) & 1);
    frag = vec4(k, gl_FragCoord.z, 1.0 / gl_FragCoord.w, 1.0);
}
