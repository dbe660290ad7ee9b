#version 330
// Boolean logic: &&, ||, ^^, !, bvec construction and bool uniforms.
in vec4 a_pos;
in vec4 a_val;
uniform bool u_flag;
uniform bvec2 u_flags;
out vec4 v_bools;
void main()
{
    bool a = a_val.x > 0.0;
    bool b = a_val.y < a_val.z;
    bool c = a_val.w == 1.0;
    bool x = (a && b) || (c ^^ u_flag);
    bool y = !(a || u_flags.x) && (b ^^ u_flags.y);
    bvec4 bv = bvec4(a, b, x, y);
    v_bools = vec4(bv) + vec4(float(any(bv)), float(all(bv)), 0.0, 0.0);
    gl_Position = a_pos;
}
