#version 330
// switch with several cases, fall-through, a case that breaks early and default.
flat in int v_sel;
flat in uint v_usel;
in vec4 v_a;
out vec4 frag;
void main()
{
    vec4 r = vec4(0.0);
    switch (v_sel) {
    case 0:
        r = v_a;
        break;
    case 1:
    case 2:
        r = v_a * 2.0;
        // fall through
    case 3:
        r += vec4(1.0, 2.0, 3.0, 4.0);
        break;
    case 7:
        if (v_a.x > 0.5)
            break;
        r = sin(v_a);
        break;
    default:
        r = -v_a;
        break;
    }
    switch (v_usel) {
    case 10u: r.x += 10.0; break;
    case 20u: r.y += 20.0; break;
    default: r.z += 1.0;
    }
    frag = r;
}
