#version 330
// while and do-while loops whose exit depends on computed values.
in vec4 a_pos;
in float a_seed;
uniform float u_step;
uniform int u_max;
out vec4 v_res;
void main()
{
    float x = a_seed;
    int n = 0;
    while (x < 100.0 && n < u_max) {
        x = x * 1.5 + u_step;
        n++;
    }
    float y = a_seed;
    int m = 0;
    do {
        y = fract(y * 3.7 + 0.1);
        m++;
    } while (y > 0.2 && m < 64);
    v_res = vec4(x, float(n), y, float(m));
    gl_Position = a_pos;
}
