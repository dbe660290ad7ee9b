"""Memory opcodes: LOAD / STORE / RESQ / ATOM* on BUFFER, MEMORY, IMAGE, HWATOMIC,
CONSTBUF, and BARRIER / MEMBAR.

docs/lowering.md "Memory" gives the GLSL declarations and the atomics' rules.
"""

from __future__ import annotations

from ..errors import InvalidArgumentError, UnsupportedError
from .decls import IMAGE_FORMATS
from .exprs import Expr, bitcast, call, construct, literal, op, swizzle, type_name, var
from .indexing import active, touches, wrap_table
from .reflection import AtomicBufferInfo, ImageInfo, ShaderBufferInfo
from .texture import TARGETS

DEFAULT_SHARED_BYTES = 32768  # GL's minimum GL_MAX_COMPUTE_SHARED_MEMORY_SIZE

_IMAGE_DIM = {
    "1D": ("1D", 1),
    "2D": ("2D", 2),
    "3D": ("3D", 3),
    "CUBE": ("Cube", 3),
    "RECT": ("2DRect", 2),
    "1D_ARRAY": ("1DArray", 2),
    "2D_ARRAY": ("2DArray", 3),
    "CUBEARRAY": ("CubeArray", 3),
    "BUFFER": ("Buffer", 1),
    "2D_MSAA": ("2DMS", 2),
    "2D_ARRAY_MSAA": ("2DMSArray", 3),
}

# Atomic opcode -> (GLSL function, or None for a CAS loop)
_ATOMIC_FUNC = {
    "ATOMUADD": "atomicAdd",
    "ATOMXCHG": "atomicExchange",
    "ATOMCAS": "atomicCompSwap",
    "ATOMAND": "atomicAnd",
    "ATOMOR": "atomicOr",
    "ATOMXOR": "atomicXor",
    "ATOMUMIN": "atomicMin",
    "ATOMUMAX": "atomicMax",
    "ATOMIMIN": "atomicMin",
    "ATOMIMAX": "atomicMax",
}


def _qualifiers(em, file: str, indices) -> str:
    """GLSL memory qualifiers from every instruction touching ``file[i]``, i in ``indices``
    (an indexed operand touches every element of its range)."""
    found = set()
    for inst in em.insts:
        regs = list(inst.srcs[:1]) + list(inst.dsts[:1])
        if any(touches(em.decls, r, file, index) for r in regs for index in indices):
            found |= set(inst.memory_qualifiers)
    words = [q.lower() for q in ("COHERENT", "VOLATILE", "RESTRICT") if q in found]
    return " ".join(words) + " " if words else ""


def _ssbo_array(em, array) -> str:
    """``ssboarr<first>[index].d``: BUFFER[ADDR...] as an array of blocks (indexing.py),
    element e at SSBO binding ``ssbo_base + first + e`` (docs/bindings.md)."""
    indices = array.indexing.indices("BUFFER")
    first, n = indices[0], len(indices)
    name = f"ssboarr{first}_{n}"
    block = f"glp_{em.prefix}_ssboarr{first}_{n}"
    if all(b.block_name != f"{block}[0]" for b in em.shader_buffers):
        bindings = [em.layout.ssbo_binding(em.proc, k) for k in indices]
        qual = f", binding = {bindings[0]}" if em.binding_qualifier() else ""
        em.declare(
            f"layout(std430{qual}) {_qualifiers(em, 'BUFFER', indices)}buffer {block}\n{{\n"
            f"    uint d[];\n}} {name}[{n}];",
            "ssbo",
            first,
        )
        for e, (k, binding) in enumerate(zip(indices, bindings, strict=True)):
            em.shader_buffers.append(ShaderBufferInfo(k, f"{block}[{e}]", binding))
            em.storage_block_bindings[f"{block}[{e}]"] = binding
    return f"{name}[{array.index}].d"


def ssbo(em, index: int) -> str:
    """Declare BUFFER[index] (once); returns the GLSL word array (``ssbo0.d``)."""
    em.req.need("ssbo", f"BUFFER[{index}]")
    array = active(em)
    if array is not None and "BUFFER" in array.indexing.files():
        return _ssbo_array(em, array)
    name = f"ssbo{index}"
    block = f"glp_{em.prefix}_ssbo{index}"
    if all(b.block_name != block for b in em.shader_buffers):
        binding = em.layout.ssbo_binding(em.proc, index)
        qual = f", binding = {binding}" if em.binding_qualifier() else ""
        em.declare(
            f"layout(std430{qual}) {_qualifiers(em, 'BUFFER', (index,))}buffer {block}\n{{\n    uint d[];\n}} {name};",
            "ssbo",
            index,
        )
        em.shader_buffers.append(ShaderBufferInfo(index, block, binding))
        em.storage_block_bindings[block] = binding
    return f"{name}.d"


def shared(em, index: int) -> str:
    """Declare the shared memory array (once); returns its name."""
    kind = em.decls.memory_type(index)
    if kind != "SHARED":
        raise UnsupportedError(
            f"MEMORY[{index}] of type {kind}: GLSL has no pointers to global, private "
            f"or kernel-input memory (only SHARED memory is lowered)"
        )
    if em.proc != "COMP":
        raise UnsupportedError("shared MEMORY outside a compute shader")
    size = em.req_local_mem if em.req_local_mem is not None else DEFAULT_SHARED_BYTES
    words = max((size + 3) // 4, 1)
    em.shared_size = words * 4
    decl = f"shared uint glp_shared[{words}];"
    if decl not in em.global_decls:
        em.global_decls.append(decl)
    return "glp_shared"


def _shared_guard(em, word: str) -> str | None:
    """The condition under which shared word ``word`` is inside req_local_mem:
    None when it always is, "false" when a constant word never is.  TGSI leaves
    an access past it undefined, but GLSL rejects a constant index past the
    array (an "internal error" from the host: Mesa's own cs_shared_atomics
    capture created with req_local_mem 0) and leaves a dynamic one undefined,
    which must not touch memory outside the array.  So out of range a load
    reads 0 (as the numpy executor, fallback/tgsi_exec/memory.py) and a store
    or atomic does nothing (an atomic returns 0): docs/lowering.md "Shared memory"."""
    n = em.shared_size // 4
    if word.isdigit():
        return None if int(word) < n else "false"
    return f"{word} < {n}u"


def _shared_load(em, word: str) -> str:
    guard = _shared_guard(em, word)
    if guard is None:
        return f"glp_shared[{word}]"
    return "0u" if guard == "false" else f"({guard} ? glp_shared[{word}] : 0u)"


def image(em, index: int, inst) -> tuple:
    """Declare IMAGE[index] (once); returns (name, target, base type, coordinate count).
    While an indexed lookup is emitted (indexing.py) the name is ``array[index]``."""
    target = em.decls.image_target(index, inst.memory_target)
    if target is None or target not in _IMAGE_DIM:
        raise InvalidArgumentError(f"IMAGE[{index}] has no image target")
    em.req.need("image_load_store", f"IMAGE[{index}]")
    if TARGETS.get(target) and TARGETS[target].feature:
        em.req.need(TARGETS[target].feature, f"IMAGE[{index}] of target {target}")
    fmt = em.decls.image_format(index, inst.memory_format)
    base = em.decls.image_base_type(index, inst.memory_format)
    dim, ncoords = _IMAGE_DIM[target]
    array = active(em)
    indices = (index,)
    if array is not None and "IMAGE" in array.indexing.files():
        indices = array.indexing.indices("IMAGE")
        name = f"glp_{em.prefix}_imgarr{indices[0]}_{len(indices)}"
        names = [f"{name}[{e}]" for e in range(len(indices))]
    else:
        name = f"glp_{em.prefix}_img{index}"
        names = [name]
    if all(im.name != names[0] for im in em.images):
        units = [em.layout.image_unit(em.proc, k) for k in indices]
        layout, access, glsl_type = _image_layout(em, indices, fmt, base, dim)
        if em.binding_qualifier():
            layout.append(f"binding = {units[0]}")
        lq = f"layout({', '.join(layout)}) " if layout else ""
        count = f"[{len(indices)}]" if len(names) > 1 or names[0] != name else ""
        em.declare(
            f"{lq}uniform {_qualifiers(em, 'IMAGE', indices)}{access}{glsl_type} {name}{count};", "image", indices[0]
        )
        for k, element, unit in zip(indices, names, units, strict=True):
            em.images.append(ImageInfo(k, element, unit, target, fmt, glsl_type, access.strip() or "readwrite"))
            em.image_units[element] = unit
    if names[0] != name:
        return f"{name}[{array.index}]", target, base, ncoords
    return name, target, base, ncoords


def _image_layout(em, indices, fmt, base: str, dim: str) -> tuple:
    """(layout qualifiers, access qualifier, GLSL type) of the image(s) IMAGE[i], i in
    ``indices``: read-only / write-only from every instruction that may touch them."""

    def uses(i, pred):
        regs = ([i.srcs[0]] if i.srcs else []) + ([i.dsts[0]] if pred == "write" and i.dsts else [])
        return any(touches(em.decls, r, "IMAGE", k) for r in regs for k in indices)

    loads = any(uses(i, "read") for i in em.insts if i.opcode == "LOAD" or i.opcode.startswith("ATOM"))
    writable = any(uses(i, "write") for i in em.insts if i.opcode == "STORE" or i.opcode.startswith("ATOM"))
    layout = []
    if fmt is not None:
        layout.append(IMAGE_FORMATS[fmt][0])
    elif loads:
        raise UnsupportedError(f"IMAGE[{indices[0]}] is read without a declared format (GLSL needs one)")
    access = "" if loads or fmt is not None else "writeonly "
    declared_writable = any(em.decls.images.get(k) is not None and em.decls.images[k].writable for k in indices)
    if not writable and not declared_writable:
        access = "readonly "
    prefix = {"float": "", "int": "i", "uint": "u"}[base]
    return layout, access, f"{prefix}image{dim}"


def atomic_counter(em, i: int, reg) -> str:
    """The atomic_uint lvalue of a HWATOMIC operand (declares its range)."""
    em.req.need("atomic_counters", "HWATOMIC")
    buf = reg.dimension or 0
    decl = next((d for d in em.decls.hwatomics if (d.dimension or 0) == buf and d.covers(reg.index)), None)
    if decl is None and reg.indirect is not None:
        decl = next(
            (
                d
                for d in em.decls.hwatomics
                if (d.dimension or 0) == buf and (not reg.indirect.array_id or d.array_id == reg.indirect.array_id)
            ),
            None,
        )
    if decl is None:
        raise InvalidArgumentError(f"HWATOMIC[{buf}][{reg.index}] is not declared")
    binding = em.layout.atomic_binding(em.proc, buf)
    name = f"glp_{em.prefix}_ac{buf}_{decl.first}"
    count = decl.last - decl.first + 1
    array = f"[{count}]" if count > 1 else ""
    em.declare(
        f"layout(binding = {binding}, offset = {4 * decl.first}) uniform atomic_uint {name}{array};",
        "atomic",
        buf * 4096 + decl.first,
    )
    counters = em.decls.hwatomic_buffers().get(buf, count)
    if all(a.buffer != buf for a in em.atomic_buffers):
        em.atomic_buffers.append(AtomicBufferInfo(buf, binding, counters))
    if count == 1:
        return name
    if reg.indirect is not None:
        idx = em.index_expr(i, "si", 0, reg.indirect, reg.index - decl.first)
        return f"{name}[{idx.text}]"
    return f"{name}[{reg.index - decl.first}]"


# ---------------------------------------------------------------------------


def _word_index(em, i: int, s: int) -> str:
    """GLSL text of ``address.x / 4`` (a word index) of source ``s``."""
    addr = em.src(i, s, (0,), "uint")
    if addr.words is not None:
        return str(addr.words[0] >> 2)
    return f"{addr.p()} >> 2"


def _word(base: str, k: int) -> str:
    if k == 0:
        return base
    if base.isdigit():
        return str(int(base) + k)
    return f"{base} + {k}u" if not base.endswith(">> 2") else f"({base}) + {k}u"


def _with_base(em, base: str, n_uses: int) -> str:
    """Hoist a non-trivial word index used several times into a local."""
    if n_uses > 1 and not base.isdigit():
        name = em.tmp("addr")
        em.line(f"uint {name} = {base};")
        return name
    return base


def _image_coords(em, i: int, s: int, target: str, ncoords: int) -> list[Expr]:
    args = [em.src(i, s, tuple(range(ncoords)), "int")]
    if target in ("2D_MSAA", "2D_ARRAY_MSAA"):
        args.append(em.src(i, s, (3,), "int"))  # the sample index rides in .w
    return args


def handle_load(em, i, inst) -> None:
    """LOAD from BUFFER / MEMORY / IMAGE / CONSTBUF / HWATOMIC."""
    res = inst.srcs[0]
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    swz = res.swizzle
    if res.file in ("BUFFER", "MEMORY"):
        mem = ssbo(em, res.index) if res.file == "BUFFER" else shared(em, res.index)
        words = sorted({swz[c] for c in comps})
        base = _with_base(em, _word_index(em, i, 1), len(words))
        if res.file == "MEMORY":
            parts = [var(_shared_load(em, _word(base, swz[c])), "uint", 1) for c in comps]
        else:
            parts = [var(f"{mem}[{_word(base, swz[c])}]", "uint", 1) for c in comps]
        em.write(i, 0, comps, construct(parts, "uint"))
        return
    if res.file == "IMAGE":
        name, target, base_t, ncoords = image(em, res.index, inst)
        args = ", ".join(a.text for a in _image_coords(em, i, 1, target, ncoords))
        value = call(f"imageLoad({name}, {args})", base_t, 4)
        em.write(i, 0, comps, swizzle(value, [swz[c] for c in comps]))
        return
    if res.file == "CONSTBUF":
        block = em.constant_buffer(res.index)
        ctype = em.plan.const_types.get(res.index, "float")
        byte = em.src(i, 1, (0,), "uint")
        base = _with_base(em, f"{byte.p()} >> 2" if byte.words is None else str(byte.words[0] >> 2), len(comps))
        parts = []
        for c in comps:
            w = _word(base, swz[c])
            parts.append(bitcast(var(f"{block}.c[({w}) >> 2][({w}) & 3u]", ctype, 1), "uint"))
        em.write(i, 0, comps, construct(parts, "uint"))
        return
    if res.file == "HWATOMIC":
        counter = atomic_counter(em, i, res)
        em.write(i, 0, comps, call(f"atomicCounter({counter})", "uint", 1))
        return
    raise UnsupportedError(
        f"LOAD from {res.file}: not a memory GLSL can read (bindless handles need GL_ARB_bindless_texture)"
    )


def handle_store(em, i, inst) -> None:
    """STORE resource, address, value."""
    res = inst.dsts[0]
    comps = tuple(c for c in range(4) if res.writemask & (1 << c))
    if res.file in ("BUFFER", "MEMORY"):
        mem = ssbo(em, res.index) if res.file == "BUFFER" else shared(em, res.index)
        base = _with_base(em, _word_index(em, i, 0), len(comps))
        for c in comps:
            store = f"{mem}[{_word(base, c)}] = {em.src(i, 1, (c,), 'uint').text};"
            guard = _shared_guard(em, _word(base, c)) if res.file == "MEMORY" else None
            if guard != "false":
                em.line(store if guard is None else f"if ({guard}) {store}")
        return
    if res.file == "IMAGE":
        name, target, base_t, ncoords = image(em, res.index, inst)
        args = ", ".join(a.text for a in _image_coords(em, i, 0, target, ncoords))
        value = em.src(i, 1, (0, 1, 2, 3), base_t)
        em.line(f"imageStore({name}, {args}, {value.text});")
        return
    raise UnsupportedError(f"STORE to {res.file}: not a memory GLSL can write")


def handle_resq(em, i, inst) -> None:
    """RESQ: buffer size in bytes (.x) / image size (.xyz) and samples (.w)."""
    res = inst.srcs[0]
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    if res.file == "BUFFER":
        mem = ssbo(em, res.index)
        em.write(i, 0, comps, op(f"{mem}.length() * 4", "int", 1))
        return
    if res.file == "IMAGE":
        name, target, _, _ = image(em, res.index, inst)
        em.req.need("image_size", "RESQ of an IMAGE")
        n = {"1D": 1, "BUFFER": 1, "2D": 2, "RECT": 2, "CUBE": 2, "2D_MSAA": 2, "1D_ARRAY": 2}.get(target, 3)
        size = call(f"imageSize({name})", "int", n)
        dims = [c for c in comps if c < n]
        parts = []
        rest = comps
        if dims and tuple(dims) == tuple(comps[: len(dims)]):
            parts.append(swizzle(size, dims) if n > 1 else size)
            rest = comps[len(dims) :]
        for c in rest:
            if c < n:
                parts.append(swizzle(size, (c,)) if n > 1 else size)
            elif c == 3 and target in ("2D_MSAA", "2D_ARRAY_MSAA"):
                em.req.need("texture_image_samples", "RESQ.w of a multisampled IMAGE")
                parts.append(call(f"imageSamples({name})", "int", 1))
            else:
                parts.append(literal("int", (1 if c == 3 else 0,)))
        em.write(i, 0, comps, construct(parts, "int"))
        return
    raise UnsupportedError(f"RESQ of {res.file}")


def _cas_loop(em, i, inst, read_old: str, cas: str, new_value: str, t: str, guard: str | None = None) -> Expr:
    """Emit a compare-and-swap loop (for atomics GLSL lacks); returns the old value
    (an Expr of type t; ``t(0)`` when ``guard``, a GLSL condition, is false:
    the loop runs only under it).
    ``cas`` is a format string with {old} and {new}; ``new_value`` one with {old}."""
    old, new, prev = em.tmp("old"), em.tmp("new"), em.tmp("prev")
    tt = type_name(t, 1)
    if guard is not None:
        em.line(f"{tt} {old} = {tt}(0);")
        em.line(f"if ({guard}) {{")
        em.indent += 1
        em.line(f"{old} = {read_old};")
    else:
        em.line(f"{tt} {old} = {read_old};")
    em.line("while (true) {")
    em.indent += 1
    em.line(f"{tt} {new} = {new_value.format(old=old)};")
    em.line(f"{tt} {prev} = {cas.format(old=old, new=new)};")
    em.line(f"if ({prev} == {old}) break;")
    em.line(f"{old} = {prev};")
    em.indent -= 1
    em.line("}")
    if guard is not None:
        em.indent -= 1
        em.line("}")
    return var(old, t, 1)


def _loop_update(opcode: str, value: str, t: str) -> str | None:
    """The new value a CAS loop stores for the opcodes GLSL lacks, in terms of {old}."""
    if opcode == "ATOMINC_WRAP":
        return f"({{old}} + 1u <= {value}) ? {{old}} + 1u : 0u"
    if opcode == "ATOMDEC_WRAP":
        return f"({{old}} > 0u && {{old}} < {value}) ? {{old}} - 1u : 0u"
    if opcode == "ATOMIMIN":
        return f"uint(min(int({{old}}), {value}))"
    if opcode == "ATOMIMAX":
        return f"uint(max(int({{old}}), {value}))"
    if opcode == "ATOMFADD":
        return f"floatBitsToUint(uintBitsToFloat({{old}}) + {value})"
    return None


def handle_atomic(em, i, inst) -> None:
    """ATOM* dst, resource, address, value[, value2]: dst = the old value."""
    opcode = inst.opcode
    res = inst.srcs[0]
    comps = tuple(c for c in range(4) if inst.dsts[0].writemask & (1 << c))
    _, src_types = em.types(i)
    vtype = src_types[2]
    v = em.src(i, 2, (0,), vtype)
    v2 = em.src(i, 3, (0,), vtype) if opcode == "ATOMCAS" else None
    if res.file in ("BUFFER", "MEMORY"):
        mem = ssbo(em, res.index) if res.file == "BUFFER" else shared(em, res.index)
        if res.file == "MEMORY":
            em.req.need("compute", opcode)
        word = _word_index(em, i, 1)
        lv = f"{mem}[{word}]"
        guard = _shared_guard(em, word) if res.file == "MEMORY" else None
        update = _loop_update(opcode, v.text, vtype)
        if guard == "false":
            result = var("0u", "uint", 1)
        elif update is not None:
            result = _cas_loop(em, i, inst, lv, f"atomicCompSwap({lv}, {{old}}, {{new}})", update, "uint", guard)
        else:
            if opcode == "ATOMCAS":
                text = f"atomicCompSwap({lv}, {bitcast(v, 'uint').text}, {bitcast(v2, 'uint').text})"
            else:
                text = f"{_ATOMIC_FUNC[opcode]}({lv}, {bitcast(v, 'uint').text})"
            # GLSL evaluates only the chosen operand of ?: (section 5.9).
            result = call(text if guard is None else f"({guard} ? {text} : 0u)", "uint", 1)
    elif res.file == "IMAGE":
        name, target, base_t, ncoords = image(em, res.index, inst)
        coords = ", ".join(a.text for a in _image_coords(em, i, 1, target, ncoords))
        result = _image_atomic(em, i, inst, name, coords, base_t, v, v2)
    elif res.file == "HWATOMIC":
        result = _counter_atomic(em, i, inst, atomic_counter(em, i, res), v, v2)
    else:
        raise UnsupportedError(f"{opcode} on {res.file}")
    em.write(i, 0, comps, result)


def _image_atomic(em, i, inst, name: str, coords: str, base_t: str, v: Expr, v2: Expr | None) -> Expr:
    opcode = inst.opcode
    if base_t == "float":
        if opcode == "ATOMXCHG":
            return call(f"imageAtomicExchange({name}, {coords}, {bitcast(v, 'float').text})", "float", 1)
        if opcode == "ATOMFADD":
            em.req.need("atomic_float", "ATOMFADD on a float IMAGE")
            return call(f"imageAtomicAdd({name}, {coords}, {bitcast(v, 'float').text})", "float", 1)
        raise UnsupportedError(f"{opcode} on a float IMAGE: GLSL image atomics need r32i or r32ui")
    vt = bitcast(v, base_t)
    signed_op = opcode in ("ATOMIMIN", "ATOMIMAX")
    unsigned_op = opcode in ("ATOMUMIN", "ATOMUMAX")
    if (
        (base_t == "int" and unsigned_op)
        or (base_t == "uint" and signed_op)
        or opcode in ("ATOMINC_WRAP", "ATOMDEC_WRAP", "ATOMFADD")
    ):
        read = f"imageLoad({name}, {coords}).x"
        cas = f"imageAtomicCompSwap({name}, {coords}, {{old}}, {{new}})"
        if base_t == "int":
            read, cas = f"uint({read})", f"uint(imageAtomicCompSwap({name}, {coords}, int({{old}}), int({{new}})))"
        update = _loop_update(opcode, v.text, None)
        if opcode == "ATOMUMIN":
            update = f"min({{old}}, {bitcast(v, 'uint').text})"
        elif opcode == "ATOMUMAX":
            update = f"max({{old}}, {bitcast(v, 'uint').text})"
        return _cas_loop(em, i, inst, read, cas, update, "uint")
    if opcode == "ATOMCAS":
        return call(f"imageAtomicCompSwap({name}, {coords}, {vt.text}, {bitcast(v2, base_t).text})", base_t, 1)
    func = "imageA" + _ATOMIC_FUNC[opcode][1:]
    return call(f"{func}({name}, {coords}, {vt.text})", base_t, 1)


def _counter_atomic(em, i, inst, counter: str, v: Expr, v2: Expr | None) -> Expr:
    """Atomic counter ops: +1 / -1 are core (atomicCounterIncrement returns the old value,
    atomicCounterDecrement the new one); anything else needs the counter-ops extension."""
    opcode = inst.opcode
    vu = bitcast(v, "uint")
    if opcode == "ATOMUADD" and vu.words is not None and vu.words[0] == 1:
        return call(f"atomicCounterIncrement({counter})", "uint", 1)
    if opcode == "ATOMUADD" and vu.words is not None and vu.words[0] == 0xFFFFFFFF:
        return op(f"atomicCounterDecrement({counter}) + 1u", "uint", 1)
    em.req.need("atomic_counter_ops", f"{opcode} on HWATOMIC (other than +1/-1)")
    suffix = "" if em.req.core("atomic_counter_ops") else "ARB"
    funcs = {
        "ATOMUADD": "atomicCounterAdd",
        "ATOMXCHG": "atomicCounterExchange",
        "ATOMAND": "atomicCounterAnd",
        "ATOMOR": "atomicCounterOr",
        "ATOMXOR": "atomicCounterXor",
        "ATOMUMIN": "atomicCounterMin",
        "ATOMUMAX": "atomicCounterMax",
    }
    if opcode == "ATOMCAS":
        return call(f"atomicCounterCompSwap{suffix}({counter}, {vu.text}, {bitcast(v2, 'uint').text})", "uint", 1)
    if opcode not in funcs:
        raise UnsupportedError(f"{opcode} on HWATOMIC: atomic counters have no such operation")
    return call(f"{funcs[opcode]}{suffix}({counter}, {vu.text})", "uint", 1)


# ---------------------------------------------------------------------------
# Synchronisation
# ---------------------------------------------------------------------------


def handle_barrier(em, i, inst) -> None:
    """BARRIER: workgroup (CS) / patch (TCS) execution barrier."""
    em.line("barrier();")


_MEMBAR_BITS = (
    (1, "memoryBarrierBuffer()"),
    (2, "memoryBarrierAtomicCounter()"),
    (4, "memoryBarrierImage()"),
    (8, "memoryBarrierShared()"),
    (16, "groupMemoryBarrier()"),
)


def handle_membar(em, i, inst) -> None:
    """MEMBAR <bits>: the matching memoryBarrier*() calls (tgsi.rst's bit meanings)."""
    src = inst.srcs[0]
    if src.file == "IMM":
        bits = em.decls.immediate_words(src.index)[src.swizzle[0]]
    else:
        bits = 0x1F
    calls = [text for bit, text in _MEMBAR_BITS if bits & bit]
    if em.proc != "COMP":
        calls = [c for c in calls if c not in ("memoryBarrierShared()", "groupMemoryBarrier()")]
    if not calls:
        return
    if em.req.has("memory_barrier_kinds"):
        em.req.need("memory_barrier_kinds", "MEMBAR")
        for text in calls:
            em.line(f"{text};")
    else:
        em.req.need("image_load_store", "MEMBAR")
        em.line("memoryBarrier();")


def handle_fence(em, i, inst) -> None:
    """MFENCE / LFENCE / SFENCE (removed 2017): a full memory barrier."""
    em.req.need("image_load_store", inst.opcode)
    em.line("memoryBarrier();")


MEMORY = {
    "LOAD": handle_load,
    "STORE": handle_store,
    "RESQ": handle_resq,
    "BARRIER": handle_barrier,
    "MEMBAR": handle_membar,
    "MFENCE": handle_fence,
    "LFENCE": handle_fence,
    "SFENCE": handle_fence,
}
for _op in (
    "ATOMUADD",
    "ATOMFADD",
    "ATOMXCHG",
    "ATOMCAS",
    "ATOMAND",
    "ATOMOR",
    "ATOMXOR",
    "ATOMUMIN",
    "ATOMUMAX",
    "ATOMIMIN",
    "ATOMIMAX",
    "ATOMINC_WRAP",
    "ATOMDEC_WRAP",
):
    MEMORY[_op] = handle_atomic


def array_ok(em, inst, indexing) -> bool:
    """Whether BUFFER / IMAGE[ADDR...] can be a GLSL array element: the host must have
    buffer blocks / images in core GLSL (where dynamically uniform indexing of their
    arrays is defined), and the images of the range one format and target."""
    if "BUFFER" in indexing.files() and not em.req.core("ssbo"):
        return False
    images = indexing.indices("IMAGE")
    if images:
        if not em.req.core("image_load_store"):
            return False
        kinds = {
            (em.decls.image_format(k, inst.memory_format), em.decls.image_target(k, inst.memory_target)) for k in images
        }
        return len(kinds) == 1
    return True


# BUFFER / IMAGE[ADDR...] operands: an array element or a switch over the range (indexing.py).
MEMORY = wrap_table(
    MEMORY,
    array_ok,
    opcodes=[op for op in MEMORY if op == "LOAD" or op == "STORE" or op == "RESQ" or op.startswith("ATOM")],
)

__all__ = ["MEMORY", "ssbo", "shared", "image", "atomic_counter"]
