#version 330
// Signed and unsigned integer comparisons and integer selects.
flat in ivec4 v_i;
flat in ivec4 v_j;
flat in uvec4 v_u;
flat in uvec4 v_w;
out ivec4 o_i;
out uvec4 o_u;
void main()
{
    bvec4 ilt = lessThan(v_i, v_j);
    bvec4 ige = greaterThanEqual(v_i, v_j);
    bvec4 ieq = equal(v_i, v_j);
    bvec4 ult = lessThan(v_u, v_w);
    bvec4 uge = greaterThanEqual(v_u, v_w);
    bvec4 une = notEqual(v_u, v_w);
    o_i = ivec4(ilt) + ivec4(ige) * 2 + ivec4(ieq) * 4 + (v_i.x > v_j.y ? v_i : v_j);
    o_u = uvec4(ult) + uvec4(uge) * 2u + uvec4(une) * 4u + (v_u.z <= v_w.z ? v_u : v_w);
}
