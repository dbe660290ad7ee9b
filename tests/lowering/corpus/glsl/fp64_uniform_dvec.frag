#version 330
#extension GL_ARB_gpu_shader_fp64 : require
// A UBO with double members (std140 alignment of dvec3/dvec4) and a dynamically indexed
// double array.
layout(std140) uniform Precise {
    dvec3 origin;
    double radius;
    dvec4 coeffs[4];
};
flat in int v_k;
in vec3 v_pos;
out vec4 frag;
void main()
{
    dvec3 d = dvec3(v_pos) - origin;
    double dist = length(d) - radius;
    dvec4 c = coeffs[v_k & 3];
    double poly = ((c.w * dist + c.z) * dist + c.y) * dist + c.x;
    frag = vec4(float(dist), float(poly), float(dot(d, d)), float(c.x));
}
