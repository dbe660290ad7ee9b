"""The per-stage interface: inputs, outputs, system values and stage layouts.

``IOMap`` builds, per register, a view (``views.py``), the declaration
lines and the reflection entry; ``stage_layout`` turns the properties into
``layout(...) in/out;`` lines.  User varyings follow the one naming rule of
``varyings.py``; docs/lowering.md ("Inputs and outputs") has the mapping of
every semantic.
"""

from __future__ import annotations

from ..errors import InvalidArgumentError, UnsupportedError
from ..ir import Declaration
from ..semantics import PRIMITIVE_NAMES, PRIMITIVE_VERTICES
from . import passes
from .exprs import PREC
from .passes import cull as cull_pass
from .passes import layer as layer_pass
from .passes.fragment import front_facing
from .passes.last_pixel import VERTEX_FACTOR as LAST_PIXEL_VERTEX_FACTOR
from .passes.smooth_line import VERTEX_FACTOR as SMOOTH_LINE_VERTEX_FACTOR
from .reflection import VaryingInfo
from .sysval_block import INSTANCE_NAME
from .varyings import INTERSTAGE_VARYINGS, clip_cull_counts, per_vertex_block, varying_block, varying_name
from .views import Component, ComponentView, VectorView, comp, vcomps

# Semantics that always become user varyings glp_<name>_<n>.
VARYING_SEMANTICS = frozenset({"GENERIC", "TEXCOORD", "COLOR", "BCOLOR", "FOG", "NORMAL", "PATCH"})
# Per-patch (not per-vertex) semantics of TCS outputs / TES inputs.
PATCH_SEMANTICS = frozenset({"PATCH", "TESSOUTER", "TESSINNER", "PRIM_ID"})
PER_VERTEX_STAGES = frozenset({"GEOM", "TESS_CTRL", "TESS_EVAL"})

_INTERP_QUALIFIER = {"CONSTANT": "flat", "LINEAR": "noperspective", "PERSPECTIVE": "smooth"}
_GS_INPUT = {
    "POINTS": "points",
    "LINES": "lines",
    "LINE_STRIP": "lines",
    "LINE_LOOP": "lines",
    "TRIANGLES": "triangles",
    "TRIANGLE_STRIP": "triangles",
    "TRIANGLE_FAN": "triangles",
    "LINES_ADJACENCY": "lines_adjacency",
    "LINE_STRIP_ADJACENCY": "lines_adjacency",
    "TRIANGLES_ADJACENCY": "triangles_adjacency",
    "TRIANGLE_STRIP_ADJACENCY": "triangles_adjacency",
}
_GS_OUTPUT = {
    "POINTS": "points",
    "LINES": "line_strip",
    "LINE_STRIP": "line_strip",
    "TRIANGLES": "triangle_strip",
    "TRIANGLE_STRIP": "triangle_strip",
}
_TES_PRIM = {4: "triangles", 7: "quads", 1: "isolines"}
_TES_SPACING = {0: "fractional_odd_spacing", 1: "fractional_even_spacing", 2: "equal_spacing"}
_DEPTH_LAYOUT = {1: "depth_any", 2: "depth_greater", 3: "depth_less", 4: "depth_unchanged"}

ONE = 0x3F800000

# VariantKey.vs_input_types kind -> (GLSL type of the ``in`` variable, type
# the shader reads, conversion of the ``in`` or None).  ``snorm``: GL 4.2+
# and Gallium clamp the SNORM minimum to -1, some hosts give
# -2^(n-1)/(2^(n-1)-1); ``uscaled``: 32-bit USCALED arrives through the
# integer path (exact on every host) and converts here (variant.py).
_VS_INPUT_KINDS = {
    "float": ("vec4", "float", None),
    "int": ("ivec4", "int", None),
    "uint": ("uvec4", "uint", None),
    "snorm": ("vec4", "float", "max({}, vec4(-1.0))"),
    "uscaled": ("uvec4", "float", "vec4({})"),
}


_INT_SEMANTICS = frozenset(
    {
        "PRIM_ID",
        "LAYER",
        "VIEWPORT_INDEX",
        "INSTANCEID",
        "VERTEXID",
        "VERTICESIN",
        "BASEVERTEX",
        "BASEINSTANCE",
        "DRAWID",
        "VERTEXID_NOBASE",
        "INVOCATIONID",
        "SAMPLEMASK",
        "STENCIL",
        "VIEWPORT_MASK",
    }
)
_UINT_SEMANTICS = frozenset(
    {
        "THREAD_ID",
        "BLOCK_ID",
        "BLOCK_SIZE",
        "GRID_SIZE",
        "WORK_DIM",
        "SAMPLEID",
        "HELPER_INVOCATION",
        "SUBGROUP_SIZE",
        "SUBGROUP_INVOCATION",
        "SUBGROUP_EQ_MASK",
        "SUBGROUP_GE_MASK",
        "SUBGROUP_GT_MASK",
        "SUBGROUP_LE_MASK",
        "SUBGROUP_LT_MASK",
    }
)


def semantic_type(proc: str, file: str, semantic, key, index: int = 0) -> str:
    """The base type of the GLSL value an IN/OUT/SV register of ``semantic`` maps to
    (type inference uses it for moves out of such registers)."""
    if semantic is None:
        return "float"
    if file == "SV" and semantic == "FACE":
        return "uint"
    if proc == "FRAG" and file == "OUT" and semantic == "COLOR":
        return key.color_type(index)
    if semantic in _INT_SEMANTICS:
        return "int"
    if semantic in _UINT_SEMANTICS:
        return "uint"
    return "float"


def _prim_name(value) -> str:
    if isinstance(value, int):
        return PRIMITIVE_NAMES[value]
    return value


class IOMap:
    """Views, declarations and reflection of a shader's IN / OUT / SV registers.

    ``em`` is the Emitter (for the key, requirements, declarations, plan).
    """

    def __init__(self, em):
        self.em = em
        self.proc = em.shader.processor
        self.decl_lines: list[str] = []
        self.inputs: list[VaryingInfo] = []
        self.outputs: list[VaryingInfo] = []
        self._input_indices: set[int] = set()
        self._output_indices: set[int] = set()
        self.system_values: list[tuple[int, str]] = []
        self.local_outputs: dict[int, str] = {}  # OUT index -> local vec4 (CLIPVERTEX, ...)
        self.window_space_position: str | None = None
        # Zero writes of the outputs declared only for the next stage (_declare_next_stage_inputs):
        # run at the start of main, and in a GS again before every EmitVertex (which
        # leaves every output undefined, GLSL 4.50 section 8.12).
        self.unwritten_output_zeros: list[str] = []
        # Copies of outputs kept in locals (CLIPVERTEX, EDGEFLAG) into the varyings the
        # next stage reads (_declare_next_stage_inputs): run with the vertex_end passes.
        self.local_output_copies: list[str] = []
        self.color_outputs: dict[int, str] = {}  # FS color index -> GLSL output name
        self.fbfetch_copies: dict[int, str] = {}  # FS output index -> saved framebuffer color
        self._declared = set()
        self._in_views: dict[int, object] = {}
        self._out_views: dict[int, object] = {}
        self._sv_views: dict[int, object] = {}
        self.clip_cull = clip_cull_counts(em.shader)  # (clip distances or None = all, cull distances)

    # -- helpers ---------------------------------------------------------------
    def _declare(self, line: str) -> None:
        if line not in self._declared:
            self._declared.add(line)
            self.decl_lines.append(line)

    def interpolation(self, decl: Declaration, semantic: str) -> tuple[str, str | None, str | None]:
        """(qualifier text, interpolation name, location name) of an FS input."""
        interp = decl.interpolate or "PERSPECTIVE"
        return self._qualifiers(interp, decl.location or "CENTER", semantic)

    def _qualifiers(self, interp: str, location: str, semantic: str):
        if interp == "COLOR":
            interp = "CONSTANT" if self.em.key.flatshade else "PERSPECTIVE"
        words = []
        if interp != "PERSPECTIVE":
            words.append(_INTERP_QUALIFIER[interp])
        if location == "CENTROID":
            words.append("centroid")
        elif location == "SAMPLE":
            self.em.req.need("sample_qualifier", f"{semantic} input with SAMPLE interpolation")
            words.append("sample")
        return (" ".join(words) + " ") if words else "", interp, location

    def _output_qualifiers(self, semantic: str, index: int) -> tuple[str, str | None, str | None]:
        """Interpolation qualifiers of an output of the last stage before the rasterizer:
        from VariantKey.output_interpolation, else flat COLOR/BCOLOR under flatshade."""
        if self.proc not in ("VERT", "TESS_EVAL", "GEOM"):
            return "", None, None
        found = self.em.key.interpolation_for(semantic, index)
        if found is None and semantic == "BCOLOR":
            found = self.em.key.interpolation_for("COLOR", index)
        if found is not None:
            return self._qualifiers(found[0], found[1], semantic)
        if semantic in ("COLOR", "BCOLOR") and self.em.key.flatshade:
            return "flat ", "CONSTANT", "CENTER"
        return "", None, None

    def vertex_count_of_inputs(self) -> str:
        """Array size of per-vertex inputs ("" = implicitly sized)."""
        return ""

    def declare_all(self) -> None:
        """Create the view of every declared IN and OUT register, in register order,
        so declarations print in that order (and declared-but-unused ones exist)."""
        vertex = "0" if self.proc in PER_VERTEX_STAGES else None
        for index in sorted(self.em.decls.inputs):
            self.input_view(index, vertex)
        if self.proc == "VERT":
            for index in sorted(self.em.plan.vs_input_types):
                self.input_view(index, None)
        for index in sorted(self.em.decls.outputs):
            self.output_view(index, None)
        self._declare_next_stage_inputs()
        self._declare_tess_per_vertex()

    def _declare_tess_per_vertex(self) -> None:
        """TCS outputs / TES inputs: gl_PerVertex with the clip / cull sizes both
        stages agree on (VariantKey.tess_clip_cull); the TCS writes them 0.0
        first, which its own CLIPDIST writes then replace (a TES reading what the
        TCS does not write reads 0.0, as in Mesa's software drivers)."""
        clip, cull = self.em.key.tess_clip_cull
        if self.proc not in ("TESS_CTRL", "TESS_EVAL") or not clip + cull:
            return
        if cull and not self.em.req.has("cull_distance"):
            cull = 0  # cull distances then travel in passes/cull.py's block, not gl_PerVertex
        elif cull:
            self.em.req.need("cull_distance", "gl_CullDistance between the TCS and the TES")
        direction = "out" if self.proc == "TESS_CTRL" else "in"
        # Before the other declarations: a redeclaration precedes every use of the block.
        self.decl_lines.insert(0, per_vertex_block(direction, clip, cull))
        if self.proc == "TESS_CTRL":
            own = "gl_out[gl_InvocationID]."
            zeros = [f"{own}gl_ClipDistance[{k}] = 0.0;" for k in range(clip)]
            zeros += [f"{own}gl_CullDistance[{k}] = 0.0;" for k in range(cull)]
            self.em.prologue[:0] = zeros

    def _declare_next_stage_inputs(self) -> None:
        """Declare the user varyings the next stage reads (VariantKey.output_interpolation)
        that this shader has no output for: GL links an input block only to a
        declared output block.  They are written zero, as Mesa's software
        drivers read an input nothing wrote (tgsi.rst leaves it undefined)."""
        em = self.em
        if self.proc in ("FRAG", "COMP"):
            return
        written = {em.decls.semantic_of(d, r) for d in em.decls.outputs.values() for r in range(d.first, d.last + 1)}
        local = {em.decls.semantic_of(em.decls.outputs[r], r): name for r, name in self.local_outputs.items()}
        for semantic, index, _interp, _loc in em.key.output_interpolation:
            if semantic not in INTERSTAGE_VARYINGS:
                continue
            if (semantic, index) in local:
                # Written, but to a local (no GL built-in): the varying gets its value.
                name = varying_name(semantic, index)
                self._declare(varying_block("out", name, self._output_qualifiers(semantic, index)[0]))
                self.local_output_copies.append(f"{name} = {local[(semantic, index)]};")
            if (semantic, index) in written:
                continue
            if semantic in layer_pass.SEMANTICS:  # the integer varying a GS reads (passes/layer.py)
                self.unwritten_output_zeros.append(layer_pass.zero_output(self, semantic))
                continue
            name = varying_name(semantic, index)
            if self.proc == "TESS_CTRL":
                if semantic == "PATCH":
                    self._declare(varying_block("out", name, prefix="patch "))
                    self.unwritten_output_zeros.append(f"{name} = vec4(0.0);")
                else:
                    self._declare(varying_block("out", name, instance=f"{name}_out[]"))
                    self.unwritten_output_zeros.append(f"{name}_out[gl_InvocationID].{name} = vec4(0.0);")
                continue
            qual, _, _ = self._output_qualifiers(semantic, index)
            self._declare(varying_block("out", name, qual))
            self.unwritten_output_zeros.append(f"{name} = vec4(0.0);")
        em.prologue += self.unwritten_output_zeros

    # -- inputs ----------------------------------------------------------------
    def input_view(self, index: int, vertex: str | None):
        """The view of IN[index] (``vertex``: GLSL index text of a per-vertex input)."""
        key = (index, vertex)
        if key in self._in_views:
            return self._in_views[key]
        view = self._make_input(index, vertex)
        self._in_views[key] = view
        return view

    def _make_input(self, index: int, vertex: str | None):
        em = self.em
        decl = em.decls.inputs.get(index)
        proc = self.proc
        if proc == "VERT":
            kind = em.key.vs_input_type(index) or em.plan.vs_input_types.get(index, "float")
            name = f"glp_attr_{index}"
            gtype, base, convert = _VS_INPUT_KINDS[kind]
            self._declare(f"layout(location = {index}) in {gtype} {name};")
            self._record_input(VaryingInfo("IN", index, None, 0, name, index, glsl_type=gtype))
            # A converting kind reads as a call on the input (atomic, so
            # swizzles append to it); the compiler folds the repeated reads.
            return VectorView(convert.format(name) if convert else name, base, writable=False)
        if decl is None:
            raise InvalidArgumentError(f"IN[{index}] is used but not declared")
        semantic, sidx = em.decls.semantic_of(decl, index)
        if semantic is None:
            raise InvalidArgumentError(f"IN[{index}] of a {proc} shader has no semantic")
        if proc == "FRAG":
            return self._fs_input(index, decl, semantic, sidx)
        if proc == "COMP":
            raise InvalidArgumentError("compute shaders have no IN registers")
        return self._vertex_input(index, decl, semantic, sidx, vertex)

    def _record_input(self, info: VaryingInfo) -> None:
        if info.index not in self._input_indices:  # (a set: linear in the registers)
            self._input_indices.add(info.index)
            self.inputs.append(info)

    def _record_output(self, info: VaryingInfo) -> None:
        if info.index not in self._output_indices:
            self._output_indices.add(info.index)
            self.outputs.append(info)

    def _fs_input(self, index, decl, semantic, sidx):
        em = self.em
        if semantic == "POSITION":
            self._record_input(VaryingInfo("IN", index, semantic, sidx, "gl_FragCoord", builtin=True))
            return self.frag_coord()
        if semantic == "FACE":
            self._record_input(VaryingInfo("IN", index, semantic, sidx, "gl_FrontFacing", builtin=True))
            return ComponentView(
                [comp(f"{front_facing(em.key)} ? 1.0 : -1.0", "float", prec=PREC["?:"])], "float", (0, 0, 0, ONE)
            )
        if semantic == "PCOORD":
            self._record_input(VaryingInfo("IN", index, semantic, sidx, "gl_PointCoord", builtin=True))
            return ComponentView(vcomps("gl_PointCoord", "float", 2), "float", (0, 0, 0, ONE))
        if semantic == "PRIM_ID":
            self._record_input(VaryingInfo("IN", index, semantic, sidx, "gl_PrimitiveID", builtin=True))
            return ComponentView([comp("gl_PrimitiveID", "int")], "int")
        if semantic in ("LAYER", "VIEWPORT_INDEX"):
            em.req.need("fs_layer_viewport", f"FS input {semantic}")
            name = "gl_Layer" if semantic == "LAYER" else "gl_ViewportIndex"
            self._record_input(VaryingInfo("IN", index, semantic, sidx, name, builtin=True))
            return ComponentView([comp(name, "int")], "int")
        if semantic not in ("SAMPLEMASK", "STENCIL"):
            # CLIPDIST: the clip and cull distances the last vertex stage wrote, as
            # written: a varying that stage fills (passes.vertex.copy_clipdist_varyings),
            # not gl_ClipDistance, which holds 0.0 for the distances clip_plane_enable
            # disables, and has no cull part (docs/lowering.md, "CLIPDIST").
            if semantic != "CLIPDIST":
                replaced = passes.fs_input(self, index, decl, semantic, sidx)  # two-sided color, sprites
                if replaced is not None:
                    return replaced
            # GENERIC, TEXCOORD, COLOR, FOG, CLIPDIST ... and any other semantic: a varying.
            name = varying_name(semantic, sidx)
            qual, interp, loc = self.interpolation(decl, semantic)
            self._declare(varying_block("in", name, qual))
            self._record_input(
                VaryingInfo("IN", index, semantic, sidx, name, interpolation=interp, sample_location=loc, xfb_name=name)
            )
            return VectorView(name, "float", writable=False)
        raise UnsupportedError(f"FS input semantic {semantic} has no GLSL equivalent")

    def frag_coord(self):
        """The view of gl_FragCoord in TGSI's window convention (docs/lowering.md,
        "Window coordinates")."""
        em = self.em
        shader = em.shader
        integer = shader.property("FS_COORD_PIXEL_CENTER", "HALF_INTEGER") == "INTEGER"
        lower_left = shader.property("FS_COORD_ORIGIN", "UPPER_LEFT") == "LOWER_LEFT"
        if integer:
            self._declare("layout(pixel_center_integer) in vec4 gl_FragCoord;")
        if lower_left == em.key.y_flip:
            return VectorView("gl_FragCoord", "float", writable=False)
        em.use_sysvals()
        height = f"{INSTANCE_NAME}.fb_size.y"
        y = f"{height} - 1.0 - gl_FragCoord.y" if integer else f"{height} - gl_FragCoord.y"
        entries = vcomps("gl_FragCoord", "float", 4)
        entries[1] = comp(y, "float", prec=PREC["-"])
        return ComponentView(entries, "float")

    def _vertex_input(self, index, decl, semantic, sidx, vertex):
        proc = self.proc
        # GLSL 4.50 section 4.3.4: per-patch ("patch in") inputs exist in a TES only; a
        # TCS reads every input per vertex (a PATCH input from the VS's output of
        # that semantic, as Gallium links stages by semantic).
        per_vertex = semantic not in PATCH_SEMANTICS or proc != "TESS_EVAL"
        if proc == "GEOM" and semantic == "PRIM_ID":
            self._record_input(VaryingInfo("IN", index, semantic, sidx, "gl_PrimitiveIDIn", builtin=True))
            return ComponentView([comp("gl_PrimitiveIDIn", "int")], "int")
        if proc == "TESS_EVAL" and semantic in ("TESSOUTER", "TESSINNER"):
            return self._tess_levels(semantic, writable=False)
        if proc == "TESS_EVAL" and semantic == "PRIM_ID":
            return ComponentView([comp("gl_PrimitiveID", "int")], "int")
        v = vertex if vertex is not None else "0"
        if semantic == "POSITION":
            self._record_input(VaryingInfo("IN", index, semantic, sidx, "gl_Position", per_vertex=True, builtin=True))
            return VectorView(f"gl_in[{v}].gl_Position", "float", writable=False)
        if semantic == "PSIZE":
            self._record_input(VaryingInfo("IN", index, semantic, sidx, "gl_PointSize", per_vertex=True, builtin=True))
            return ComponentView([comp(f"gl_in[{v}].gl_PointSize", "float")], "float", (0, 0, 0, ONE))
        if semantic == "CLIPDIST":
            # Split as this shader's own properties split its outputs (what
            # Mesa's frontend emits for every stage of a program).
            self._record_input(
                VaryingInfo("IN", index, semantic, sidx, "gl_ClipDistance", per_vertex=True, builtin=True)
            )
            return ComponentView(
                [
                    self._clip_component(4 * sidx + c, f"gl_in[{v}].", lvalue=False, vertex=v) or comp("0.0", "float")
                    for c in range(4)
                ],
                "float",
            )
        if semantic in layer_pass.SEMANTICS and proc == "GEOM":
            view = layer_pass.gs_input(self, semantic, v)  # the previous stage's varying (passes/layer.py)
            self._record_input(VaryingInfo("IN", index, semantic, sidx, f"glp_{semantic.lower()}", per_vertex=True))
            return view
        name = varying_name(semantic, sidx)
        if not per_vertex:
            self._declare(varying_block("in", name, prefix="patch "))
            self._record_input(VaryingInfo("IN", index, semantic, sidx, name, patch=True, xfb_name=name))
            return VectorView(name, "float", writable=False)
        self._declare(varying_block("in", name, instance=f"{name}_in[{self.input_array_size()}]"))
        self._record_input(VaryingInfo("IN", index, semantic, sidx, name, per_vertex=True, xfb_name=name))
        return VectorView(f"{name}_in[{v}].{name}", "float", writable=False)

    def input_array_size(self) -> str:
        """The size of a per-vertex input array: the GS input primitive's
        vertex count, unsized ("") in a TCS / TES."""
        if self.proc != "GEOM":
            return ""
        prim = _prim_name(self.em.shader.property("GS_INPUT_PRIMITIVE", "TRIANGLES"))
        return str(PRIMITIVE_VERTICES.get(prim, 3))

    def bounded_vertex(self, file: str, index: str) -> str:
        """``index`` (GLSL text of an indirect vertex index into the ``file`` per-vertex
        arrays) clamped to the vertices they hold: TGSI and GLSL leave an index outside
        the primitive undefined, and llvmpipe reads it past its vertex arrays and dies
        (docs/lowering.md "Indirect vertex indices")."""
        if self.proc == "GEOM":
            last = str(int(self.input_array_size()) - 1)
        elif self.proc == "TESS_CTRL" and file == "OUT":
            last = str(int(self.em.shader.property("TCS_VERTICES_OUT", 1)) - 1)
        else:  # TCS inputs (the draw's patch), TES inputs (the TCS's output patch)
            last = "gl_PatchVerticesIn - 1"
        return f"clamp({index}, 0, {last})"

    def _tess_levels(self, semantic: str, writable: bool):
        if semantic == "TESSOUTER":
            return ComponentView([comp(f"gl_TessLevelOuter[{c}]", "float", lvalue=writable) for c in range(4)], "float")
        return ComponentView([comp(f"gl_TessLevelInner[{c}]", "float", lvalue=writable) for c in range(2)], "float")

    # -- outputs ---------------------------------------------------------------
    def output_view(self, index: int, vertex: str | None):
        """The view of OUT[index] (``vertex``: index text of a TCS per-vertex output)."""
        key = (index, vertex)
        if key in self._out_views:
            return self._out_views[key]
        view = self._make_output(index, vertex)
        self._out_views[key] = view
        return view

    def _make_output(self, index: int, vertex: str | None):
        em = self.em
        decl = em.decls.outputs.get(index)
        if decl is None:
            raise InvalidArgumentError(f"OUT[{index}] is used but not declared")
        semantic, sidx = em.decls.semantic_of(decl, index)
        if semantic is None:
            raise InvalidArgumentError(f"OUT[{index}] has no semantic")
        if self.proc == "FRAG":
            return self._fs_output(index, decl, semantic, sidx)
        if self.proc == "TESS_CTRL":
            return self._tcs_output(index, decl, semantic, sidx, vertex)
        if self.proc == "COMP":
            raise InvalidArgumentError("compute shaders have no OUT registers")
        return self._vertex_output(index, decl, semantic, sidx)

    def _vertex_output(self, index, decl, semantic, sidx):
        em = self.em
        proc = self.proc
        stream = decl.used_streams[0] if proc == "GEOM" and decl.used_streams else 0
        if semantic == "POSITION":
            self._record_output(VaryingInfo("OUT", index, semantic, sidx, "gl_Position", builtin=True))
            if proc == "VERT" and em.shader.property("VS_WINDOW_SPACE_POSITION", 0):
                self.window_space_position = "glp_window_position"
                return VectorView(self.window_space_position, "float")
            return VectorView("gl_Position", "float")
        if semantic == "PSIZE":
            self._record_output(VaryingInfo("OUT", index, semantic, sidx, "gl_PointSize", builtin=True))
            return ComponentView([comp("gl_PointSize", "float", lvalue=True)], "float", (0, 0, 0, ONE))
        if semantic == "CLIPDIST":
            self._record_output(VaryingInfo("OUT", index, semantic, sidx, "gl_ClipDistance", builtin=True))
            nclip, ncull = self.clip_cull
            if ncull and cull_pass.emulated(em):
                # No gl_CullDistance on the host: clip distances stand for them (passes/cull.py).
                cull_pass.declare_outputs(self)
            elif nclip:
                self._declare(f"out float gl_ClipDistance[{nclip}];")
            if ncull and not cull_pass.emulated(em):
                em.req.need("cull_distance", "CLIPDIST outputs used as cull distances (NUM_CULLDIST_ENABLED)")
                self._declare(f"out float gl_CullDistance[{ncull}];")
            return ComponentView([self._clip_component(4 * sidx + c) for c in range(4)], "float")
        if semantic in ("CLIPVERTEX", "EDGEFLAG"):
            # Core GL has neither gl_ClipVertex nor edge flags: keep the value in a
            # local (the user-clip-plane variant computes gl_ClipDistance from it).
            name = f"glp_{semantic.lower()}"
            self.local_outputs[index] = name
            return VectorView(name, "float")
        if semantic in ("LAYER", "VIEWPORT_INDEX"):
            name = "gl_Layer" if semantic == "LAYER" else "gl_ViewportIndex"
            if layer_pass.emulated(em, semantic):
                # No vertex-stage gl_Layer, or a GS reads it: a varying (passes/layer.py).
                self._record_output(VaryingInfo("OUT", index, semantic, sidx, f"glp_{semantic.lower()}"))
                return layer_pass.output(self, semantic)
            if proc in ("VERT", "TESS_EVAL"):
                em.req.need("vs_layer_viewport", f"{proc} output {semantic}")
            elif semantic == "VIEWPORT_INDEX":
                em.req.need("viewport_array", f"GS output {semantic}")
            self._record_output(VaryingInfo("OUT", index, semantic, sidx, name, builtin=True))
            return ComponentView([comp(name, "int", lvalue=True)], "int")
        if semantic == "PRIM_ID":
            if proc != "GEOM":
                raise UnsupportedError(f"{proc} output PRIM_ID has no GLSL equivalent (only GS writes it)")
            self._record_output(VaryingInfo("OUT", index, semantic, sidx, "gl_PrimitiveID", builtin=True))
            return ComponentView([comp("gl_PrimitiveID", "int", lvalue=True)], "int")
        if semantic == "VIEWPORT_MASK":
            em.req.need("viewport_array2", "output VIEWPORT_MASK")
            self._record_output(VaryingInfo("OUT", index, semantic, sidx, "gl_ViewportMask", builtin=True))
            return ComponentView([comp("gl_ViewportMask[0]", "int", lvalue=True)], "int")
        name = varying_name(semantic, sidx)
        qual, interp, loc = self._output_qualifiers(semantic, sidx)
        layout = ""
        if stream:
            em.req.need("gs_streams", f"GS output on stream {stream}")
            layout = f"layout(stream = {stream}) "
        self._declare(varying_block("out", name, qual, prefix=layout))
        self._record_output(
            VaryingInfo(
                "OUT",
                index,
                semantic,
                sidx,
                name,
                interpolation=interp,
                sample_location=loc,
                stream=stream,
                xfb_name=name,
            )
        )
        return VectorView(name, "float")

    def _clip_component(
        self, k: int, prefix: str = "", lvalue: bool = True, vertex: str | None = None
    ) -> Component | None:
        """``gl_ClipDistance[k]``, or ``gl_CullDistance[k - nclip]`` past the
        clip distances (``clip_cull_counts``); None past both (dropped).
        ``vertex``: the input vertex (``prefix`` is then its ``gl_in[v].``)."""
        nclip, ncull = self.clip_cull
        if nclip is not None and k >= nclip:
            if k < nclip + ncull and cull_pass.emulated(self.em):
                return cull_pass.component(self, k - nclip, vertex, lvalue)
            if k < nclip + ncull:
                self.em.req.need("cull_distance", "CLIPDIST used as a cull distance (NUM_CULLDIST_ENABLED)")
                return comp(f"{prefix}gl_CullDistance[{k - nclip}]", "float", lvalue=lvalue)
            return None  # beyond the enabled distances: dropped
        return comp(f"{prefix}gl_ClipDistance[{k}]", "float", lvalue=lvalue)

    def _tcs_output(self, index, decl, semantic, sidx, vertex):
        if semantic in ("TESSOUTER", "TESSINNER"):
            self._record_output(
                VaryingInfo(
                    "OUT",
                    index,
                    semantic,
                    sidx,
                    "gl_TessLevelOuter" if semantic == "TESSOUTER" else "gl_TessLevelInner",
                    patch=True,
                    builtin=True,
                )
            )
            return self._tess_levels(semantic, writable=True)
        # Writes to per-vertex outputs must be indexed by gl_InvocationID in GLSL;
        # TGSI from GLSL always writes the invocation's own vertex.
        v = vertex if vertex is not None else "gl_InvocationID"
        if semantic == "POSITION":
            self._record_output(VaryingInfo("OUT", index, semantic, sidx, "gl_Position", per_vertex=True, builtin=True))
            return VectorView(f"gl_out[{v}].gl_Position", "float")
        if semantic == "PSIZE":
            self._record_output(
                VaryingInfo("OUT", index, semantic, sidx, "gl_PointSize", per_vertex=True, builtin=True)
            )
            return ComponentView([comp(f"gl_out[{v}].gl_PointSize", "float", lvalue=True)], "float", (0, 0, 0, ONE))
        if semantic == "CLIPDIST":
            self._record_output(
                VaryingInfo("OUT", index, semantic, sidx, "gl_ClipDistance", per_vertex=True, builtin=True)
            )
            return ComponentView([self._clip_component(4 * sidx + c, f"gl_out[{v}].") for c in range(4)], "float")
        name = varying_name(semantic, sidx)
        if semantic in PATCH_SEMANTICS:
            self._declare(varying_block("out", name, prefix="patch "))
            self._record_output(VaryingInfo("OUT", index, semantic, sidx, name, patch=True, xfb_name=name))
            return VectorView(name, "float")
        self._declare(varying_block("out", name, instance=f"{name}_out[]"))
        self._record_output(VaryingInfo("OUT", index, semantic, sidx, name, per_vertex=True, xfb_name=name))
        return VectorView(f"{name}_out[{v}].{name}", "float")

    def _fs_output(self, index, decl, semantic, sidx):
        em = self.em
        if semantic == "COLOR":
            base = em.key.color_type(sidx)
            gtype = {"float": "vec4", "int": "ivec4", "uint": "uvec4"}[base]
            name = f"glp_frag_color_{sidx}"
            if em.key.dual_source_blend and sidx == 1:
                layout, location = "layout(location = 0, index = 1) ", 0
            else:
                layout, location = f"layout(location = {sidx}) ", sidx
            storage = "inout" if index in em.fbfetch_outputs else "out"
            self._declare(f"{layout}{storage} {gtype} {name};")
            self.color_outputs[sidx] = name
            self._record_output(VaryingInfo("OUT", index, semantic, sidx, name, location=location, glsl_type=gtype))
            return VectorView(name, base)
        if semantic == "POSITION":
            layout = em.shader.property("FS_DEPTH_LAYOUT", 0)
            if layout in _DEPTH_LAYOUT and em.req.has("conservative_depth"):
                # Only an optimisation hint: dropped when the host cannot express it.
                em.req.need("conservative_depth", "FS_DEPTH_LAYOUT")
                self._declare(f"layout({_DEPTH_LAYOUT[layout]}) out float gl_FragDepth;")
            self._record_output(VaryingInfo("OUT", index, semantic, sidx, "gl_FragDepth", builtin=True))
            em.writes_depth = True
            return ComponentView([None, None, comp("gl_FragDepth", "float", lvalue=True)], "float")
        if semantic == "STENCIL":
            em.req.need("stencil_export", "FS output STENCIL")
            self._record_output(VaryingInfo("OUT", index, semantic, sidx, "gl_FragStencilRefARB", builtin=True))
            return ComponentView([None, comp("gl_FragStencilRefARB", "int", lvalue=True)], "int")
        if semantic == "SAMPLEMASK":
            em.req.need("sample_shading", "FS output SAMPLEMASK")
            self._record_output(VaryingInfo("OUT", index, semantic, sidx, "gl_SampleMask", builtin=True))
            return ComponentView([comp("gl_SampleMask[0]", "int", lvalue=True)], "int")
        raise UnsupportedError(f"FS output semantic {semantic} has no GLSL equivalent")

    # -- system values ------------------------------------------------------------
    def sv_view(self, index: int):
        """The view of SV[index]."""
        if index in self._sv_views:
            return self._sv_views[index]
        view = self._make_sv(index)
        self._sv_views[index] = view
        return view

    def _make_sv(self, index: int):
        em = self.em
        semantic = em.decls.sv_semantic(index)
        if semantic is None:
            raise InvalidArgumentError(f"SV[{index}] is used but not declared")
        self.system_values.append((index, semantic))
        proc = self.proc
        need = em.req.need
        simple_int = {"INSTANCEID": "gl_InstanceID", "VERTEXID": "gl_VertexID", "VERTICESIN": "gl_PatchVerticesIn"}
        if semantic in simple_int:
            if semantic == "VERTICESIN":
                need("tessellation", "VERTICESIN")
            return ComponentView([comp(simple_int[semantic], "int")], "int")
        if semantic in ("BASEVERTEX", "BASEINSTANCE", "DRAWID", "VERTEXID_NOBASE"):
            need("draw_parameters", f"system value {semantic}")
            suffix = "" if em.req.core("draw_parameters") else "ARB"
            names = {
                "BASEVERTEX": f"gl_BaseVertex{suffix}",
                "BASEINSTANCE": f"gl_BaseInstance{suffix}",
                "DRAWID": f"gl_DrawID{suffix}",
            }
            if semantic == "VERTEXID_NOBASE":
                return ComponentView([comp(f"gl_VertexID - gl_BaseVertex{suffix}", "int", prec=PREC["-"])], "int")
            return ComponentView([comp(names[semantic], "int")], "int")
        if semantic == "PRIM_ID":
            return ComponentView([comp("gl_PrimitiveIDIn" if proc == "GEOM" else "gl_PrimitiveID", "int")], "int")
        if semantic == "INVOCATIONID":
            if proc == "GEOM":
                need("gs_invocations", "system value INVOCATIONID in a GS")
            return ComponentView([comp("gl_InvocationID", "int")], "int")
        if semantic == "FACE":
            return ComponentView(
                [comp(f"{front_facing(em.key)} ? 0xffffffffu : 0u", "uint", prec=PREC["?:"])], "uint", (0, 0, 0, 1)
            )
        if semantic == "POSITION":
            return self.frag_coord()
        if semantic == "SAMPLEID":
            need("sample_shading", "system value SAMPLEID")
            return ComponentView([comp("uint(gl_SampleID)", "uint")], "uint")
        if semantic == "SAMPLEPOS":
            need("sample_shading", "system value SAMPLEPOS")
            return ComponentView(vcomps("gl_SamplePosition", "float", 2), "float")
        if semantic == "SAMPLEMASK":
            need("sample_shading", "system value SAMPLEMASK")
            return ComponentView([comp("gl_SampleMaskIn[0]", "int")], "int")
        if semantic == "HELPER_INVOCATION":
            need("helper_invocation", "system value HELPER_INVOCATION")
            return ComponentView([comp("gl_HelperInvocation ? 0xffffffffu : 0u", "uint", prec=PREC["?:"])], "uint")
        if semantic == "TESSCOORD":
            return ComponentView(vcomps("gl_TessCoord", "float", 3), "float")
        if semantic in ("TESSOUTER", "TESSINNER"):
            return self._tess_levels(semantic, writable=False)
        if semantic in ("TESS_DEFAULT_OUTER_LEVEL", "TESS_DEFAULT_INNER_LEVEL"):
            em.use_sysvals()
            field = "tess_default_outer" if semantic == "TESS_DEFAULT_OUTER_LEVEL" else "tess_default_inner"
            return VectorView(f"{INSTANCE_NAME}.{field}", "float", writable=False)
        compute = {
            "THREAD_ID": "gl_LocalInvocationID",
            "BLOCK_ID": "gl_WorkGroupID",
            "BLOCK_SIZE": "gl_WorkGroupSize",
            "GRID_SIZE": "gl_NumWorkGroups",
        }
        if semantic in compute:
            name = compute[semantic]
            if semantic == "BLOCK_SIZE" and em.block_size() is None:
                name = "gl_LocalGroupSizeARB"
            return ComponentView(vcomps(name, "uint", 3), "uint")
        if semantic == "WORK_DIM":
            em.use_sysvals()
            return ComponentView([comp(f"{INSTANCE_NAME}.compute_info.x", "uint")], "uint")
        if semantic in ("SUBGROUP_SIZE", "SUBGROUP_INVOCATION"):
            need("ballot", f"system value {semantic}")
            name = "gl_SubGroupSizeARB" if semantic == "SUBGROUP_SIZE" else "gl_SubGroupInvocationARB"
            return ComponentView([comp(name, "uint")], "uint")
        if semantic.startswith("SUBGROUP_") and semantic.endswith("_MASK"):
            need("ballot", f"system value {semantic}")
            need("int64", f"system value {semantic}")
            kind = semantic[len("SUBGROUP_") : -len("_MASK")].capitalize()
            base = f"unpackUint2x32(gl_SubGroup{kind}MaskARB)"
            return ComponentView(vcomps(base, "uint", 2), "uint")
        if semantic in ("LAYER", "VIEWPORT_INDEX"):
            need("fs_layer_viewport", f"system value {semantic}")
            return ComponentView([comp("gl_Layer" if semantic == "LAYER" else "gl_ViewportIndex", "int")], "int")
        raise UnsupportedError(f"system value {semantic} has no GLSL equivalent")


# ---------------------------------------------------------------------------
# Stage layouts
# ---------------------------------------------------------------------------


def stage_layout(em) -> list[str]:
    """``layout(...) in/out;`` lines from the shader's properties (and the key)."""
    shader = em.shader
    proc = shader.processor
    req = em.req
    out: list[str] = []
    if proc == "GEOM":
        prim = _prim_name(shader.property("GS_INPUT_PRIMITIVE", "TRIANGLES"))
        if prim not in _GS_INPUT:
            raise UnsupportedError(f"GS_INPUT_PRIMITIVE {prim} has no GLSL geometry shader input layout")
        invocations = shader.property("GS_INVOCATIONS", 1)
        extra = ""
        if invocations and invocations > 1:
            req.need("gs_invocations", "GS_INVOCATIONS")
            extra = f", invocations = {invocations}"
        out.append(f"layout({_GS_INPUT[prim]}{extra}) in;")
        oprim = _prim_name(shader.property("GS_OUTPUT_PRIMITIVE", "TRIANGLE_STRIP"))
        if oprim not in _GS_OUTPUT:
            raise UnsupportedError(f"GS_OUTPUT_PRIMITIVE {oprim} has no GLSL geometry shader output layout")
        max_vertices = shader.property("GS_MAX_OUTPUT_VERTICES", 0)
        if em.key.line_last_pixel:  # up to 3 vertices per vertex the shader emits
            max_vertices *= LAST_PIXEL_VERTEX_FACTOR
        if em.key.line_smooth:  # quads of triangles: 5 vertices per vertex (passes/smooth_line.py)
            oprim = "TRIANGLE_STRIP"
            max_vertices *= SMOOTH_LINE_VERTEX_FACTOR
        out.append(f"layout({_GS_OUTPUT[oprim]}, max_vertices = {max_vertices}) out;")
    elif proc == "TESS_CTRL":
        req.need("tessellation", "a TESS_CTRL shader")
        vertices = shader.property("TCS_VERTICES_OUT", None)
        if not vertices:
            raise InvalidArgumentError("a TESS_CTRL shader needs PROPERTY TCS_VERTICES_OUT")
        out.append(f"layout(vertices = {vertices}) out;")
    elif proc == "TESS_EVAL":
        req.need("tessellation", "a TESS_EVAL shader")
        mode = shader.property("TES_PRIM_MODE", 4)
        if isinstance(mode, str):
            mode = PRIMITIVE_NAMES.index(mode)
        if mode not in _TES_PRIM:
            raise UnsupportedError(f"TES_PRIM_MODE {mode} is not triangles, quads or isolines")
        parts = [
            _TES_PRIM[mode],
            _TES_SPACING.get(shader.property("TES_SPACING", 2), "equal_spacing"),
            "cw" if shader.property("TES_VERTEX_ORDER_CW", 0) else "ccw",
        ]
        if shader.property("TES_POINT_MODE", 0):
            parts.append("point_mode")
        out.append(f"layout({', '.join(parts)}) in;")
    elif proc == "COMP":
        req.need("compute", "a COMP shader")
        size = em.block_size()
        if size is None:
            out.append("layout(local_size_variable) in;")
        else:
            out.append(f"layout(local_size_x = {size[0]}, local_size_y = {size[1]}, local_size_z = {size[2]}) in;")
    elif proc == "FRAG":
        if shader.property("FS_EARLY_DEPTH_STENCIL", 0):
            req.need("early_fragment_tests", "FS_EARLY_DEPTH_STENCIL")
            out.append("layout(early_fragment_tests) in;")
        if shader.property("FS_POST_DEPTH_COVERAGE", 0):
            req.need("post_depth_coverage", "FS_POST_DEPTH_COVERAGE")
            out.append("layout(post_depth_coverage) in;")
    return out


__all__ = ["IOMap", "stage_layout", "semantic_type", "VARYING_SEMANTICS", "PATCH_SEMANTICS"]
