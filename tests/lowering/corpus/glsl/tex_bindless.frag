#version 330
#extension GL_ARB_bindless_texture : require
#extension GL_ARB_shader_image_load_store : require
//! force: GL_ARB_bindless_texture
// ARB_bindless_texture (extension forced: no Mesa 22.3 driver here exposes it): a bindless
// sampler uniform, a sampler built from a uvec2 handle and a bindless image. nir_to_tgsi
// passes the 64-bit handle register (CONST/TEMP) where the sampler/image operand goes.
layout(bindless_sampler) uniform sampler2D u_tex;
layout(rgba8, bindless_image) uniform image2D u_img;
uniform uvec2 u_handle;
in vec2 v_uv;
out vec4 frag;
void main()
{
    sampler2D s = sampler2D(u_handle);
    frag = texture(u_tex, v_uv) + texture(s, v_uv) + imageLoad(u_img, ivec2(v_uv));
}
