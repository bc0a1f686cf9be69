"""Seeded generation of mutation programs.

A program is built statement by statement on a :class:`~rewrite.fuzz.builder.Builder` (which
runs each statement eagerly as soon as it is made and drops those eager PyTorch refuses); the
finished program is then validated as a whole by :mod:`rewrite.fuzz.reference`.  This module
holds the statements (views, writes, indexed updates, copies, reads of old values, computation,
``cond`` and ``while_loop``) and the entry points: :func:`build` (one program from one random
stream), :func:`generate` (the first fair program of a seed and index), :func:`mutate` (a
variant of a parent, for coverage steering).
"""
from __future__ import annotations

import itertools
import random
import re
from typing import Dict, List, Optional, Tuple

import torch

from rewrite.fuzz.builder import MUTABLE_ROLES, READABLE_ROLES, Builder, Skip, atom, chained, dtype_text
from rewrite.fuzz.custom_ops import OpCalls
from rewrite.fuzz.features import Knobs
from rewrite.fuzz.program import Program, Stmt
from rewrite.fuzz.reference import InvalidProgram, reference
from rewrite.testing.execute import Run

MAX_STATEMENTS = 7
TRIES_PER_STATEMENT = 8


class Generator(OpCalls, Builder):
    """A :class:`~rewrite.fuzz.builder.Builder` that makes statements: each ``gen_<kind>``
    returns the statements of one choice of the ``stmt`` point (``nested``: inside a
    ``cond``/``while_loop`` body), or raises :class:`~rewrite.fuzz.builder.Skip`.  Custom-op
    calls (``gen_custom_op``) are :class:`~rewrite.fuzz.custom_ops.OpCalls`'."""

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
            text, func = f"{atom(T)}.{op}({v.text})", f"{atom(T)}.{op}({v.functional})"
            return [self._stmt("mutate", text, func, uses={root} | v.uses, inexact=dtype_view or v.inexact)]
        if op == "mul_":
            c = self.rng.choice(("2", "-1", "0.5") if isfloat else ("2", "-1"))
            return [self._stmt("mutate", f"{atom(T)}.mul_({c})", uses={root}, inexact=dtype_view)]
        if op == "mul_tensor":
            v = self.value_for(t, self_name=root, scalar_ok=False)
            text = f"{atom(T)}.mul_({atom(v.text)}.clamp(-2, 2))"
            func = f"{atom(T)}.mul_({atom(v.text)}.clamp(-2, 2).clone())"
            return [self._stmt("mutate", text, func, uses={root} | v.uses, inexact=dtype_view or v.inexact)]
        if op == "fill_":
            return [self._stmt("mutate", f"{atom(T)}.fill_({self.scalar(t.dtype)})", uses={root}, inexact=dtype_view)]
        if op in ("zero_", "neg_"):
            return [self._stmt("mutate", f"{atom(T)}.{op}()", uses={root}, inexact=dtype_view)]
        if op == "clamp_":
            return [self._stmt("mutate", f"{atom(T)}.clamp_(-3, 3)", uses={root}, inexact=dtype_view)]
        raise Skip(op)

    def gen_setitem(self, nested: bool = False) -> List[Stmt]:
        root = self.choose_target()
        base, t, dtype_view = self.view_chain(root, max_steps=1)
        if t.dim() == 0:
            raise Skip("0-d target")
        step = self.view_step(self.rng.choice(("slice", "slice", "select")), t)
        if step is None or not step.startswith("["):
            raise Skip("no subscript")
        target = self.eval(chained(base, step))
        v = self.value_for(target, self_name=root)
        text = f"{atom(base)}{step} = {v.text}"
        func = f"{atom(base)}{step} = {v.functional}"
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
                text, func = f"{atom(T)}[{idx}] = {v.text}", f"{atom(T)}[{idx}] = {v.functional}"
            else:
                acc = ", accumulate=True" if op == "index_put_acc" else ""
                text = f"{atom(T)}.index_put_(({idx},), {v.text}{acc})"
                func = f"{atom(T)}.index_put_(({idx},), {v.functional}{acc})"
            return [self._stmt("indexed", text, func, uses=uses | iu | v.uses, inexact=dtype_view or v.inexact)]
        if op == "setitem_index2":
            if t.dim() < 2:
                raise Skip("needs 2 dims")
            pairs = rng.sample([(i, j) for i in range(t.shape[0]) for j in range(t.shape[1])], k)
            i0, i1 = [p[0] for p in pairs], [p[1] for p in pairs]
            v = self.value_for(t, shape=(k,) + tuple(t.shape[2:]), self_name=root, tensor_scalar=True)
            head = f"{atom(T)}[torch.tensor({i0}), torch.tensor({i1})]"
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
            text = f"{atom(T)}.{op}_({d}, {idx}, {v.text}{alpha})"
            func = f"{atom(T)}.{op}_({d}, {idx}, {v.functional}{alpha})"
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
                return [self._stmt("indexed", f"{atom(T)}.scatter_({d}, {literal}, {c})", uses=uses,
                                   inexact=dtype_view)]
            v = self.value_for(t, shape=shape, broadcast=False, scalar_ok=False, self_name=root)
            text = f"{atom(T)}.{op}_({d}, {literal}, {v.text})"
            func = f"{atom(T)}.{op}_({d}, {literal}, {v.functional})"
            return [self._stmt("indexed", text, func, uses=uses | v.uses, inexact=dtype_view or v.inexact)]
        if op in ("masked_fill", "setitem_mask"):
            if self.chance(0.5):
                mask, mu = f"{atom(T)} > {self.rng.choice(('0', '1', '-1'))}", set()
            else:
                names = [n for n in self.names(READABLE_ROLES) if self.tensor(n).dtype != torch.bool]
                name = rng.choice(names)
                expr = self.shaped(name, tuple(t.shape), broadcast=True)
                if expr is None:
                    raise Skip("no mask source")
                mask, mu = f"{atom(expr)} > 0", {name}
            c = self.scalar(t.dtype)
            if op == "masked_fill":
                text = f"{atom(T)}.masked_fill_({mask}, {c})"
            else:
                text = f"{atom(T)}[{mask}] = {c}"
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
            D = chained(dst, self.view_step("slice", dt) or "[:]")
        target = self.eval(D)
        expr = self.shaped(src, tuple(target.shape), broadcast=True)
        if expr is None:
            raise Skip("shapes")
        st = self.eval(expr)
        cast = f".to({dtype_text(target.dtype)})" if st.dtype != target.dtype else ""
        detach = ".detach()" if self.mode == "training" and st.requires_grad else ""
        value = f"{atom(expr)}{cast}{detach}"
        if self.chance(0.5) and D != dst:
            text, func = f"{D} = {value}", f"{D} = {atom(value)}.clone()"
        else:
            text, func = f"{atom(D)}.copy_({value})", f"{atom(D)}.copy_({atom(value)}.clone())"
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
        A = f"{atom(T)}[{pre}{dst}]"
        B = f"{atom(T)}[{pre}{src}]"
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
            expr = f"{x} {self.rng.choice(('+', '-', '*'))} {atom(ye)}"
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
                    expr = f"{x} @ {atom(ye)}"
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
            T = chained(root, step)
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

    def ensure_op_call(self) -> None:
        """A custom-op program calls at least one op (appended if no statement slot drew one)."""
        for _try in range(TRIES_PER_STATEMENT):
            if self.has_op_call():
                return
            self._used = ["stmt:custom_op"]
            try:
                stmts = self.gen_custom_op(False)
            except Skip:
                continue
            except Exception:  # noqa: BLE001 - an argument eager refuses while building
                continue
            self.try_add(stmts)

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


DYNAMIC_POLICIES = ("never", "mixed", "always")
MIXED_DYNAMIC = 0.3


def program_kind(seed: int, index: int, attempt: int, knobs: Knobs) -> Tuple[Optional[str], List[str]]:
    """Whether the program is built around custom ops, and then under which auto_functionalized
    version (``"v1"``/``"v2"``; None: a plain program), with the knobs chosen.  Drawn from a
    stream of its own: a plain program's statements are drawn as they were before custom-op
    programs existed."""
    rng = random.Random(f"rewrite-fuzz-kind/{seed}/{index}/{attempt}")
    kind = knobs.pick(rng, "program") or "plain"
    if kind != "custom_ops":
        return None, [f"program:{kind}"]
    version = knobs.pick(rng, "auto_functionalized") or "v2"
    return version, [f"program:{kind}", f"auto_functionalized:{version}"]


def build(seed: int, index: int, attempt: int, knobs: Knobs, dynamic: str = "mixed",
          max_statements: int = MAX_STATEMENTS) -> Program:
    """One program from the stream ``(seed, index, attempt)`` (deterministic)."""
    version, kind_knobs = program_kind(seed, index, attempt, knobs)
    if version is None:
        knobs = knobs.without("stmt:custom_op")
    rng = random.Random(f"rewrite-fuzz/{seed}/{index}/{attempt}")
    is_dynamic = dynamic == "always" or (dynamic == "mixed" and rng.random() < MIXED_DYNAMIC)
    b = Generator(rng, knobs, seed, index, is_dynamic)
    b.auto_functionalized = version
    b.make_inputs()
    b.input_knobs += kind_knobs
    count = min(max_statements, 1 + int(rng.expovariate(1 / 2.5)))
    b.add_statements(count)
    if version is not None:
        b.ensure_op_call()
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
    if parent.auto_functionalized is None:
        knobs = knobs.without("stmt:custom_op")
    b = Generator(rng, knobs, seed, index, parent.dynamic)
    b.mode = parent.mode
    b.params, b.setup, b.input_knobs = list(parent.params), list(parent.setup), list(parent.input_knobs)
    b.auto_functionalized = parent.auto_functionalized
    for op in parent.ops:
        b.ops.append(op)
        b.register_op(op)
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
