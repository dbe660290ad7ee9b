#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shading_language_420pack : require
// SSBO access: a std430 struct array, a runtime-sized array with .length(), vector and
// scalar stores, reads of other members and a second buffer.
layout(local_size_x = 64) in;
struct Particle { vec4 pos; vec4 vel; float life; uint flags; };
layout(std430, binding = 0) buffer Particles { float dt; uint count; Particle parts[]; };
layout(std430, binding = 1) readonly buffer Forces { vec4 gravity; vec4 wind[4]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(parts.length()) || i >= count)
        return;
    Particle p = parts[i];
    p.vel += (gravity + wind[p.flags & 3u]) * dt;
    p.pos += p.vel * dt;
    p.life -= dt;
    if (p.life < 0.0)
        p.flags |= 0x80u;
    parts[i] = p;
    parts[i].pos.w = float(parts.length());
}
