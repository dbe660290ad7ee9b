#version 330
// sampler2DRect and sampler2DRectShadow: texture, textureOffset, textureProj, texelFetch,
// textureSize.
uniform sampler2DRect u_rect;
uniform sampler2DRectShadow u_rect_shadow;
in vec2 v_px;
in vec3 v_proj;
in float v_ref;
out vec4 frag;
void main()
{
    vec4 a = texture(u_rect, v_px) + textureOffset(u_rect, v_px, ivec2(-1, 1));
    vec4 b = textureProj(u_rect, v_proj) + texelFetch(u_rect, ivec2(v_px));
    float s = texture(u_rect_shadow, vec3(v_px, v_ref)) + textureOffset(u_rect_shadow, vec3(v_px, v_ref), ivec2(2, 0));
    frag = a + b + vec4(s) + vec4(textureSize(u_rect), textureSize(u_rect_shadow));
}
