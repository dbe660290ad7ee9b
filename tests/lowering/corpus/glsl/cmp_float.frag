#version 330
// Float comparisons: relational operators, lessThan/greaterThan/equal/notEqual...,
// any/all/not, and selects driven by them.
in vec4 v_a;
in vec4 v_b;
out vec4 frag;
void main()
{
    bvec4 lt = lessThan(v_a, v_b);
    bvec4 le = lessThanEqual(v_a, v_b);
    bvec4 gt = greaterThan(v_a, v_b);
    bvec4 ge = greaterThanEqual(v_a, v_b);
    bvec4 eq = equal(v_a, v_b);
    bvec4 ne = notEqual(v_a, v_b);
    float s = 0.0;
    if (v_a.x < v_b.x) s += 1.0;
    if (v_a.y >= v_b.y) s += 2.0;
    if (v_a.z == v_b.z) s += 4.0;
    if (v_a.w != v_b.w) s += 8.0;
    vec4 sel = v_a.x > v_b.w ? v_a : v_b;
    frag = vec4(lt) + vec4(le) * 2.0 + vec4(gt) * 3.0 + vec4(ge) * 4.0 + vec4(eq) * 5.0
         + vec4(not(ne)) * 6.0 + vec4(any(lt), all(ge), any(not(eq)), s) + sel;
}
