"""pipe_context::generate_mipmap (the mipmap area, ``MipmapPart``).

context.rst "Mipmap generation": levels base_level+1 .. last_level of
layers first_layer .. last_layer are replaced by filtered copies of the
level above; False (nothing written) for formats that cannot be filtered.
The ladder (docs/blits.md): glGenerateMipmap where it is exactly the 2x2
(x2) box -- every layer, even sizes, no sRGB decoding question -- else one
LINEAR blit per level, which is Mesa's util_gen_mipmap.
"""

from __future__ import annotations

from lowering.errors import InvalidArgumentError

from .boundary import member, uint32
from .copy import check_level
from .enums import Bind, Mask, Target, TexFilter
from .formats import Format, is_format_supported, util_format_description
from .part import Area, Part
from .resource import Resource, u_minify
from .templates import BlitInfo, BlitSide, Box

# GL's binding query per texture target.
_BINDING = {
    Target.TEXTURE_1D: "GL_TEXTURE_BINDING_1D",
    Target.TEXTURE_2D: "GL_TEXTURE_BINDING_2D",
    Target.TEXTURE_3D: "GL_TEXTURE_BINDING_3D",
    Target.TEXTURE_CUBE: "GL_TEXTURE_BINDING_CUBE_MAP",
    Target.TEXTURE_1D_ARRAY: "GL_TEXTURE_BINDING_1D_ARRAY",
    Target.TEXTURE_2D_ARRAY: "GL_TEXTURE_BINDING_2D_ARRAY",
    Target.TEXTURE_CUBE_ARRAY: "GL_TEXTURE_BINDING_CUBE_MAP_ARRAY",
}


class MipmapPart(Part):
    """The mipmap area: generate_mipmap."""

    #: The path the last call took: "glGenerateMipmap", "blit" or "" (tests read it).
    last_path = ""

    def generate_mipmap(
        self, res: Resource, format: Format, base_level: int, last_level: int, first_layer: int, last_layer: int
    ) -> bool:
        """pipe_context::generate_mipmap: fill levels ``base_level`` + 1 ..
        ``last_level`` of layers ``first_layer`` .. ``last_layer`` of ``res``
        (viewed as ``format``) from the level above each.  Returns False,
        writing nothing, when ``format`` cannot be filtered (integers,
        depth/stencil, compressed) or rendered; bad arguments raise
        InvalidArgumentError."""
        what = "generate_mipmap"
        ctx = self.ctx
        ctx.check_alive(what)
        ctx._check_resource(res, what)
        if res.target == Target.BUFFER:
            raise InvalidArgumentError(f"{what}: {res!r} is a BUFFER; it has no mip levels")
        fmt = member(Format, format, f"{what}: format")
        desc, rdesc = util_format_description(fmt), util_format_description(res.format)
        if fmt == Format.NONE or desc.blocksize != rdesc.blocksize or desc.block_width != rdesc.block_width:
            raise InvalidArgumentError(f"{what}: format {fmt.name} is not a view of the {rdesc.name} resource")
        base = check_level(res, base_level, f"{what}: base_level")
        last = check_level(res, last_level, f"{what}: last_level")
        if last < base:
            raise InvalidArgumentError(f"{what}: last_level {last} is before base_level {base}")
        first_layer = uint32(first_layer, f"{what}: first_layer")
        last_layer = uint32(last_layer, f"{what}: last_layer")
        layers = res.level_extent(base)[2]
        if not first_layer <= last_layer < layers:
            raise InvalidArgumentError(
                f"{what}: layers {first_layer}..{last_layer} outside the {layers} layers/slices of level {base}"
            )
        self.last_path = ""
        screen = ctx.screen
        bind = Bind.SAMPLER_VIEW | Bind.RENDER_TARGET
        filterable = not (desc.is_pure_integer or desc.is_depth_or_stencil or desc.is_compressed)
        if not filterable or not is_format_supported(screen.format_support, fmt, res.target, 0, 0, bind):
            return False  # Mesa's st does the same check before its util_gen_mipmap
        if base == last:
            return True
        ctx.host.make_current()
        if self._native_exact(res, fmt, base, first_layer, last_layer, layers):
            self._gl_generate(res, base, last)
            self.last_path = "glGenerateMipmap"
        else:
            self._blit_levels(res, fmt, base, last, first_layer, last_layer)
            self.last_path = "blit"
        ctx.host.check(what)
        return True

    def _native_exact(self, res, fmt, base: int, first_layer: int, last_layer: int, layers: int) -> bool:
        """glGenerateMipmap filters every layer, the box filter only where
        each level halves exactly (GL leaves NPOT filtering to the
        implementation), and its sRGB decoding is the host's choice."""
        if fmt != res.format or util_format_description(fmt).is_srgb:
            return False
        if res.target != Target.TEXTURE_3D and (first_layer, last_layer) != (0, layers - 1):
            return False
        dims = [res.width0, res.height0, res.depth0]
        for size in dims:
            size = u_minify(size, base)
            if size & (size - 1):
                return False  # not a power of two: some level would not halve exactly
        return True

    def _gl_generate(self, res, base: int, last: int) -> None:
        # The base and max level moved here are the shared texture object's:
        # another thread's draw through a gl33 view must not run between the
        # move and the restore, nor set them in between (the restore would
        # then undo its set): the screen's texture-parameter lock
        # (glpipe/sampler_views.py draw_under_params_lock).
        with self.ctx.screen.epochs.params_lock:
            self._gl_generate_locked(res, base, last)

    def _gl_generate_locked(self, res, base: int, last: int) -> None:
        gl, host = self.ctx.gl, self.ctx.host
        target = res.gl_target
        prev_active = int(gl.glGetIntegerv(gl.GL_ACTIVE_TEXTURE))
        # ModernGL's scratch unit: never a Gallium sampler slot (glpipe/resource.py).
        gl.glActiveTexture(gl.GL_TEXTURE0 + host.scratch_texture_unit)
        prev_tex = int(gl.glGetIntegerv(getattr(gl, _BINDING[res.target])))
        gl.glBindTexture(target, res.gl_object)
        old_base = int(gl.glGetTexParameteriv(target, gl.GL_TEXTURE_BASE_LEVEL))
        old_max = int(gl.glGetTexParameteriv(target, gl.GL_TEXTURE_MAX_LEVEL))
        try:
            gl.glTexParameteri(target, gl.GL_TEXTURE_BASE_LEVEL, base)
            gl.glTexParameteri(target, gl.GL_TEXTURE_MAX_LEVEL, last)
            gl.glGenerateMipmap(target)
        finally:
            gl.glTexParameteri(target, gl.GL_TEXTURE_BASE_LEVEL, old_base)
            gl.glTexParameteri(target, gl.GL_TEXTURE_MAX_LEVEL, old_max)
            gl.glBindTexture(target, prev_tex)
            gl.glActiveTexture(prev_active)

    def _blit_levels(self, res, fmt, base: int, last: int, first_layer: int, last_layer: int) -> None:
        """util_gen_mipmap: each level a LINEAR blit of the one above."""
        is_3d = res.target == Target.TEXTURE_3D
        for level in range(base + 1, last + 1):
            sw, sh, sd = res.level_extent(level - 1)
            dw, dh, dd = res.level_extent(level)
            if is_3d:
                src_z, src_d, dst_z, dst_d = 0, sd, 0, dd
            else:
                src_z = dst_z = first_layer
                src_d = dst_d = last_layer - first_layer + 1
            self.ctx.blit(
                BlitInfo(
                    dst=BlitSide(
                        resource=res,
                        level=level,
                        box=Box(x=0, y=0, z=dst_z, width=dw, height=dh, depth=dst_d),
                        format=fmt,
                    ),
                    src=BlitSide(
                        resource=res,
                        level=level - 1,
                        box=Box(x=0, y=0, z=src_z, width=sw, height=sh, depth=src_d),
                        format=fmt,
                    ),
                    mask=Mask.RGBA,
                    filter=TexFilter.LINEAR,
                )
            )


AREA = Area("mipmap_part", part=MipmapPart, methods=("generate_mipmap",))

__all__ = ["AREA", "MipmapPart"]
