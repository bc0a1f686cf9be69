"""One program being generated: its inputs, the eager namespace every statement runs in as soon
as it is made, its variables and their roles, and the views and values statements are built from
(:mod:`rewrite.fuzz.generator` makes the statements and the program out of them).

Every statement is executed eagerly on the inputs as soon as it is made (``exec`` in the
namespace of ``fn``'s variables), so the generator always knows the real shape, dtype and
aliasing of every variable, and a statement eager PyTorch refuses (shape mismatch, partial
overlap, in-place on a leaf that requires grad...) is dropped on the spot.

Values are small integers stored as floats (or integer tensors) and only added, multiplied by
small constants and moved around, so results are exact and comparisons can be exact unless a
statement says ``inexact`` (transcendental math, dtype views of floats).
"""
from __future__ import annotations

import dataclasses
import itertools
import random
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import torch

from rewrite.fuzz.features import Knobs
from rewrite.fuzz.program import OpDef, Param, Program, Stmt
from rewrite.testing.execute import fresh_inputs, mode_context


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


def shape_text(shape: Sequence[int]) -> str:
    return f"({shape[0]},)" if len(shape) == 1 else "(" + ", ".join(map(str, shape)) + ")"


def dtype_text(dtype: torch.dtype) -> str:
    return str(dtype)   # "torch.float32"


class Builder:
    """The state of one program built from one random stream (the statements are
    :class:`rewrite.fuzz.generator.Generator`'s)."""

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
        self.auto_functionalized: Optional[str] = None   # custom-op programs: "v1" or "v2"
        self.ops: List[OpDef] = []            # custom ops defined so far (rewrite.fuzz.custom_ops)
        self.op_objects: Dict[str, object] = {}   # their definitions, by the name fn calls them by

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
                self._param("w", f"torch.randint(-3, 4, {shape_text(shape)}).float().requires_grad_()", "grad")
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
        base = f"torch.randint(-4, 5, {shape_text(shape)})"
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
                       tuple(self.body), (), tuple(self.input_knobs), tuple(self.ops), self.auto_functionalized)

    def reset_env(self) -> None:
        """Fresh inputs, then every accepted statement again (after a statement that raised
        half-way, the tensors may hold part of its writes)."""
        namespace: Dict[str, object] = {"torch": torch}
        exec(compile("\n".join(self.inputs_program().inputs_lines()), "<fuzz inputs>", "exec"), namespace)
        values = fresh_inputs(namespace["inputs"])
        self.env = {"torch": PLAIN_TORCH, **self.op_objects}
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
            candidate = chained(expr, step)
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
            return subscript(d, f"{a or ''}:{stop}{step}")
        if kind == "narrow" and dims:
            d = rng.choice(dims)
            a = rng.randint(0, t.shape[d] - 1)
            return f".narrow({d}, {a}, {rng.randint(1, t.shape[d] - a)})"
        if kind == "select" and t.dim() >= 1 and t.shape[0] >= 1:
            d = rng.randrange(t.dim())
            i = rng.randrange(t.shape[d])
            if self.chance(0.2):
                i -= t.shape[d]
            return subscript(d, str(i)) if d < 2 else f".select({d}, {i})"
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
                    text = f"torch.tensor({text}, dtype={dtype_text(target.dtype)})"
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
            text = f"torch.tensor({text}, dtype={dtype_text(target.dtype)})"
        return Value(text, text, frozenset())

    def _finish_value(self, expr: str, dtype: torch.dtype, uses: set, detach: bool) -> Value:
        t = self.eval(expr)
        inexact = False
        op = self.pick("value_op")
        if op == "scale":
            expr = f"{atom(expr)} * {self.rng.choice(('2', '-1', '3'))}"
        elif op == "offset":
            expr = f"{atom(expr)} + {self.rng.choice(('1', '-2'))}"
        elif op == "flip" and t.dim() >= 1:
            expr = f"{atom(expr)}.flip({self.rng.randrange(t.dim())})"
        elif op == "neg":
            expr = f"-{atom(expr)}"
        elif op == "clone":
            expr = f"{atom(expr)}.clone()"
        elif op == "math" and t.is_floating_point():
            expr = f"{atom(expr)}.{self.rng.choice(('sin', 'tanh', 'sigmoid'))}()"
            inexact = True
        t = self.eval(expr)
        if t.dtype != dtype:
            expr = f"{atom(expr)}.to({dtype_text(dtype)})"
            inexact |= t.is_floating_point() and not dtype.is_floating_point
        if detach and t.requires_grad:
            expr = f"{atom(expr)}.detach()"
        return Value(expr, f"{atom(expr)}.clone()", frozenset(uses), inexact)

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
        returns = self.choose_returns()
        program = Program(self.seed, self.index, self.mode, self.dynamic, tuple(self.setup), tuple(self.params),
                          tuple(self.body), returns, tuple(self.input_knobs), tuple(self.ops),
                          self.auto_functionalized)
        return dataclasses.replace(program, ops=tuple(program.used_ops()))


def atom(expr: str) -> str:
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


def subscript(dim: int, item: str) -> str:
    return "[" + ":, " * dim + item + "]"


def chained(expr: str, step: str) -> str:
    return atom(expr) + step
