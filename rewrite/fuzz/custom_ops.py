"""The custom ops a generated program defines: kernels as data, and their definitions as source.

A custom-op program defines its ops at module level with ``torch.library.custom_op`` (a fake
kernel with ``register_fake``, and ``register_autograd`` for the functional ones), so a printed
or minimized program is self-contained.  Every kernel writes element by element (row by row
along dimension 0) and reads its arguments as it goes, so its result depends on the order of
its reads and writes when a mutated argument shares memory with another argument: a compiler
that writes into memory it should have copied (or drops a copy) changes the result.

An op's name is ``fuzz::p<index>_op<k>_<digest>``, the digest that of its definition: ops are
registered once per process (a later definition of the same name replaces the earlier one, as
``torch.library.custom_op`` allows), workers run many programs, and Inductor's FX graph and
AOTAutograd caches (on disk, shared by runs) know an op by its name only, so two different
definitions must never share one.  Running the same program again in one process (the
reference run, every backend, the minimizer) defines the same op again, which is allowed.

Calls of custom ops, the statements of custom-op programs (:class:`OpCalls`, a mixin of the
generator).

A call is built from an op the program defined before or a new one (the kernels below),
with its mutated arguments taken from (knob ``op_arg``) a graph input, a view of a variable, an
intermediate, one slice of a split producer (``q, k = (x @ w).split(...)``), a clone of another
tensor (``y = x.clone(); op(y, x)`` or ``op(x, y)``: pytorch issue 198031), or an ``out``/scratch
buffer (``torch.empty_like``); its read arguments from the mutated tensor itself (aliasing) or any
other variable; lists of slices or tensors (``Tensor(a!)[]``); ``None`` or a tensor for an
optional mutated argument; and maybe an old value of what it writes read first (``o = x.clone()``,
``o = cache[slots].clone()``).  The statements that make its arguments come first, each its own
statement, so that the minimizer can drop them.

Every statement is run eagerly as it is made (:mod:`rewrite.fuzz.builder`); a call eager refuses,
or whose result depends on how the kernel's reads and writes interleave over shared memory (the
fairness check of :mod:`rewrite.fuzz.reference`, with every read argument cloned), is dropped.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple

import torch

from rewrite.fuzz.builder import READABLE_ROLES, Skip, atom
from rewrite.fuzz.program import OpDef, Stmt

NAMESPACE = "fuzz"
_QUALNAME = "<qualname>"

# kind of a parameter: its annotation, and whether the op writes it
ANNOTATIONS = {
    "mut": "torch.Tensor", "read": "torch.Tensor", "index": "torch.Tensor",
    "mut_list": "list[torch.Tensor]", "mut_opt": "torch.Tensor | None",
}
MUTATED_KINDS = ("mut", "mut_list", "mut_opt")


@dataclass(frozen=True)
class Kernel:
    """One op template.  ``params``: (name, kind) in order; ``shapes``: ``"same"`` (every tensor
    argument has the shape of the first one) or ``"cache"`` (``cache[slots[j]] = x[j]``)."""

    key: str
    params: Tuple[Tuple[str, str], ...]
    body: str
    returns: bool = False
    fake: str = "return None"
    writes_all: bool = False          # writes every element of every mutated tensor (fine on torch.empty)
    shapes: str = "same"
    autograd: Optional[Tuple[str, str]] = None   # (setup_context body, backward body)
    floats: bool = False              # every argument a floating tensor of one dtype

    @property
    def mutated(self) -> Tuple[str, ...]:
        return tuple(name for name, kind in self.params if kind in MUTATED_KINDS)

    def kind(self, name: str) -> str:
        return dict(self.params)[name]


KERNELS: Dict[str, Kernel] = {k.key: k for k in (
    Kernel("reverse_into", (("out", "mut"), ("src", "read")), writes_all=True, body="""
n = out.shape[0]
for i in range(n):
    out[i] = src[n - 1 - i]"""),
    Kernel("shift_into", (("out", "mut"), ("src", "read")), body="""
for i in range(out.shape[0] - 1):
    out[i + 1] = src[i]"""),
    Kernel("add_reversed", (("x", "mut"), ("y", "read")), body="""
n = x.shape[0]
for i in range(n):
    x[i] = x[i] + y[n - 1 - i]"""),
    Kernel("neighbour_into", (("out", "mut"), ("x", "read")), writes_all=True, body="""
n = out.shape[0]
for i in range(n):
    out[i] = x[i] + x[(i + 1) % n]"""),
    Kernel("cumsum", (("x", "mut"),), body="""
for i in range(1, x.shape[0]):
    x[i] = x[i] + x[i - 1]"""),
    Kernel("fused_add", (("x", "mut"), ("residual", "mut")), body="""
for i in range(x.shape[0]):
    residual[i] = residual[i] + x[i]
    x[i] = residual[i] * 2"""),
    Kernel("rotary", (("q", "mut"), ("k", "mut"), ("cos", "read")), body="""
n = q.shape[0]
for i in range(n):
    a = q[i].clone()
    q[i] = q[i] * cos[i] - k[n - 1 - i]
    k[n - 1 - i] = k[n - 1 - i] * cos[i] + a"""),
    Kernel("cache_write", (("cache", "mut"), ("x", "read"), ("slots", "index")), shapes="cache", body="""
for j, s in enumerate(slots.tolist()):
    cache[s] = x[j]"""),
    Kernel("list_add", (("xs", "mut_list"),), body="""
for j, t in enumerate(xs):
    p = xs[j - 1].flatten()
    for i in range(t.shape[0]):
        t[i] = t[i] + p[i % p.numel()]"""),
    Kernel("maybe_into", (("x", "read"), ("out", "mut_opt")), returns=True, writes_all=True,
           fake="return torch.empty_like(x)", body="""
if out is not None:
    n = out.shape[0]
    for i in range(n):
        out[i] = x[n - 1 - i]
return x * 2"""),
    Kernel("swap_old", (("x", "mut"), ("y", "read")), returns=True, fake="return torch.empty_like(x)", body="""
old = x.clone()
n = x.shape[0]
for i in range(n):
    x[i] = x[i] + y[n - 1 - i]
return old"""),
    Kernel("scratch", (("out", "mut"), ("scratch", "mut"), ("x", "read")), writes_all=True, body="""
n = out.shape[0]
for i in range(n):
    scratch[i] = x[n - 1 - i]
for i in range(n):
    out[i] = scratch[i] + x[i]"""),
    Kernel("mul_rows", (("w", "read"), ("x", "read")), returns=True, floats=True, fake="return torch.empty_like(w)",
           autograd=("ctx.save_for_backward(*inputs)", """
w, x = ctx.saved_tensors
return grad * x.flip(0), (grad * w).flip(0)"""), body="""
out = torch.empty_like(w)
n = w.shape[0]
for i in range(n):
    out[i] = w[i] * x[n - 1 - i]
return out"""),
)}


def _indented(body: str, depth: int = 1) -> list:
    return ["    " * depth + line if line else "" for line in body.strip("\n").split("\n")]


def definition(kernel: Kernel, name: str, qualname: str = _QUALNAME) -> Tuple[str, ...]:
    """The module-level source defining ``kernel`` as the op ``qualname``, bound to ``name``."""
    params = [f"{p}: {ANNOTATIONS[kind]}" for p, kind in kernel.params]
    names = ", ".join(p for p, _ in kernel.params)
    mutates = "(" + ", ".join(f'"{m}"' for m in kernel.mutated) + ("," if len(kernel.mutated) == 1 else "") + ")"
    lines = [f'@torch.library.custom_op("{qualname}", mutates_args={mutates})',
             f"def {name}({', '.join(params)}) -> {'torch.Tensor' if kernel.returns else 'None'}:",
             *_indented(kernel.body), "", "",
             f"@{name}.register_fake",
             f"def _{name}_fake({names}):",
             *_indented(kernel.fake)]
    if kernel.autograd is not None:
        setup, backward = kernel.autograd
        lines += ["", "", f"def _{name}_setup(ctx, inputs, output):", *_indented(setup), "", "",
                  f"def _{name}_backward(ctx, grad):", *_indented(backward), "", "",
                  f"{name}.register_autograd(_{name}_backward, setup_context=_{name}_setup)"]
    return tuple(lines)


def qualname(kernel: Kernel, name: str, index: int) -> str:
    """``fuzz::p<index>_<name>_<digest of the definition>``."""
    digest = hashlib.sha1("\n".join(definition(kernel, name)).encode()).hexdigest()[:8]
    return f"{NAMESPACE}::p{index}_{name}_{digest}"


VIEW_KINDS = ("slice", "narrow", "select", "diagonal", "transpose", "reshape")


@dataclass
class Arg:
    text: str
    tensor: Optional[torch.Tensor] = None
    root: Optional[str] = None        # the variable it is (a view of)
    fresh: bool = False               # an uninitialized buffer: never read before the op writes it


def overlaps(a: torch.Tensor, b: torch.Tensor) -> bool:
    """``a`` and ``b`` may share an element (same storage, intersecting extents)."""
    if a.untyped_storage().data_ptr() != b.untyped_storage().data_ptr() or not a.numel() or not b.numel():
        return False
    (sa, ea), (sb, eb) = _extent(a), _extent(b)
    return sa < eb and sb < ea


def _extent(t: torch.Tensor) -> Tuple[int, int]:
    start = t.storage_offset()
    return start, start + 1 + sum((n - 1) * abs(s) for n, s in zip(t.shape, t.stride()))


def op_number(name: str) -> int:
    return int(re.sub(r"\D", "", name) or 0)


class OpCalls:
    """Mixed into :class:`rewrite.fuzz.generator.Generator` (a :class:`~rewrite.fuzz.builder.Builder`)."""

    # ------------------------------------------------------------------ ops

    def define_op(self, key: str) -> OpDef:
        kernel = KERNELS[key]
        name = f"op{max((op_number(op.name) for op in self.ops), default=0) + 1}"
        qual = qualname(kernel, name, self.index)
        op = OpDef(name, qual, key, definition(kernel, name, qual))
        self.ops.append(op)
        self.register_op(op)
        return op

    def register_op(self, op: OpDef) -> None:
        """Define ``op`` in this process and make it callable from the statements."""
        namespace = {"torch": torch}
        exec(compile("\n".join(op.lines), f"<fuzz op {op.qualname}>", "exec"), namespace)  # noqa: S102 - our own text
        self.op_objects[op.name] = namespace[op.name]
        self.env[op.name] = namespace[op.name]

    def _choose_op(self) -> OpDef:
        if self.ops and self.pick("op_reuse") == "reuse":
            return self.rng.choice(self.ops)
        return self.define_op(self.pick("op_kernel"))

    # ------------------------------------------------------------------ the statement

    def gen_custom_op(self, nested: bool = False) -> List[Stmt]:
        if nested:
            raise Skip("no custom-op calls in nested bodies")
        op = self._choose_op()
        self._pending: List[Stmt] = []
        self._partner: Optional[Arg] = None
        self._spare: List[Arg] = []
        self._taken: List[Arg] = []           # the mutated arguments so far
        self._slots: Optional[str] = None
        try:
            call = self._call(op, KERNELS[op.kernel])
        except BaseException:
            if self._pending:
                self.reset_env()
            raise
        return self._pending + [call]

    def has_op_call(self) -> bool:
        return any(s.kind == "custom_op" for s in self.body)

    def _call(self, op: OpDef, kernel: Kernel) -> Stmt:
        if kernel.shapes == "cache":
            args, primary = self._cache_args(kernel)
        elif kernel.kind(kernel.params[0][0]) == "mut_list":
            args, primary = self._list_args()
        else:
            args, primary = self._same_shape_args(kernel)
        if primary is not None:
            self._old_value(primary, args)
        text = f"{op.name}({', '.join(a.text for a in args)})"
        functional = f"{op.name}({', '.join(self._functional(a, kind) for a, (_, kind) in zip(args, kernel.params))})"
        defines: Tuple[Tuple[str, str], ...] = ()
        if kernel.returns:
            name = self.new_name("r")
            text, functional, defines = f"{name} = {text}", f"{name} = {functional}", ((name, "value"),)
        uses = _identifiers(text) & set(self.roles)
        return Stmt(kind="custom_op", lines=(text,), functional=(functional,) if functional != text else None,
                    defines=defines, uses=frozenset(uses), knobs=tuple(self._used))

    @staticmethod
    def _functional(arg: Arg, kind: str) -> str:
        """A read argument cloned first: the program's meaning if the kernel saw no aliasing."""
        return f"{atom(arg.text)}.clone()" if kind == "read" and arg.tensor is not None else arg.text

    # ------------------------------------------------------------------ arguments

    def _same_shape_args(self, kernel: Kernel) -> Tuple[List[Arg], Optional[Arg]]:
        kinds = [kind for _, kind in kernel.params]
        args: List[Arg] = []
        primary = None
        if "mut" in kinds:
            first = kinds.index("mut")
            primary = self._mutated(kernel)
            like = primary
        else:
            first = 0
            like = self._read_anchor(kernel)
        shape = tuple(like.tensor.shape)
        for k, kind in enumerate(kinds):
            if k == first:
                args.append(like)
            elif kind == "mut":
                args.append(self._mutated_like(like, kernel))
            elif kind == "mut_opt":
                args.append(Arg("None") if self.pick("op_optional") == "none" else self._mutated_like(like, kernel))
            else:
                args.append(self._read_like(shape, primary, kernel, dtype=args[0].tensor.dtype if kernel.floats else None))
        return args, primary

    def _op_mutable_names(self) -> List[str]:
        """Variables a call may write: not through a view of an ``as_strided`` view (compile
        refuses a mutation through such a chain, torch's limit and no test of the rules)."""
        strided: Set[str] = set()
        for s in self.body:
            if any("as_strided" in line for line in s.lines) or s.uses & strided:
                strided |= set(s.names)
        return [n for n in self.mutable_names() if n not in strided]

    def _writable(self, t: torch.Tensor) -> bool:
        return t.dim() >= 1 and t.dtype != torch.bool and not t.requires_grad and \
            not any(overlaps(t, m.tensor) for m in self._taken)

    def _take(self, arg: Arg) -> Arg:
        self._taken.append(arg)
        return arg

    def _pre(self, text: str, defines: Sequence[Tuple[str, str]], uses: Set[str]) -> None:
        """A statement an argument needs first, run at once (the call is built on its values)."""
        stmt = Stmt(kind="op_arg", lines=(text,), defines=tuple(defines), uses=frozenset(uses))
        self._exec(stmt)
        self._pending.append(stmt)

    def _mutated(self, kernel: Kernel, min_rows: int = 1) -> Arg:
        """The first mutated argument, by the ``op_arg`` knob."""
        form = self.pick("op_arg")
        rng = self.rng
        mutable = [n for n in self._op_mutable_names() if self._writable(self.tensor(n))
                   and self.tensor(n).shape[0] >= min_rows]
        if form in ("input", "value"):
            roles = ("input",) if form == "input" else ("value", "view")
            names = [n for n in mutable if self.roles[n] in roles]
            if not names:
                raise Skip(f"no {form} to write")
            name = rng.choice(names)
            return self._take(Arg(name, self.tensor(name), name))
        if form == "view":
            if not mutable:
                raise Skip("nothing to view")
            root = rng.choice(mutable)
            expr, t, _ = self.view_chain(root, max_steps=2, kinds=VIEW_KINDS)
            if expr == root or not self._writable(t) or t.shape[0] < min_rows:
                raise Skip("no view applied")
            return self._take(Arg(expr, t, root))
        sources = [n for n in self.names(READABLE_ROLES) if self.tensor(n).dim() >= 1
                   and self.tensor(n).dtype != torch.bool and self.tensor(n).shape[0] >= min_rows]
        if not sources:
            raise Skip("no source tensor")
        if form == "clone":
            src = rng.choice([n for n in sources if not self.tensor(n).requires_grad] or [None])
            if src is None:
                raise Skip("every source requires grad")
            name = self.new_name("c")
            self._pre(f"{name} = {src}.clone()", [(name, "value")], {src})
            if src in mutable and self.chance(0.5):    # write the source, reading its clone
                self._partner = Arg(name, self.tensor(name), name)
                return self._take(Arg(src, self.tensor(src), src))
            self._partner = Arg(src, self.tensor(src), src)
            return self._take(Arg(name, self.tensor(name), name))
        if form == "buffer":
            src = rng.choice(sources)
            self._partner = Arg(src, self.tensor(src), src)
            return self._take(self._buffer(Arg(src, self.tensor(src), src), kernel))
        if form == "split":
            return self._take(self._split(sources))
        raise Skip(form)

    def _split(self, sources: List[str]) -> Arg:
        """``t = <producer>; a, b(, c) = t.split(...)``: the first part, the others spare."""
        floats = [n for n in sources if self.tensor(n).is_floating_point()]
        if not floats:
            raise Skip("no float to produce from")
        x = self.rng.choice(floats)
        t = self.tensor(x)
        xe = f"{x}.detach()" if t.requires_grad else x
        parts = self.rng.choice((2, 3))
        if t.dim() == 2 and self.chance(0.7):     # a matmul-like producer, split along its columns
            producer, size, dim = f"{xe} @ {xe}.t().repeat(1, {parts})", t.shape[0], 1
        else:
            copies = ", ".join([xe, f"{xe} * 2", f"{xe} + 1"][:parts])
            producer, size, dim = f"torch.cat(({copies}), 0)", t.shape[0], 0
        name = self.new_name("t")
        self._pre(f"{name} = {producer}", [(name, "value")], {x})
        k = next(self.ids)
        names = [f"{p}{k}" for p in ("a", "b", "c")[:parts]]
        self._pre(f"{', '.join(names)} = {name}.split({size}, {dim})", [(n, "view") for n in names], {name})
        self._spare = [Arg(n, self.tensor(n), n) for n in names[1:]]
        return Arg(names[0], self.tensor(names[0]), names[0])

    def _buffer(self, like: Arg, kernel: Kernel) -> Arg:
        """``b = torch.empty_like(like)`` (the op writes all of it before reading it; else zeros)."""
        name = self.new_name("b")
        make = "empty_like" if kernel.writes_all else "zeros_like"
        detach = ".detach()" if like.tensor.requires_grad and make == "zeros_like" else ""
        self._pre(f"{name} = torch.{make}({like.text}){detach}", [(name, "value")], {like.root})
        return Arg(name, self.tensor(name), name, fresh=make == "empty_like")

    def _mutated_like(self, like: Arg, kernel: Kernel) -> Arg:
        """A further mutated argument of ``like``'s shape, not overlapping the others."""
        shape = tuple(like.tensor.shape)
        spare = [a for a in self._spare if self._writable(a.tensor) and tuple(a.tensor.shape) == shape]
        if spare:
            self._spare.remove(spare[0])
            return self._take(spare[0])
        form = self.pick("op_arg", ("input", "view", "value", "buffer"))
        if form != "buffer":
            roles = {"input": ("input",), "view": ("input", "view", "value"), "value": ("value", "view")}[form]
            names = [n for n in self._op_mutable_names() if self.roles[n] in roles]
            self.rng.shuffle(names)
            for n in names:
                expr = self.shaped(n, shape, broadcast=False)
                if expr is None:
                    continue
                t = self.eval(expr)
                if self._writable(t) and (form != "view" or expr != n):
                    return self._take(Arg(expr, t, n))
        return self._take(self._buffer(like, kernel))

    def _read_anchor(self, kernel: Kernel) -> Arg:
        names = [n for n in self.names(READABLE_ROLES) if self.tensor(n).dim() >= 1 and self.tensor(n).dtype != torch.bool
                 and (not kernel.floats or self.tensor(n).is_floating_point())]
        if kernel.autograd is not None and self.mode == "training":
            names = [n for n in names if self.tensor(n).requires_grad] or names
        if not names:
            raise Skip("nothing to read")
        name = self.rng.choice(names)
        return Arg(self._detached(name, kernel), self.tensor(name), name)

    def _detached(self, name: str, kernel: Kernel) -> str:
        """In training, a tensor that requires grad is read detached by an op without autograd
        (its writes carry no gradient either way; this keeps eager's graph out of the question)."""
        if kernel.autograd is None and self.tensor(name).requires_grad:
            return f"{name}.detach()"
        return name

    def _read_like(self, shape: Tuple[int, ...], primary: Optional[Arg], kernel: Kernel,
                   dtype: Optional[torch.dtype] = None) -> Arg:
        if self._partner is not None and tuple(self._partner.tensor.shape) == shape and \
                (dtype is None or self._partner.tensor.dtype == dtype):
            arg, self._partner = self._partner, None
            return Arg(self._detached(arg.root, kernel), arg.tensor, arg.root)
        spare = [a for a in self._spare if tuple(a.tensor.shape) == shape and (dtype is None or a.tensor.dtype == dtype)]
        if spare and self.chance(0.6):
            self._spare.remove(spare[0])
            return spare[0]
        names = [n for n in self.names(READABLE_ROLES) if self.tensor(n).dtype != torch.bool
                 and (dtype is None or self.tensor(n).dtype == dtype)]
        if self.pick("op_src") == "same_root" and primary is not None and primary.root in names:
            names = [primary.root]
        fresh = {a.root for a in self._taken if a.fresh}   # uninitialized until the op writes them
        names = [n for n in names if n not in fresh]
        self.rng.shuffle(names)
        for n in names:
            expr = self.shaped(n, shape, broadcast=False)
            if expr is not None:
                base = self._detached(n, kernel)
                if base != n:
                    expr = base + expr[len(n):]
                return Arg(expr, self.eval(expr), n)
        raise Skip("no read argument of that shape")

    def _cache_args(self, kernel: Kernel) -> Tuple[List[Arg], Arg]:
        cache = self._mutated(kernel, min_rows=2)
        rows = tuple(cache.tensor.shape[1:])
        size = cache.tensor.shape[0]
        k = self.rng.randint(1, min(3, size))
        slots = sorted(self.rng.sample(range(size), k)) if self.chance(0.5) else self.rng.sample(range(size), k)
        x = self._read_like((k,) + rows, cache, kernel)
        self._slots = f"torch.tensor({slots})"
        return [cache, x, Arg(self._slots)], cache

    def _list_args(self) -> Tuple[List[Arg], Arg]:
        how = self.pick("op_list")
        mutable = [n for n in self._op_mutable_names() if self._writable(self.tensor(n))]
        if how == "tensors":
            self.rng.shuffle(mutable)
            chosen: List[str] = []
            for n in mutable:
                if not any(overlaps(self.tensor(n), self.tensor(m)) for m in chosen):
                    chosen.append(n)
                if len(chosen) == 2:
                    break
            if len(chosen) < 2:
                raise Skip("no two disjoint tensors")
            for n in chosen:
                self._take(Arg(n, self.tensor(n), n))
            return [Arg(f"[{', '.join(chosen)}]")], Arg(chosen[0], self.tensor(chosen[0]), chosen[0])
        rows = [n for n in mutable if self.tensor(n).shape[0] >= 2]
        if not rows:
            raise Skip("nothing to slice into a list")
        root = self.rng.choice(rows)
        n = self.tensor(root).shape[0]
        k = self.rng.randint(1, n - 1)
        if how == "split":
            text = f"list({root}.split({k}))"
        elif n >= 3 and self.chance(0.3):
            k2 = self.rng.randint(k + 1, n) if k + 1 < n else n
            text = f"[{root}[:{k}], {root}[{k}:{k2}]" + (f", {root}[{k2}:]]" if k2 < n else "]")
        else:
            text = f"[{root}[:{k}], {root}[{k}:]]"
        return [Arg(text)], self._take(Arg(root, self.tensor(root), root))

    def _old_value(self, primary: Arg, args: List[Arg]) -> None:
        """Maybe read what the call writes first: ``o = x.clone()``, or the rows it writes."""
        how = self.pick("op_old")
        if how == "none" or primary.fresh or primary.root is None:
            return
        name = self.new_name("o")
        if how == "clone":
            self._pre(f"{name} = {primary.root}.clone()", [(name, "old")], {primary.root})
        elif self._slots is not None:
            self._pre(f"{name} = {atom(primary.text)}[{self._slots}].clone()", [(name, "old")], {primary.root})
        else:
            self._pre(f"{name} = {atom(primary.text)}[0].clone()", [(name, "old")], {primary.root})


def _identifiers(text: str) -> Set[str]:
    return set(re.findall(r"[A-Za-z_]\w*", text))
