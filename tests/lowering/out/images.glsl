#version 450 core
#extension GL_NV_shader_atomic_float : require
// glpipe: lowered from TGSI COMP

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(rgba8, binding = 0) uniform readonly image2D glp_cs_img0;
layout(rgba32f, binding = 1) uniform image2DArray glp_cs_img1;
layout(r32ui, binding = 2) uniform coherent uimage2D glp_cs_img2;
layout(r32i, binding = 3) uniform iimageBuffer glp_cs_img3;
layout(rgba16f, binding = 4) uniform image3D glp_cs_img4;
layout(r32f, binding = 5) uniform image2DMS glp_cs_img5;

void main()
{
    ivec4 t0 = ivec4(0);
    vec4 t1 = vec4(0.0);
    ivec4 t2_0 = ivec4(0);
    uvec4 t2_1 = uvec4(0u);
    vec4 t2_2 = vec4(0.0);
    vec4 t2_3 = vec4(0.0);
    vec4 t3 = vec4(0.0);
    ivec4 t4 = ivec4(0);
    t0.xy = ivec2(gl_WorkGroupID.xy * uvec2(8u) + gl_LocalInvocationID.xy);
    t0.zw = ivec2(1);
    t1 = imageLoad(glp_cs_img0, t0.xy);
    imageStore(glp_cs_img1, t0.xyw, t1);
    t2_0 = ivec4(imageSize(glp_cs_img1), 1);
    t3.xy = intBitsToFloat(imageSize(glp_cs_img0));
    t4.x = int(imageAtomicAdd(glp_cs_img2, t0.xy, 1u));
    uint glp_old1 = imageLoad(glp_cs_img2, t0.xy).x;
    while (true) {
        uint glp_new2 = uint(min(int(glp_old1), -1));
        uint glp_prev3 = imageAtomicCompSwap(glp_cs_img2, t0.xy, glp_old1, glp_new2);
        if (glp_prev3 == glp_old1) break;
        glp_old1 = glp_prev3;
    }
    t4.y = int(glp_old1);
    t4.z = imageAtomicCompSwap(glp_cs_img3, t0.x, 5, 0);
    uint glp_old4 = uint(imageLoad(glp_cs_img3, t0.y).x);
    while (true) {
        uint glp_new5 = max(glp_old4, 3u);
        uint glp_prev6 = uint(imageAtomicCompSwap(glp_cs_img3, t0.y, int(glp_old4), int(glp_new5)));
        if (glp_prev6 == glp_old4) break;
        glp_old4 = glp_prev6;
    }
    t4.w = int(glp_old4);
    t3.z = imageAtomicExchange(glp_cs_img5, t0.xy, t0.z, t1.x);
    t3.w = imageAtomicAdd(glp_cs_img5, t0.xy, t0.w, t1.y);
    t2_0.w = imageSamples(glp_cs_img5);
    t2_1 = uvec4(t2_0) ^ uvec4(t4);
    t2_2 = vec4(t2_1);
    t2_3 = t2_2 + t3;
    imageStore(glp_cs_img4, t0.xyz, t2_3);
}
