"""Seeded generation of mutation programs.

A program is built statement by statement.  Every statement is executed eagerly on the inputs
as soon as it is made (``exec`` in the namespace of ``fn``'s variables), so the generator always
knows the real shape, dtype and aliasing of every variable, and a statement eager PyTorch refuses
(shape mismatch, partial overlap, in-place on a leaf that requires grad...) is dropped on the
spot.  The finished program is then validated as a whole by :mod:`rewrite.fuzz.reference`.

Values are small integers stored as floats (or integer tensors) and only added, multiplied by
small constants and moved around, so results are exact and comparisons can be exact unless a
statement says ``inexact`` (transcendental math, dtype views of floats).
"""
from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import torch

from rewrite.fuzz.features import Knobs
from rewrite.fuzz.program import Param, Program, Stmt
from rewrite.fuzz.reference import InvalidProgram, reference
from rewrite.testing.execute import Run, fresh_inputs, mode_context

MAX_STATEMENTS = 7
TRIES_PER_STATEMENT = 8

FLOAT_SCALARS = ("1.0", "2.0", "-1.0", "0.5", "3.0", "-2.0")
INT_SCALARS = ("1", "2", "-1", "3", "-2")
MUTABLE_ROLES = ("input", "view", "value")
READABLE_ROLES = ("input", "grad", "view", "value", "old")
DTYPE_VIEWS = {torch.float32: "torch.int32", torch.float64: "torch.int64"}


class _PlainTorch:
    """``torch`` for the generator's own eager runs, with ``cond`` and ``while_loop`` run as the
    Python they are documented to be equivalent to.  Eager ``torch.cond``/``torch.while_loop``
    compile their functions with Dynamo on every new code object, which would make generating a
    control-flow program cost seconds; the reference run (``rewrite.fuzz.reference``) uses the
    real ones, so a program they refuse is still rejected."""

    def __getattr__(self, name):
        return getattr(torch, name)

    @staticmethod
    def cond(pred, true_fn, false_fn, operands=()):
        return true_fn(*operands) if bool(pred) else false_fn(*operands)

    @staticmethod
    def while_loop(cond_fn, body_fn, carried_inputs):
        values = tuple(carried_inputs)
        while bool(cond_fn(*values)):
            values = tuple(body_fn(*values))
        return values


PLAIN_TORCH = _PlainTorch()


class Skip(Exception):
    """This choice does not apply here; try another."""


@dataclass
class Value:
    text: str
    functional: str          # the same value, cloned when it is a tensor that may alias the target
    uses: frozenset
    inexact: bool = False


def _shape_text(shape: Sequence[int]) -> str:
    return f"({shape[0]},)" if len(shape) == 1 else "(" + ", ".join(map(str, shape)) + ")"


def _dtype_text(dtype: torch.dtype) -> str:
    return str(dtype)   # "torch.float32"


class Builder:
    """Builds one program from one random stream."""

    def __init__(self, rng: random.Random, knobs: Knobs, seed: int, index: int, dynamic: bool):
        self.rng = rng
        self.knobs = knobs
        self.seed, self.index, self.dynamic = seed, index, dynamic
        self.mode = knobs.pick(rng, "mode") or "inference"
        self.ids = itertools.count(1)
        self.params: List[Param] = []
        self.setup: List[str] = []
        self.input_knobs: List[str] = [f"mode:{self.mode}"]
        self.body: List[Stmt] = []
        self.roles: Dict[str, str] = {}
        self.env: Dict[str, object] = {}
        self.cf_targets: List[str] = []       # names mutated inside control flow so far
        self._used: List[str] = []            # knobs chosen for the statement being built

    # ------------------------------------------------------------------ choices

    def pick(self, point: str, options: Optional[Sequence[str]] = None) -> str:
        choice = self.knobs.pick(self.rng, point, options)
        if choice is None:
            raise Skip(point)
        self._used.append(f"{point}:{choice}")
        return choice

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # ------------------------------------------------------------------ inputs

    def make_inputs(self) -> None:
        n_data = self.rng.choice((1, 2, 2, 3))
        for _ in range(n_data):
            self._used = []
            self._add_layout(self.pick("input"))
            self.input_knobs += self._used
        if self.mode == "training":
            for _ in range(self.rng.choice((1, 1, 2))):
                shape = self._shape()
                self._param("w", f"torch.randint(-3, 4, {_shape_text(shape)}).float().requires_grad_()", "grad")
        self._used = []
        if self.pick("index_input") == "yes":
            n = self.rng.randint(2, 3)
            values = self.rng.sample(range(3), n)
            self._param("idx", f"torch.tensor({values})", "index")
        self.input_knobs += self._used
        self.reset_env()

    def _shape(self) -> Tuple[int, ...]:
        rank = self.pick("rank")
        if rank == "1":
            return (self.rng.randint(4, 8),)
        if rank == "2":
            return (self.rng.randint(3, 5), self.rng.randint(3, 5))
        return (2, self.rng.randint(2, 3), self.rng.randint(3, 4))

    def _values(self, shape: Sequence[int], dtype: str = "float") -> str:
        base = f"torch.randint(-4, 5, {_shape_text(shape)})"
        return {"float": base + ".float()", "int64": base, "int32": base + ".int()"}[dtype]

    def _param(self, prefix: str, expr: str, role: str) -> str:
        name = f"{prefix}{len(self.params)}"
        self.params.append(Param(name, expr, role))
        return name

    def _base(self, shape: Sequence[int]) -> str:
        name = f"base{len(self.setup)}"
        self.setup.append(f"{name} = {self._values(shape)}")
        return name

    def _add_layout(self, layout: str) -> None:
        rng = self.rng
        shape = self._shape()
        if layout == "plain":
            self._param("x", self._values(shape), "data")
        elif layout == "int":
            self._param("x", self._values(shape, rng.choice(("int64", "int64", "int32"))), "data")
        elif layout == "strided":
            if len(shape) >= 2:
                self._param("x", self._values(shape[::-1]) + (".t()" if len(shape) == 2 else ".transpose(0, 2)"), "data")
            else:
                self._param("x", self._values((shape[0] * 2,)) + "[::2]", "data")
        elif layout == "view_of_base":
            if len(shape) == 1:
                b = self._base((shape[0] + 3,))
                self._param("x", rng.choice((f"{b}[1:{shape[0] + 1}]", f"{b}[2:]")), "data")
            else:
                kind = rng.choice(("rows", "cols", "t"))
                if kind == "rows":
                    b = self._base((shape[0] + 2,) + tuple(shape[1:]))
                    self._param("x", f"{b}[1:{shape[0] + 1}]", "data")
                elif kind == "cols" and len(shape) == 2:
                    b = self._base((shape[0], shape[1] * 2))
                    self._param("x", f"{b}[:, ::2]", "data")
                else:
                    b = self._base(tuple(shape[::-1]))
                    self._param("x", f"{b}.t()" if len(shape) == 2 else f"{b}.permute(2, 1, 0)", "data")
        elif layout == "base_and_view":
            b = self._base(shape)
            self._param("x", b, "data")
            view = rng.choice((f"{b}[1:3]", f"{b}[0]", f"{b}[-1]") + ((f"{b}.t()", f"{b}[:, 1]") if len(shape) == 2 else ()))
            self._param("x", view, "data")
        elif layout == "overlapping_views":
            k = rng.randint(1, max(1, shape[0] - 1))
            b = self._base((shape[0] + k,) + tuple(shape[1:]))
            self._param("x", f"{b}[0:{shape[0]}]", "data")
            self._param("x", f"{b}[{k}:{shape[0] + k}]", "data")
        elif layout == "disjoint_views":
            if len(shape) == 2 and self.chance(0.5):
                b = self._base((shape[0], shape[1] * 2))
                self._param("x", f"{b}[:, 0:{shape[1]}]", "data")
                self._param("x", f"{b}[:, {shape[1]}:]", "data")
            else:
                b = self._base((shape[0] * 2,) + tuple(shape[1:]))
                self._param("x", f"{b}[0:{shape[0]}]", "data")
                self._param("x", f"{b}[{shape[0]}:]", "data")
        elif layout == "same_twice":
            b = self._base(shape)
            self._param("x", b, "data")
            self._param("x", b, "data")
        else:
            raise ValueError(layout)

    # ------------------------------------------------------------------ the eager namespace

    def inputs_program(self) -> Program:
        return Program(self.seed, self.index, self.mode, self.dynamic, tuple(self.setup), tuple(self.params),
                       tuple(self.body), (), tuple(self.input_knobs))

    def reset_env(self) -> None:
        """Fresh inputs, then every accepted statement again (after a statement that raised
        half-way, the tensors may hold part of its writes)."""
        namespace: Dict[str, object] = {"torch": torch}
        exec(compile("\n".join(self.inputs_program().inputs_lines()), "<fuzz inputs>", "exec"), namespace)
        values = fresh_inputs(namespace["inputs"])
        self.env = {"torch": PLAIN_TORCH}
        self.roles = {}
        for p, v in zip(self.params, values):
            self.env[p.name] = v
            self.roles[p.name] = {"data": "input", "grad": "grad", "index": "index"}[p.role]
        for s in self.body:
            self._exec(s)

    def _exec(self, s: Stmt) -> None:
        with mode_context(self.mode):
            exec(compile("\n".join(s.render()), "<fuzz statement>", "exec"), self.env)
        for name, role in s.defines:
            self.roles[name] = role

    def try_add(self, stmts: Sequence[Stmt]) -> bool:
        try:
            for s in stmts:
                self._exec(s)
        except Exception:  # noqa: BLE001 - eager refused the statement: drop it
            self.reset_env()
            return False
        for s in stmts:
            if not self._finite(s):
                self.reset_env()
                return False
        self.body += stmts
        return True

    def _finite(self, s: Stmt) -> bool:
        for name in s.names:
            t = self.env.get(name)
            if isinstance(t, torch.Tensor) and t.is_floating_point() and not bool(t.detach().isfinite().all()):
                return False
        return True

    # ------------------------------------------------------------------ variables

    def tensor(self, name: str) -> torch.Tensor:
        return self.env[name]

    def names(self, roles: Sequence[str]) -> List[str]:
        return [n for n, r in self.roles.items() if r in roles and isinstance(self.env.get(n), torch.Tensor)]

    def _is_grad_leafish(self, t: torch.Tensor) -> bool:
        base = t._base if t._base is not None else t
        return base.requires_grad and base.is_leaf

    def mutable_names(self) -> List[str]:
        return [n for n in self.names(MUTABLE_ROLES) if not self._is_grad_leafish(self.tensor(n))
                and self.tensor(n).dtype != torch.bool]

    def input_rooted(self, t: torch.Tensor) -> bool:
        """``t`` shares memory with a data input (so a value written into it must not carry grad
        in training mode: the input would keep a graph across calls)."""
        ptr = t.untyped_storage().data_ptr()
        return any(self.roles.get(p.name) == "input" and self.tensor(p.name).untyped_storage().data_ptr() == ptr
                   for p in self.params)

    def recent(self) -> List[str]:
        """Names the statements defined, latest first."""
        return [name for s in reversed(self.body) for name in s.names]

    def new_name(self, prefix: str) -> str:
        return f"{prefix}{next(self.ids)}"

    def choose_target(self) -> str:
        names = self.mutable_names()
        if not names:
            raise Skip("no mutable variable")
        where = self.pick("target")
        pool = {
            "input": [n for n in names if self.roles[n] == "input"],
            "view_var": [n for n in names if self.roles[n] == "view"],
            "value": [n for n in names if self.roles[n] == "value"],
            "recent": [n for n in names if n in self.recent()][:1],
        }[where] or names
        return self.rng.choice(pool)

    # ------------------------------------------------------------------ views

    def eval(self, expr: str) -> torch.Tensor:
        with mode_context(self.mode):
            return eval(expr, self.env)   # noqa: S307 - our own generated text

    def view_chain(self, expr: str, max_steps: int = 2, kinds: Optional[Sequence[str]] = None) -> Tuple[str, torch.Tensor, bool]:
        """``expr`` through 0..max_steps random views; (text, tensor, went through a dtype view)."""
        t = self.eval(expr)
        dtype_view = False
        for _ in range(max_steps):
            kind = self.pick("view", kinds)
            if kind == "none":
                break
            step = self.view_step(kind, t, expr)
            if step is None:
                continue
            candidate = _join(expr, step)
            try:
                t = self.eval(candidate)
            except Exception:  # noqa: BLE001 - this view does not apply
                continue
            expr = candidate
            dtype_view |= kind == "dtype"
            if kind == "as_strided":
                break
        return expr, t, dtype_view

    def view_step(self, kind: str, t: torch.Tensor, expr: str = "") -> Optional[str]:
        """The text to append to an expression ``expr`` for one view of ``t`` (None: not
        applicable)."""
        rng = self.rng
        dims = [d for d in range(t.dim()) if t.shape[d] >= 2]
        if kind == "slice" and dims:
            d = rng.choice(dims)
            size = t.shape[d]
            a = rng.randint(0, size - 2)
            b = rng.randint(a + 1, size)
            step = ":2" if size >= 3 and self.chance(0.2) else ""
            stop = "" if b == size and self.chance(0.5) else (str(b - size) if b < size and self.chance(0.3) else str(b))
            return _subscript(d, f"{a or ''}:{stop}{step}")
        if kind == "narrow" and dims:
            d = rng.choice(dims)
            a = rng.randint(0, t.shape[d] - 1)
            return f".narrow({d}, {a}, {rng.randint(1, t.shape[d] - a)})"
        if kind == "select" and t.dim() >= 1 and t.shape[0] >= 1:
            d = rng.randrange(t.dim())
            i = rng.randrange(t.shape[d])
            if self.chance(0.2):
                i -= t.shape[d]
            return _subscript(d, str(i)) if d < 2 else f".select({d}, {i})"
        if kind == "diagonal" and t.dim() >= 2:
            offset = rng.choice((0, 0, 1, -1))
            return ".diagonal()" if offset == 0 else f".diagonal({offset})"
        if kind == "transpose" and t.dim() >= 2:
            if t.dim() == 2:
                return rng.choice((".t()", ".transpose(0, 1)", ".mT"))
            return rng.choice((".transpose(0, 1)", ".permute(2, 0, 1)", ".transpose(1, 2)"))
        if kind == "reshape" and t.is_contiguous() and t.numel() >= 4:
            if t.dim() >= 2 and self.chance(0.5):
                return ".view(-1)"
            n = t.numel()
            factors = [f for f in range(2, n) if n % f == 0]
            if factors:
                f = rng.choice(factors)
                return f".view({f}, {n // f})"
            return ".view(-1)" if t.dim() >= 2 else None
        if kind == "unsqueeze":
            return rng.choice((".unsqueeze(0)", ".unsqueeze(-1)"))
        if kind == "dtype" and t.dtype in DTYPE_VIEWS:
            return f".view({DTYPE_VIEWS[t.dtype]})"
        # as_strided only straight on a tensor that is no view: compile refuses a mutation through
        # a view chain with an as_strided step after another view ("non-compositional").
        if kind == "as_strided" and t._base is None and t.is_contiguous() and t.numel() >= 4:
            n = t.numel()
            a = rng.randint(2, max(2, n // 2))
            b = max(1, min(n // a, rng.randint(1, 3)))
            if a * b > n:
                return None
            return rng.choice((f".as_strided(({a}, {b}), (1, {a}))", f".as_strided(({a}, {b}), ({b}, 1))"))
        # ... or straight on an input that is a view of a larger base (at a storage offset, or
        # strided): its arguments are addresses in the base's storage, which AOTAutograd's
        # functional graph reads one way and writes back another
        if kind == "as_strided" and t._base is not None and self.roles.get(expr) == "input" and t.numel() >= 2:
            return self._as_strided_of_input_view(t)
        return None

    def _as_strided_of_input_view(self, t: torch.Tensor) -> Optional[str]:
        rng = self.rng
        room = t.untyped_storage().nbytes() // t.element_size()
        n = rng.randint(2, max(2, min(t.numel(), 6)))
        stride = rng.choice((1, 2))
        start = t.storage_offset()
        offset = rng.choice(tuple(dict.fromkeys((start, max(0, start - 1), 0, start + 1))))
        if offset + (n - 1) * stride >= room:
            return None
        return f".as_strided(({n},), ({stride},), {offset})"

    # ------------------------------------------------------------------ values

    def scalar(self, dtype: torch.dtype) -> str:
        if dtype.is_floating_point:
            return self.rng.choice(FLOAT_SCALARS)
        return self.rng.choice(INT_SCALARS)

    def value_for(self, target: torch.Tensor, shape: Optional[Sequence[int]] = None, broadcast: bool = True,
                  scalar_ok: bool = True, self_name: Optional[str] = None, tensor_scalar: bool = False) -> Value:
        """A value to write into ``target`` (of ``shape``, default the target's)."""
        shape = tuple(target.shape if shape is None else shape)
        detach = self.mode == "training" and self.input_rooted(target)
        options = ["var", "self"] + (["scalar"] if scalar_ok else [])
        for _ in range(4):
            source = self.pick("value", options)
            if source == "scalar":
                text = self.scalar(target.dtype)
                if tensor_scalar:
                    text = f"torch.tensor({text}, dtype={_dtype_text(target.dtype)})"
                return Value(text, text, frozenset())
            names = [n for n in self.names(READABLE_ROLES) if self.tensor(n).dtype != torch.bool]
            if source == "self":
                names = [self_name] if self_name in names else []
            if not names:
                continue
            name = self.rng.choice(names)
            expr = self.shaped(name, shape, broadcast)
            if expr is None:
                continue
            return self._finish_value(expr, target.dtype, {name}, detach)
        if not scalar_ok:
            raise Skip("no value of that shape")
        text = self.scalar(target.dtype)
        if tensor_scalar:
            text = f"torch.tensor({text}, dtype={_dtype_text(target.dtype)})"
        return Value(text, text, frozenset())

    def _finish_value(self, expr: str, dtype: torch.dtype, uses: set, detach: bool) -> Value:
        t = self.eval(expr)
        inexact = False
        op = self.pick("value_op")
        if op == "scale":
            expr = f"{_atom(expr)} * {self.rng.choice(('2', '-1', '3'))}"
        elif op == "offset":
            expr = f"{_atom(expr)} + {self.rng.choice(('1', '-2'))}"
        elif op == "flip" and t.dim() >= 1:
            expr = f"{_atom(expr)}.flip({self.rng.randrange(t.dim())})"
        elif op == "neg":
            expr = f"-{_atom(expr)}"
        elif op == "clone":
            expr = f"{_atom(expr)}.clone()"
        elif op == "math" and t.is_floating_point():
            expr = f"{_atom(expr)}.{self.rng.choice(('sin', 'tanh', 'sigmoid'))}()"
            inexact = True
        t = self.eval(expr)
        if t.dtype != dtype:
            expr = f"{_atom(expr)}.to({_dtype_text(dtype)})"
            inexact |= t.is_floating_point() and not dtype.is_floating_point
        if detach and t.requires_grad:
            expr = f"{_atom(expr)}.detach()"
        return Value(expr, f"{_atom(expr)}.clone()", frozenset(uses), inexact)

    def shaped(self, name: str, shape: Sequence[int], broadcast: bool) -> Optional[str]:
        """An expression of ``name`` (selected/sliced, maybe transposed) with exactly ``shape``
        (or, with ``broadcast``, one that broadcasts to it)."""
        t = self.tensor(name)
        expr = name
        if t.dim() == 2 and len(shape) == 2 and self.chance(0.3):
            expr, t = f"{name}.t()", t.t()
        rank = len(shape)
        keep = min(t.dim(), rank) if broadcast else rank
        if t.dim() < keep:
            return None
        index: List[str] = []
        for d in range(t.dim() - keep):
            index.append(str(self.rng.randrange(t.shape[d])))
        tail = tuple(shape[rank - keep:])
        for d, want in enumerate(tail):
            size = t.shape[t.dim() - keep + d]
            if size < want:
                return None
            a = self.rng.randint(0, size - want)
            index.append(":" if want == size else f"{a or ''}:{a + want}")
        while index and index[-1] == ":":
            index.pop()
        if index:
            expr = f"{expr}[{', '.join(index)}]"
        if not broadcast and tuple(self.eval(expr).shape) != tuple(shape):
            return None
        return expr

    # ------------------------------------------------------------------ statements

    def statement(self, kind: str) -> List[Stmt]:
        return getattr(self, f"gen_{kind}")(False)

    def _stmt(self, kind: str, text: str, functional: Optional[str] = None, defines=(), uses=(), inexact=False) -> Stmt:
        return Stmt(kind=kind, lines=tuple(text.split("\n")),
                    functional=tuple(functional.split("\n")) if functional and functional != text else None,
                    defines=tuple(defines), uses=frozenset(uses), knobs=tuple(self._used), inexact=inexact)

    def gen_view(self, nested: bool) -> List[Stmt]:
        if nested:
            raise Skip("no definitions in nested bodies")
        names = self.mutable_names() or self.names(READABLE_ROLES)
        if not names:
            raise Skip("no variable")
        src = self.rng.choice(names)
        expr, t, dtype_view = self.view_chain(src, max_steps=2,
                                              kinds=[k for k in ("slice", "narrow", "select", "diagonal", "transpose",
                                                                 "reshape", "unsqueeze", "dtype", "as_strided")])
        if expr == src:
            raise Skip("no view applied")
        name = self.new_name("v")
        return [self._stmt("view", f"{name} = {expr}", defines=[(name, "view")], uses={src}, inexact=dtype_view)]

    def _target(self, root: Optional[str] = None) -> Tuple[str, str, torch.Tensor, bool]:
        """(root name, target text, target tensor, through a dtype view)"""
        root = root or self.choose_target()
        expr, t, dtype_view = self.view_chain(root)
        return root, expr, t, dtype_view

    def gen_mutate(self, nested: bool = False) -> List[Stmt]:
        root, T, t, dtype_view = self._target()
        op = self.pick("mutate")
        isfloat = t.is_floating_point()
        if op in ("add_", "sub_", "copy_"):
            v = self.value_for(t, self_name=root, scalar_ok=op != "copy_")
            text, func = f"{_atom(T)}.{op}({v.text})", f"{_atom(T)}.{op}({v.functional})"
            return [self._stmt("mutate", text, func, uses={root} | v.uses, inexact=dtype_view or v.inexact)]
        if op == "mul_":
            c = self.rng.choice(("2", "-1", "0.5") if isfloat else ("2", "-1"))
            return [self._stmt("mutate", f"{_atom(T)}.mul_({c})", uses={root}, inexact=dtype_view)]
        if op == "mul_tensor":
            v = self.value_for(t, self_name=root, scalar_ok=False)
            text = f"{_atom(T)}.mul_({_atom(v.text)}.clamp(-2, 2))"
            func = f"{_atom(T)}.mul_({_atom(v.text)}.clamp(-2, 2).clone())"
            return [self._stmt("mutate", text, func, uses={root} | v.uses, inexact=dtype_view or v.inexact)]
        if op == "fill_":
            return [self._stmt("mutate", f"{_atom(T)}.fill_({self.scalar(t.dtype)})", uses={root}, inexact=dtype_view)]
        if op in ("zero_", "neg_"):
            return [self._stmt("mutate", f"{_atom(T)}.{op}()", uses={root}, inexact=dtype_view)]
        if op == "clamp_":
            return [self._stmt("mutate", f"{_atom(T)}.clamp_(-3, 3)", uses={root}, inexact=dtype_view)]
        raise Skip(op)

    def gen_setitem(self, nested: bool = False) -> List[Stmt]:
        root = self.choose_target()
        base, t, dtype_view = self.view_chain(root, max_steps=1)
        if t.dim() == 0:
            raise Skip("0-d target")
        step = self.view_step(self.rng.choice(("slice", "slice", "select")), t)
        if step is None or not step.startswith("["):
            raise Skip("no subscript")
        target = self.eval(_join(base, step))
        v = self.value_for(target, self_name=root)
        text = f"{_atom(base)}{step} = {v.text}"
        func = f"{_atom(base)}{step} = {v.functional}"
        return [self._stmt("setitem", text, func, uses={root} | v.uses, inexact=dtype_view or v.inexact)]

    def _index_literal(self, size: int, k: int, unique: bool, allow_input: bool = True) -> Tuple[str, set]:
        rng = self.rng
        if allow_input and self.pick("index_source") == "input":
            for p in self.params:
                if p.role == "index":
                    idx = self.tensor(p.name)
                    if int(idx.max()) < size and (not unique or idx.unique().numel() == idx.numel()):
                        return p.name, {p.name}
        if unique:
            values = rng.sample(range(size), min(k, size))
        else:
            values = [rng.randrange(size) for _ in range(k)]
        values = [v - size if rng.random() < 0.15 else v for v in values]
        return f"torch.tensor({values})", set()

    def gen_indexed(self, nested: bool = False, root: Optional[str] = None) -> List[Stmt]:
        root, T, t, dtype_view = self._target(root)
        if t.dim() == 0:
            raise Skip("0-d target")
        op = self.pick("indexed")
        rng = self.rng
        uses = {root}
        n0 = t.shape[0]
        k = rng.randint(1, 3)
        if op in ("index_put", "index_put_acc", "setitem_index"):
            idx, iu = self._index_literal(n0, k, unique=op != "index_put_acc")
            kk = self.eval(idx).numel()
            v = self.value_for(t, shape=(kk,) + tuple(t.shape[1:]), self_name=root, tensor_scalar=True)
            if op == "setitem_index":
                text, func = f"{_atom(T)}[{idx}] = {v.text}", f"{_atom(T)}[{idx}] = {v.functional}"
            else:
                acc = ", accumulate=True" if op == "index_put_acc" else ""
                text = f"{_atom(T)}.index_put_(({idx},), {v.text}{acc})"
                func = f"{_atom(T)}.index_put_(({idx},), {v.functional}{acc})"
            return [self._stmt("indexed", text, func, uses=uses | iu | v.uses, inexact=dtype_view or v.inexact)]
        if op == "setitem_index2":
            if t.dim() < 2:
                raise Skip("needs 2 dims")
            pairs = rng.sample([(i, j) for i in range(t.shape[0]) for j in range(t.shape[1])], k)
            i0, i1 = [p[0] for p in pairs], [p[1] for p in pairs]
            v = self.value_for(t, shape=(k,) + tuple(t.shape[2:]), self_name=root, tensor_scalar=True)
            head = f"{_atom(T)}[torch.tensor({i0}), torch.tensor({i1})]"
            return [self._stmt("indexed", f"{head} = {v.text}", f"{head} = {v.functional}",
                               uses=uses | v.uses, inexact=dtype_view or v.inexact)]
        if op in ("index_copy", "index_add"):
            d = rng.randrange(t.dim())
            idx, iu = self._index_literal(t.shape[d], k, unique=op == "index_copy")
            kk = self.eval(idx).numel()
            shape = list(t.shape)
            shape[d] = kk
            v = self.value_for(t, shape=shape, broadcast=False, scalar_ok=False, self_name=root)
            alpha = ", alpha=2" if op == "index_add" and self.chance(0.3) else ""
            text = f"{_atom(T)}.{op}_({d}, {idx}, {v.text}{alpha})"
            func = f"{_atom(T)}.{op}_({d}, {idx}, {v.functional}{alpha})"
            return [self._stmt("indexed", text, func, uses=uses | iu | v.uses, inexact=dtype_view or v.inexact)]
        if op in ("scatter", "scatter_add"):
            d = rng.randrange(t.dim())
            size = t.shape[d]
            k = rng.randint(1, size)
            shape = list(t.shape)
            shape[d] = k
            index = torch.empty(shape, dtype=torch.int64)
            moved = index.movedim(d, -1).reshape(-1, k)
            for row in moved:
                picks = rng.sample(range(size), k) if op == "scatter" else [rng.randrange(size) for _ in range(k)]
                row.copy_(torch.tensor(picks))
            literal = f"torch.tensor({moved.reshape(index.movedim(d, -1).shape).movedim(-1, d).tolist()})"
            if op == "scatter" and self.chance(0.3):
                c = self.scalar(t.dtype)
                return [self._stmt("indexed", f"{_atom(T)}.scatter_({d}, {literal}, {c})", uses=uses,
                                   inexact=dtype_view)]
            v = self.value_for(t, shape=shape, broadcast=False, scalar_ok=False, self_name=root)
            text = f"{_atom(T)}.{op}_({d}, {literal}, {v.text})"
            func = f"{_atom(T)}.{op}_({d}, {literal}, {v.functional})"
            return [self._stmt("indexed", text, func, uses=uses | v.uses, inexact=dtype_view or v.inexact)]
        if op in ("masked_fill", "setitem_mask"):
            if self.chance(0.5):
                mask, mu = f"{_atom(T)} > {self.rng.choice(('0', '1', '-1'))}", set()
            else:
                names = [n for n in self.names(READABLE_ROLES) if self.tensor(n).dtype != torch.bool]
                name = rng.choice(names)
                expr = self.shaped(name, tuple(t.shape), broadcast=True)
                if expr is None:
                    raise Skip("no mask source")
                mask, mu = f"{_atom(expr)} > 0", {name}
            c = self.scalar(t.dtype)
            if op == "masked_fill":
                text = f"{_atom(T)}.masked_fill_({mask}, {c})"
            else:
                text = f"{_atom(T)}[{mask}] = {c}"
            return [self._stmt("indexed", text, uses=uses | mu, inexact=dtype_view)]
        raise Skip(op)

    def gen_copy(self, nested: bool = False) -> List[Stmt]:
        inputs = [n for n in self.mutable_names() if self.roles[n] in ("input", "view")]
        sources = [n for n in self.names(("input", "view")) if self.tensor(n).dtype != torch.bool]
        if not inputs or len(sources) < 2:
            raise Skip("needs two inputs")
        dst = self.rng.choice(inputs)
        src = self.rng.choice([s for s in sources if s != dst])
        how = self.pick("copy")
        dt = self.tensor(dst)
        if how == "whole" or dt.dim() == 0:
            D = dst
        else:
            D = _join(dst, self.view_step("slice", dt) or "[:]")
        target = self.eval(D)
        expr = self.shaped(src, tuple(target.shape), broadcast=True)
        if expr is None:
            raise Skip("shapes")
        st = self.eval(expr)
        cast = f".to({_dtype_text(target.dtype)})" if st.dtype != target.dtype else ""
        detach = ".detach()" if self.mode == "training" and st.requires_grad else ""
        value = f"{_atom(expr)}{cast}{detach}"
        if self.chance(0.5) and D != dst:
            text, func = f"{D} = {value}", f"{D} = {_atom(value)}.clone()"
        else:
            text, func = f"{_atom(D)}.copy_({value})", f"{_atom(D)}.copy_({_atom(value)}.clone())"
        out = [self._stmt("copy", text, func, uses={dst, src})]
        if how == "then_mutate_source" and src in self.mutable_names():
            self._used = ["stmt:copy", "copy:then_mutate_source"]
            out.append(self._stmt("copy", f"{src}.add_({self.scalar(self.tensor(src).dtype)})", uses={src}))
        return out

    def gen_shift(self, nested: bool = False) -> List[Stmt]:
        root = self.choose_target()
        T, t, dtype_view = self.view_chain(root, max_steps=1, kinds=["slice", "select", "transpose", "none"])
        dims = [d for d in range(t.dim()) if t.shape[d] >= 2]
        if not dims:
            raise Skip("too small")
        d = self.rng.choice(dims)
        k = self.rng.randint(1, t.shape[d] - 1)
        fwd = self.chance(0.5)
        dst, src = (f"{k}:", f":{-k}") if fwd else (f":{-k}", f"{k}:")
        pre = ":, " * d
        A = f"{_atom(T)}[{pre}{dst}]"
        B = f"{_atom(T)}[{pre}{src}]"
        text = f"{A} = {B}.clone()" if self.chance(0.7) else f"{A}.copy_({B}.clone())"
        return [self._stmt("shift", text, uses={root}, inexact=dtype_view)]

    def gen_self_read(self, nested: bool = False) -> List[Stmt]:
        out: List[Stmt] = []
        root = self.choose_target()
        t = self.tensor(root)
        if t.dim() == 0:
            raise Skip("0-d")
        if self.chance(0.4):   # an indexed update first (pytorch#198270: index_put_, then add_(flip))
            out += self.gen_indexed(nested, root=root)
            self._used = ["stmt:self_read"]
        d = self.rng.randrange(t.dim())
        form = self.rng.choice(("flip", "flip", "roll", "mul_flip"))
        if form == "flip":
            text = f"{root}.add_({root}.flip({d}))"
        elif form == "roll":
            text = f"{root}.sub_({root}.roll(1, {d}))"
        else:
            text = f"{root}.mul_({root}.flip({d}).clamp(-2, 2))"
        out.append(self._stmt("self_read", text, uses={root}))
        return out

    def gen_old(self, nested: bool = False) -> List[Stmt]:
        if nested:
            raise Skip("no definitions in nested bodies")
        names = [n for n in self.names(MUTABLE_ROLES) if self.tensor(n).dtype != torch.bool]
        if not names:
            raise Skip("nothing to read")
        src = self.rng.choice(names)
        how = self.pick("old")
        t = self.tensor(src)
        if how == "view":
            expr, _, dv = self.view_chain(src, max_steps=1, kinds=["slice", "select", "transpose", "diagonal"])
            if expr == src:
                raise Skip("no view")
            name = self.new_name("o")
            return [self._stmt("old", f"{name} = {expr}", defines=[(name, "view")], uses={src}, inexact=dv)]
        name = self.new_name("o")
        if how == "clone":
            text = f"{name} = {src}.clone()"
        elif how == "scaled":
            text = f"{name} = {src} * {self.rng.choice(('1', '2'))}"
        else:
            text = f"{name} = {src}.sum({'' if t.dim() < 2 or self.chance(0.5) else '0'})"
        return [self._stmt("old", text, defines=[(name, "old")], uses={src})]

    def gen_compute(self, nested: bool = False) -> List[Stmt]:
        if nested:
            raise Skip("no definitions in nested bodies")
        names = [n for n in self.names(READABLE_ROLES) if self.tensor(n).dtype != torch.bool]
        if self.mode == "training":
            grads = [n for n in names if self.tensor(n).requires_grad]
            if grads and self.chance(0.8):
                names = grads
        if not names:
            raise Skip("nothing to compute from")
        x = self.rng.choice(names)
        t = self.tensor(x)
        how = self.pick("compute")
        uses = {x}
        inexact = False
        name = self.new_name("t")
        if how == "clone":
            expr = f"{x}.clone()"
        elif how == "scale":
            expr = f"{x} * {self.rng.choice(('2', '-1', '3'))}" if self.chance(0.6) else f"{x} - 1"
        elif how == "binary":
            others = [n for n in names if n != x] or [x]
            y = self.rng.choice(others)
            ye = self.shaped(y, tuple(t.shape), broadcast=True)
            if ye is None:
                raise Skip("shapes")
            expr = f"{x} {self.rng.choice(('+', '-', '*'))} {_atom(ye)}"
            uses.add(y)
        elif how == "flip" and t.dim() >= 1:
            expr = f"{x}.flip(0)"
        elif how == "mm":
            mats = [n for n in names if self.tensor(n).dim() == 2 and self.tensor(n).is_floating_point()]
            if not mats:
                raise Skip("no matrix")
            x = self.rng.choice(mats)
            uses = {x}
            m = self.tensor(x)
            form = self.rng.choice(("xxt", "xtx", "other"))
            if form == "other":
                ys = [n for n in mats if self.tensor(n).shape[0] >= m.shape[1]]
                y = self.rng.choice(ys) if ys else None
                ye = self.shaped(y, (m.shape[1], min(3, self.tensor(y).shape[1])), broadcast=False) if y else None
                if ye is None:
                    form = "xxt"
                else:
                    expr = f"{x} @ {_atom(ye)}"
                    uses.add(y)
            if form == "xxt":
                expr = f"{x} @ {x}.t()"
            elif form == "xtx":
                expr = f"torch.mm({x}.t(), {x})"
            inexact = self.mode == "training"
        elif how == "math" and t.is_floating_point():
            fn = self.rng.choice(("sin", "tanh", "sigmoid", "relu", "abs", "square", "exp"))
            if fn == "exp" and float(t.detach().abs().max()) > 8:
                fn = "tanh"
            expr = f"{x}.{fn}()"
            inexact = fn not in ("relu", "abs", "square")
        elif how == "sum" and t.dim() >= 2:
            expr = f"{x}.sum({self.rng.choice(('0', '-1', '0, keepdim=True'))})"
        elif how == "chain" and t.is_floating_point():
            expr = f"({x} * 2 + 1).{self.rng.choice(('relu', 'abs', 'neg'))}()"
        else:
            expr = f"{x}.clone()"
        return [self._stmt("compute", f"{name} = {expr}", defines=[(name, "value")], uses=uses, inexact=inexact)]

    # ------------------------------------------------------------------ control flow

    def _cf_writes(self, n: int, local: Dict[str, torch.Tensor], depth: int) -> Tuple[List[Stmt], set]:
        """``n`` writes to captured tensors for a subgraph body (``local``: its parameters)."""
        out: List[Stmt] = []
        targets = set()
        saved = dict(self.env), dict(self.roles)
        self.env.update(local)
        self.roles.update({k: "old" for k in local})
        try:
            for _ in range(n):
                for _try in range(TRIES_PER_STATEMENT):
                    try:
                        s = self._cf_write(depth)
                    except Skip:
                        continue
                    except Exception:  # noqa: BLE001 - a view or value that does not apply here
                        continue
                    out.append(s)
                    targets |= s.uses
                    break
        finally:
            self.env, self.roles = saved
        return out, targets

    def _cf_write(self, depth: int) -> Stmt:
        kind = self.pick("cf_write")
        used = list(self._used)
        names = [n for n in self.mutable_names() if self.roles[n] != "old"]
        if self.cf_targets and self.pick("cf_reuse_target") == "yes":
            names = [n for n in names if n in self.cf_targets] or names
        if not names:
            raise Skip("nothing captured to write")
        root = self.rng.choice(names)
        t = self.tensor(root)
        if kind == "whole":
            op = self.rng.choice(("add_", "mul_", "fill_", "add_value"))
            if op == "add_value":
                v = self.value_for(t, self_name=root)
                text, func = f"{root}.add_({v.text})", f"{root}.add_({v.functional})"
                s = self._stmt("cf_write", text, func, uses={root} | v.uses, inexact=v.inexact)
            else:
                arg = "2" if op == "mul_" else self.scalar(t.dtype)
                s = self._stmt("cf_write", f"{root}.{op}({arg})", uses={root})
        elif kind == "slice":
            step = self.view_step("slice", t) if t.dim() else None
            if step is None:
                raise Skip("0-d")
            T = _join(root, step)
            tt = self.eval(T)
            v = self.value_for(tt, self_name=root)
            s = self._stmt("cf_write", f"{T}.add_({v.text})", f"{T}.add_({v.functional})", uses={root} | v.uses,
                           inexact=v.inexact)
        elif kind in ("element", "view_element"):
            if kind == "view_element":
                views = [n for n in names if self.roles[n] == "view"]
                if views:
                    root = self.rng.choice(views)
                    t = self.tensor(root)
            if t.dim() == 0:
                s = self._stmt("cf_write", f"{root}.fill_({self.scalar(t.dtype)})", uses={root})
            else:
                index = ", ".join(str(self.rng.randrange(n)) for n in t.shape)
                s = self._stmt("cf_write", f"{root}[{index}] = {self.scalar(t.dtype)}", uses={root})
        else:
            self._used = ["stmt:indexed"]
            s = self.gen_indexed(True)[0]
        self._used = used + list(s.knobs)
        return Stmt(kind="cf_write", lines=s.lines, functional=s.functional, uses=s.uses, knobs=tuple(self._used),
                    inexact=s.inexact)

    def _nested(self, depth: int) -> List[Stmt]:
        if depth > 0 or self.pick("cf_nested") == "no":
            return []
        kind = self.rng.choice(("cond", "while"))
        saved = list(self._used)
        try:
            self._used = [f"stmt:{kind}", "cf_nested:yes"]
            return [getattr(self, f"_gen_{kind}")(depth + 1)]
        except Skip:
            return []
        finally:
            self._used = saved

    def gen_cond(self, nested: bool = False) -> List[Stmt]:
        if nested or self.mode == "training":
            raise Skip("cond only at top level, inference")
        return self._old_state_first(self._gen_cond(0))

    def gen_while(self, nested: bool = False) -> List[Stmt]:
        if nested or self.mode == "training":
            raise Skip("while_loop only at top level, inference")
        return self._old_state_first(self._gen_while(0))

    def _old_state_first(self, cf: Stmt) -> List[Stmt]:
        """Maybe read the state the control flow mutates before it runs (``o = s.clone()``)."""
        written = sorted(n for body in cf.bodies for st in body for n in st.uses if n in self.roles)
        saved = list(self._used)
        self._used = []
        if not written or self.pick("cf_old_first") == "no":
            self._used = saved
            return [cf]
        source = self.rng.choice(written)
        name = self.new_name("o")
        old = self._stmt("old", f"{name} = {source}.clone()", defines=[(name, "old")], uses={source})
        self._used = saved
        return [old, cf]

    def _gen_cond(self, depth: int) -> Stmt:
        floats = [n for n in self.names(READABLE_ROLES) if self.tensor(n).is_floating_point()]
        operands = [n for n in self.names(READABLE_ROLES) if self.tensor(n).dtype != torch.bool]
        if not floats or not operands:
            raise Skip("no predicate")
        pred = self.rng.choice(floats)
        x = self.rng.choice(operands)
        k = next(self.ids)
        which = self.pick("cond_mutates")
        p = self.tensor(x)
        nt = self.rng.randint(1, 2) if which in ("true", "both") else 0
        nf = self.rng.randint(1, 2) if which in ("false", "both") else 0
        true_body, t_targets = self._cf_writes(nt, {"p": p}, depth)
        false_body, f_targets = self._cf_writes(nf, {"p": p}, depth)
        true_body += self._nested(depth)
        ret_t = self.rng.choice(("p.clone()", "p * 2", "p + 1"))
        ret_f = self.rng.choice(("p * 0", "p - 1", "p.clone()"))
        name = f"r{k}"
        lines = (f"def true_fn_{k}(p):", "    {0}", f"    return {ret_t}",
                 f"def false_fn_{k}(p):", "    {1}", f"    return {ret_f}",
                 f"{name} = torch.cond({pred}.sum() > 0, true_fn_{k}, false_fn_{k}, ({x},))")
        self.cf_targets += sorted((t_targets | f_targets) - {"p"})
        return Stmt(kind="cond", lines=lines, defines=((name, "value"),) if depth == 0 else (),
                    uses=frozenset({pred, x}), bodies=(tuple(true_body), tuple(false_body)), knobs=tuple(self._used))

    def _gen_while(self, depth: int) -> Stmt:
        readable = [n for n in self.names(READABLE_ROLES) if self.tensor(n).dtype != torch.bool]
        if not readable:
            raise Skip("nothing to read")
        k = next(self.ids)
        which = self.pick("while_mutates")
        local = {"i": torch.zeros((), dtype=torch.int64), "acc": torch.zeros(())}
        nc = self.rng.randint(1, 2) if which in ("cond_fn", "both") else 0
        nb = self.rng.randint(1, 2) if which in ("body", "both") else 0
        cond_body, c_targets = self._cf_writes(nc, local, depth)
        body_body, b_targets = self._cf_writes(nb, local, depth)
        body_body += self._nested(depth)
        targets = sorted((c_targets | b_targets) - set(local))
        read = self.rng.choice(targets if targets and self.chance(0.7) else readable)
        bound = self.rng.randint(1, 3)
        lines = (f"def cond_fn_{k}(i, acc):", "    {0}", f"    return i < {bound}",
                 f"def body_fn_{k}(i, acc):", "    {1}", f"    return i + 1, acc + {read}.sum()",
                 f"i{k}, acc{k} = torch.while_loop(cond_fn_{k}, body_fn_{k}, "
                 f"(torch.zeros((), dtype=torch.int64), torch.zeros(())))")
        self.cf_targets += targets
        return Stmt(kind="while", lines=lines,
                    defines=((f"i{k}", "old"), (f"acc{k}", "old")) if depth == 0 else (),
                    uses=frozenset({read}), bodies=(tuple(cond_body), tuple(body_body)), knobs=tuple(self._used))

    # ------------------------------------------------------------------ the program

    def add_statements(self, count: int) -> None:
        if self.mode == "training":
            self._ensure_grad_value()
        for _ in range(count):
            for _try in range(TRIES_PER_STATEMENT):
                self._used = []
                try:
                    kind = self.pick("stmt")
                    stmts = self.statement(kind)
                except Skip:
                    continue
                except Exception:  # noqa: BLE001 - a view/value eager refuses while building
                    continue
                if self.try_add(stmts):
                    break

    def _ensure_grad_value(self) -> None:
        """Training programs start with a value computed from a leaf that requires grad."""
        for _try in range(TRIES_PER_STATEMENT):
            self._used = ["stmt:compute"]
            try:
                stmts = self.gen_compute(False)
            except Exception:  # noqa: BLE001 - Skip or a value eager refuses
                continue
            made = [n for s in stmts for n in s.names]
            if self.try_add(stmts):
                if any(self.env[n].requires_grad for n in made):
                    return
                self.body = self.body[:-len(stmts)]
                self.reset_env()

    def choose_returns(self) -> Tuple[str, ...]:
        self._used = []
        n = int(self.pick("returns"))
        defined = [n_ for n_ in self.roles if self.roles[n_] in ("value", "view", "old")]
        data = [p.name for p in self.params if p.role == "data"]
        pool = defined * 2 + data
        out: List[str] = []
        for _ in range(n):
            if not pool:
                break
            c = self.rng.choice(pool)
            if c not in out:
                out.append(c)
        if self.mode == "training":
            grads = [n_ for n_ in defined if isinstance(self.env.get(n_), torch.Tensor)
                     and self.env[n_].requires_grad and self.env[n_].is_floating_point()]
            if grads and not any(r in grads for r in out):
                out.append(self.rng.choice(grads))
        self.input_knobs += self._used
        return tuple(out)

    def program(self) -> Program:
        return Program(self.seed, self.index, self.mode, self.dynamic, tuple(self.setup), tuple(self.params),
                       tuple(self.body), self.choose_returns(), tuple(self.input_knobs))


def _atom(expr: str) -> str:
    """``expr`` safe to put before ``.method()`` or an operator."""
    depth = 0
    for ch in expr:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and ch in " +-*/<>=@":
            return f"({expr})"
    return expr


def _subscript(dim: int, item: str) -> str:
    return "[" + ":, " * dim + item + "]"


def _join(expr: str, step: str) -> str:
    return _atom(expr) + step


DYNAMIC_POLICIES = ("never", "mixed", "always")
MIXED_DYNAMIC = 0.3


def build(seed: int, index: int, attempt: int, knobs: Knobs, dynamic: str = "mixed",
          max_statements: int = MAX_STATEMENTS) -> Program:
    """One program from the stream ``(seed, index, attempt)`` (deterministic)."""
    rng = random.Random(f"rewrite-fuzz/{seed}/{index}/{attempt}")
    is_dynamic = dynamic == "always" or (dynamic == "mixed" and rng.random() < MIXED_DYNAMIC)
    b = Builder(rng, knobs, seed, index, is_dynamic)
    b.make_inputs()
    count = min(max_statements, 1 + int(rng.expovariate(1 / 2.5)))
    b.add_statements(count)
    return b.program()


MAX_ATTEMPTS = 12


def generate(seed: int, index: int, knobs: Knobs, dynamic: str = "mixed", parent: Optional[Program] = None,
             max_attempts: int = MAX_ATTEMPTS) -> Tuple[Program, Run, int]:
    """Program ``index`` of ``seed`` (a variant of ``parent`` when given): the first of its
    attempts that is a fair eager program, with its eager reference run and the number of
    attempts it took.  Raises :class:`~rewrite.fuzz.reference.InvalidProgram` when none is."""
    reasons = []
    for attempt in range(max_attempts):
        if parent is not None:
            program = mutate(parent, seed, index, attempt, knobs)
        else:
            program = build(seed, index, attempt, knobs, dynamic)
        if not program.body:
            reasons.append("no statement")
            continue
        try:
            run = reference(program)
        except InvalidProgram as exc:
            reasons.append(str(exc))
            continue
        return program, run, attempt + 1
    raise InvalidProgram(f"no fair program in {max_attempts} attempts: " + "; ".join(reasons[-3:]))


def mutate(parent: Program, seed: int, index: int, attempt: int, knobs: Knobs) -> Program:
    """A variant of ``parent`` (coverage steering): keep its inputs and a prefix of its
    statements, add one or two new statements there (replacing the next one, sometimes), then
    put back the rest of its statements that still run (each dropped with a small probability)."""
    rng = random.Random(f"rewrite-fuzz-mutate/{seed}/{index}/{attempt}")
    b = Builder(rng, knobs, seed, index, parent.dynamic)
    b.mode = parent.mode
    b.params, b.setup, b.input_knobs = list(parent.params), list(parent.setup), list(parent.input_knobs)
    numbers = [int(m) for m in re.findall(r"[A-Za-z_]+?(\d+)\b", "\n".join(parent.fn_lines()))]
    b.ids = itertools.count(max(numbers, default=0) + 1)
    cut = rng.randint(0, len(parent.body))
    b.body = list(parent.body[:cut])
    b.reset_env()
    b.add_statements(rng.randint(1, 2))
    rest = list(parent.body[cut:])
    if rest and rng.random() < 0.4:     # replace rather than insert
        rest.pop(0)
    for s in rest:
        if rng.random() < 0.1:
            continue
        b.try_add([s])
    return b.program()
