"""Evaluating a graph as terms (FX order: nodes run in order; in-place writes replace the term of
the memory they write): one or two *views* of one graph (before and after a transaction) with
their evaluation states, and the :class:`Evaluator` that computes node values and memory
contents, event by event.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple

import torch
import torch.fx as fx

from rewrite.analysis.semantics import layout_maps as lm
from rewrite.analysis.facts import functionalized, op_facts
from rewrite.analysis.semantics import repeats
from rewrite.analysis.facts.fake import fake_value
from rewrite.analysis.semantics.terms import Algebra, Terms, _arg_key, _const_key
from rewrite.analysis.semantics.aliases import AliasIndex, GraphView


def _same_tensor(step: fx.Node, args) -> bool:
    """``step`` returns the tensor it writes, laid out as it was (``index_put_``, ``copy_``; not
    ``t_``, whose fake value says otherwise)."""
    if not (op_facts.returns_written(step.target) and args and isinstance(args[0], fx.Node)):
        return False
    if op_facts.written_argument_positions(step.target)[:1] != (0,):
        return False
    a, b = fake_value(step), fake_value(args[0])
    return (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.dtype == b.dtype
            and lm.map_of_tensor(a) == lm.map_of_tensor(b))


def path_key(root: fx.Node, steps: Sequence[fx.Node], args_of) -> tuple:
    """The key of a view whose map is unknown, reached from ``root`` by the view ops ``steps``
    (``args_of(step)``: its ``(args, kwargs)``): each step's op and arguments but the tensor it
    views, whose value the term's base already is, and, where a step addresses storage
    (``as_strided``), the root's dtype and layout, which decide what those addresses hold.  The
    tensor it views is not named: a read rewired from a call's new value to the memory the call
    wrote in place views the same value by the same path (fuzz seed 0 p2814: a dtype view of a
    v2 call's new base, in the simulation of Inductor's reinplacing).  (Other tensor and symbolic
    arguments are still keyed by name: conservative.)"""
    def op(node):
        args, kwargs = args_of(node)
        return (str(node.target), _arg_key(tuple(args[1:])), tuple(sorted((k, _arg_key(v)) for k, v in kwargs.items())))

    out = []
    for step in steps:
        if _same_tensor(step, args_of(step)[0]):
            continue                                # an in-place op's result: its argument itself
        if step.target is operator.getitem and isinstance(args_of(step)[0][0], fx.Node):
            out.append(op(args_of(step)[0][0]))     # an item of a view list: the op that made the list
        out.append(op(step))
    if any(lm.is_as_strided_read(s) for s in steps):
        val = fake_value(root)
        layout = lm.map_of_tensor(val) if isinstance(val, torch.Tensor) else None
        out.append(("root", str(getattr(val, "dtype", None)), layout if layout is not None else ("node", root.name)))
    return ("path",) + tuple(out)


# --------------------------------------------------------------------------- one view of a graph


class _State:
    """Evaluation state of one view: node values and memory contents of tracked roots."""

    def __init__(self, view: GraphView):
        self.view = view
        self.values: Dict[fx.Node, int] = {}
        self.content: Dict[fx.Node, int] = {}
        self.pending: Dict[fx.Node, List[Tuple[fx.Node, Optional[lm.Map], int]]] = {}   # deferred writes
        self.writes: Dict[fx.Node, List[fx.Node]] = {}   # root -> processed writers, in order


@dataclass
class Divergence:
    """Why the graphs differ: the first observable difference, explained."""

    message: str
    node: Optional[fx.Node] = None


class Evaluator:
    """Term evaluation of the two views of one comparison.  A root is *tracked* once a
    processed node writes its memory or it is processed itself; from then on both views keep a
    content term for it and every later reader of it is evaluated."""

    def __init__(self, terms: Terms, index: AliasIndex, states: Sequence[_State], on_track=None):
        self.terms = terms
        self.alg = Algebra(terms)
        self.index = index
        self.states = list(states)
        self.tracked: Set[fx.Node] = set()
        self._on_track = on_track

    # ---------------------------------------------------------------- reads

    def leaf(self, node: fx.Node, at: fx.Node, state: Optional[_State] = None) -> int:
        """The value of an unaffected node as ``at`` reads it: which writes it has seen is all
        that can differ (a deferred write is seen only through its own result)."""
        like = fake_value(node)
        if like is None:
            return self.terms.make(("leaf", node, None), like)
        root, steps = self.index.chain(node, state.view if state is not None else None)
        writers = self.index.writers(root)
        if state is not None:
            through = set(steps)
            writers = [w for w in writers if state.view.has(w)
                       and (w not in state.view.deferred or w in through)]
        return self.terms.make(("leaf", node, _last_before(writers, at)), like)

    def read(self, state: _State, node: fx.Node, at: fx.Node) -> int:
        """The term of the value ``at`` reads through its operand ``node``."""
        like = fake_value(node)
        if like is None:
            return state.values[node] if node in state.values else self.leaf(node, at, state)
        root, steps = self.index.chain(node, state.view)
        if root in self.tracked:
            content = self._content_for(state, root, steps)
        elif root in state.values:
            content = state.values[root]
        else:
            content = self.leaf(root, at, state)
        m = self.index.map(node, state.view)
        fallback = path_key(root, steps, state.view.args) if m is None and steps else node
        return self.alg.strided(content, m, steps, like, fallback=fallback)

    def _content_for(self, state: _State, root: fx.Node, steps: Sequence[fx.Node]) -> int:
        """Current content of ``root``'s memory as seen through ``steps``: a read through the
        result of a deferred write sees that write (and the deferred ones before it)."""
        content = state.content[root]
        pending = state.pending.get(root)
        if pending:
            through = set(steps)
            last = max((i for i, (w, _, _) in enumerate(pending) if w in through), default=-1)
            for writer, m, value in pending[: last + 1]:
                content = self.alg.scatter(content, value, m, fallback=writer)
        return content

    def start_tracking(self, root: fx.Node, at: fx.Node) -> None:
        if root in self.tracked:
            return
        self.tracked.add(root)
        for state in self.states:
            state.content[root] = state.values[root] if root in state.values else self.leaf(root, at, state)
        if self._on_track is not None:
            self._on_track(root, at)

    def final_content(self, state: _State, root: fx.Node) -> Optional[int]:
        if root not in state.content:
            return None
        content = state.content[root]
        for writer, m, value in state.pending.get(root, []):
            content = self.alg.scatter(content, value, m, fallback=writer)
        return content

    # ---------------------------------------------------------------- node values

    def evaluate(self, state: _State, node: fx.Node) -> Tuple[Optional[tuple], Optional[int]]:
        """``(operand terms, value term)`` of ``node`` in ``state``'s view (operand terms None
        for nodes that read nothing: placeholders, views); in-place writes update the state's
        memory contents."""
        args, kwargs = state.view.args(node)
        if node.op == "placeholder":
            return None, self.terms.make(("input", node.target), fake_value(node))
        if node.op == "get_attr":
            return None, self.terms.make(("attr", node.target), fake_value(node))
        if node.op == "call_function" and op_facts.alias_source(node, args) is not None \
                and not op_facts.returns_written(node.target):
            return None, None                            # a view: values are read through it
        if functionalized.is_functionalized_v2(node):
            return self._functionalized_v2(state, node, kwargs)
        if functionalized.is_functionalized_call(node):
            op = functionalized.wrapped_op(node)
            operands = self._operands(state, node, (), kwargs, target=op)
            whole = self.terms.make(_mutating_call(op, operands, node, kwargs))
            return operands, self.terms.make(("functionalized", whole))
        operands = self._operands(state, node, args, kwargs)
        if node.op == "output":
            return operands, None
        if node.op != "call_function":
            return operands, self.terms.make(("call", node.op, str(node.target), operands), fake_value(node))
        target = op_facts.resolved(node.target)
        written = _written_in(target, args, kwargs)
        if written or functionalized.is_custom_op(target):   # a custom op given None to write writes nothing
            result = self._apply_writes(state, node, target, args, kwargs, written, operands)
            return operands, result
        if op_facts.is_getitem(node):
            producer = args[0]
            if functionalized.is_any_functionalized_call(producer) and producer in state.values:
                return operands, self._functionalized_item(state.values[producer], producer, args[1], node)
            if isinstance(producer, fx.Node) and producer in state.values:
                return operands, self.terms.make(("proj", state.values[producer], _const_key(args[1])), fake_value(node))
            written = self._written_item(state, producer, args[1])
            if written is not None:
                return operands, self.read(state, written, node)
            return operands, self.leaf(node, node, state)
        return operands, self._fresh_value(state, node, target, args, kwargs, operands)

    def _functionalized_item(self, value: int, call: fx.Node, index, node: fx.Node) -> int:
        """Item ``index`` of a functionalized call: what the op itself leaves there when it runs
        in place on the same operands (the same terms as :meth:`_apply_writes` makes)."""
        T = self.terms
        whole = T.defs[value][1]
        role = functionalized.output_role(functionalized.wrapped_op(call), index,
                                          v2=functionalized.is_functionalized_v2(call))
        if role is None:
            return T.make(("proj", value, _const_key(index)), fake_value(node))
        kind, which = role
        if kind == "base":
            bases = T.defs[value][2]
            return bases[which] if which < len(bases) else T.make(("proj", value, _const_key(index)), fake_value(node))
        if kind == "written":
            return T.make(("proj", whole, ("written", which)), fake_value(node))
        result = T.make(("proj", whole, "result"), fake_value(node) if which is None else None)
        return result if which is None else T.make(("proj", result, _const_key(which)), fake_value(node))

    def _functionalized_v2(self, state, node, kwargs) -> Tuple[tuple, int]:
        """An ``auto_functionalized_v2`` call: the op runs on views of the bases (regenerated
        from the view metadata); the new bases are the bases with what the op writes scattered
        into those views, in schema order: the terms its in-place call on the same views makes.
        A view whose map is unknown makes the call a term of its own."""
        T = self.terms
        op = functionalized.wrapped_op(node)
        views = functionalized.v2_views(node)
        bases = list(kwargs.get("_all_bases") or ())
        bases_like = [fake_value(b) for b in bases]
        base_terms = [self.read(state, b, node) for b in bases]
        opaque = T.make(("functionalized_v2?", node.name))
        regions = {}

        def view_term(info, key):
            if info is None:
                return _const_key(None)
            like, m = lm.v2_view(info, bases_like)
            if m is None:
                return ("t", T.make(("proj", opaque, key), like))
            regions[key] = (info.base_index, m, like)
            return ("t", self.alg.strided(base_terms[info.base_index], m, (), like, fallback=node))

        operands = []
        for a in op._schema.arguments:
            if a.name in views:
                info = views[a.name]
                if isinstance(info, list):
                    operands.append(("list", tuple(view_term(v, (a.name, j)) for j, v in enumerate(info))))
                else:
                    operands.append(view_term(info, (a.name, None)))
            elif a.name in kwargs:
                operands.append(self._operand(state, kwargs[a.name], node))
            else:
                operands.append(_const_key(a.default_value) if a.has_default_value() else _const_key(None))
        operands = tuple(operands)
        whole = T.make(_mutating_call(op, operands, node, kwargs))
        new = list(base_terms)
        for (name, j), (b, m, like) in regions.items():      # schema order, list items in order
            written = T.make(("proj", whole, ("written", name)), like if j is None else None)
            if j is not None:
                written = T.make(("proj", written, _const_key(j)), like)
            new[b] = self.alg.scatter(new[b], written, m, fallback=node)
        if any(k not in regions for k in _written_keys(views)):
            new = [T.make(("proj", opaque, ("base", i)), bases_like[i]) for i in range(len(bases))]
        return operands, T.make(("functionalized", whole, tuple(new)))

    def _written_item(self, state, producer, index) -> Optional[fx.Node]:
        """Item ``index`` of an in-place foreach op is the tensor it wrote (Inductor's
        reinplacing turns ``_foreach_mul`` into ``_foreach_mul_`` and keeps the ``getitem`` users,
        which its lowering of the in-place op answers with the written tensors)."""
        if not isinstance(producer, fx.Node) or producer.op != "call_function" or not isinstance(index, int) \
                or not op_facts.is_inplace_foreach(producer.target):
            return None
        p_args, p_kwargs = state.view.args(producer)
        written = _written_in(producer.target, p_args, p_kwargs)
        return written[index] if 0 <= index < len(written) else None

    def _operand(self, state, a, at: fx.Node):
        """The operand term of argument ``a`` of ``at``."""
        if isinstance(a, fx.Node):
            return ("t", self.read(state, a, at))
        if isinstance(a, (list, tuple)):
            return ("list", tuple(self._operand(state, x, at) for x in a))
        return _const_key(a)

    def _operands(self, state, node, args, kwargs, target=None) -> tuple:
        def conv(a):
            return self._operand(state, a, node)

        if target is None:
            target = op_facts.resolved(node.target) if node.op == "call_function" else None
        bound = _bind(target, args, kwargs) if target is not None else None
        if bound is not None:
            grouped = _GROUPED_HEADS.get(target, ())
            return tuple(self._ungrouped(state, v, node, conv) if i in grouped else conv(v)
                         for i, v in enumerate(bound))
        return (conv(tuple(args)), tuple(sorted((k, conv(v)) for k, v in kwargs.items())))

    def _ungrouped(self, state, k, at: fx.Node, conv) -> tuple:
        """The operand term of a key/value operand ``k`` of an op that reads grouped heads
        (``_GROUPED_HEADS``): where ``k`` is a fresh copy of ``x.repeat_interleave(n, 1)`` that
        nothing writes, the term of ``x`` as the copy read it (the op computes the same from
        ``x`` itself), else ``k``'s own term.  A rewrite that passes ``x`` instead of ``k`` is
        then the same value exactly when ``x`` was not written in between."""
        chain = repeats.interleaved_chain(k, 1) if isinstance(k, fx.Node) else None
        if chain is None:
            return conv(k)
        x, nodes = chain
        if any(n in state.view.old_args or not state.view.has(n) for n in nodes):
            return conv(k)
        fresh = self.index.root(k, state.view)       # the copy k views (k itself if it is one)
        if fresh not in nodes or self.index.writers(fresh):
            return conv(k)
        return ("t", self.read(state, x, fresh))

    def _fresh_value(self, state, node, target, args, kwargs, operands) -> int:
        T, like = self.terms, fake_value(node)
        first = args[0] if args and isinstance(args[0], fx.Node) else None
        if target is torch.ops.aten.clone.default and first is not None:
            return self.read(state, first, node)
        if target is torch.ops.aten._to_copy.default and first is not None:
            src = fake_value(first)
            if src is not None and like is not None and src.dtype == like.dtype and src.device == like.device:
                return self.read(state, first, node)
        if target is torch.ops.aten.copy.default and len(args) >= 2 and isinstance(args[1], fx.Node):
            return self.convert(self.read(state, args[1], node), fake_value(args[0]), fake_value(args[1]))
        if op_facts.is_view_scatter_target(target) and first is not None and len(args) >= 2:
            base = self.read(state, first, node)
            src = self.read(state, args[1], node) if isinstance(args[1], fx.Node) else T.make(("const", _const_key(args[1])))
            base_like = fake_value(first)
            m = lm.scatter_map(node, base_like) if base_like is not None else None
            inner = None
            bd = T.defs[base]
            if bd[0] == "strided" and T.likes[bd[1]] is not None:
                inner = lm.scatter_map(node, T.likes[bd[1]], base_map=bd[2])
            return self.alg.scatter_with_inner(base, src, m, inner, like)
        if op_facts.view_op_of_view_copy(target) is not None and first is not None and fake_value(first) is not None:
            m = lm.view_copy_map(node, fake_value(first))
            return self.alg.strided(self.read(state, first, node), m, (), like, fallback=node)
        identity = _random_identity(node, target, args, kwargs)
        return T.make(_canonical_op(target, operands, identity), like)

    def convert(self, src: int, dst_like, src_like) -> int:
        """What ``copy_(dst, src)`` / ``aten.copy(dst, src)`` puts into ``dst``: ``src`` itself
        when shape and dtype agree, else ``src`` broadcast and cast."""
        if dst_like is None or src_like is None:
            return self.terms.make(("convert", src, None), dst_like)
        if lm.same_shape(dst_like.shape, src_like.shape) and dst_like.dtype == src_like.dtype:
            return src
        return self.terms.make(("convert", src, lm.shape_key(dst_like.shape), dst_like.dtype), dst_like)

    def _apply_writes(self, state, node, target, args, kwargs, written, operands) -> Optional[int]:
        """Apply ``node``'s writes to the state; the term of its own result where it has one
        that is not the memory it writes (a custom op's result), else None."""
        if functionalized.is_custom_op(target):
            whole = self.terms.make(_mutating_call(target, operands, node, kwargs, args))
            for name, items in functionalized.bound_written(target, args, kwargs):
                if items is None:
                    continue
                if isinstance(items, fx.Node):
                    self._write(state, node, items, self.terms.make(("proj", whole, ("written", name)), fake_value(items)))
                    continue
                listed = self.terms.make(("proj", whole, ("written", name)))
                for j, dst in enumerate(items):
                    if isinstance(dst, fx.Node):
                        self._write(state, node, dst, self.terms.make(("proj", listed, _const_key(j)), fake_value(dst)))
            if not target._schema.returns:
                return None
            return self.terms.make(("proj", whole, "result"), fake_value(node) if len(target._schema.returns) == 1 else None)
        if op_facts.is_copy_target(target):
            dst, src = args[0], args[1]
            if isinstance(src, fx.Node):
                value = self.convert(self.read(state, src, node), fake_value(dst), fake_value(src))
            else:
                value = self.terms.make(("fill", _const_key(src)), fake_value(dst))
            self._write(state, node, dst, value)
            return
        functional = op_facts.functional_variant(target) if op_facts.is_op_overload(target) else None
        name = functional if functional is not None else ("inplace", target)
        identity = _random_identity(node, target, args, kwargs)
        if len(written) == 1 and written[0] is args[0]:
            self._write(state, node, written[0], self.terms.make(_canonical_op(name, operands, identity),
                                                                 fake_value(written[0])))
            return
        whole = self.terms.make(("op", name, operands, identity))
        for i, dst in enumerate(written):
            self._write(state, node, dst, self.terms.make(("proj", whole, i), fake_value(dst)))

    def _write(self, state: _State, writer: fx.Node, dst: fx.Node, value: int) -> None:
        root, _ = self.index.chain(dst, state.view)
        self.start_tracking(root, writer)
        m = self.index.map(dst, state.view)
        if writer in state.view.deferred:
            state.pending.setdefault(root, []).append((writer, m, value))
        else:
            state.content[root] = self.alg.scatter(state.content[root], value, m, fallback=writer)
        state.writes.setdefault(root, []).append(writer)


#: Ops whose two tensor operands commute exactly (IEEE addition and multiplication are
#: commutative, and so are type promotion and broadcasting): their operand terms are sorted, so
#: ``add(d, x)`` and ``add(x, d)`` are one term (``add`` only with ``alpha`` 1).
_COMMUTATIVE = frozenset({torch.ops.aten.add.Tensor, torch.ops.aten.mul.Tensor})


#: Attention ops that take key and value (operands 1 and 2) with fewer heads (dimension 1) than
#: the query: query head ``h`` reads key/value head ``h // (query heads / key heads)``, so they
#: compute the same from ``x`` as from ``x.repeat_interleave(n, 1)`` (tests/engine/
#: test_grouped_heads.py runs each against the repeated form).
_GROUPED_HEADS = {torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default: (1, 2)}


def _random_identity(node: fx.Node, target, args, kwargs) -> Optional[str]:
    """A seeded random op draws new numbers at every call: its term is its own (the node's
    name), never equal to another call's.  Attention ops are seeded only for dropout, and with
    ``dropout_p`` the constant 0 draw nothing."""
    if not op_facts.is_nondeterministic(target):
        return None
    names = [a.name for a in target._schema.arguments]
    if "dropout_p" in names:
        bound = _bind(target, args, kwargs)
        p = bound[names.index("dropout_p")] if bound is not None else None
        if isinstance(p, (int, float)) and not isinstance(p, bool) and p == 0:
            return None
    return node.name


def _written_keys(views) -> List[tuple]:
    """``(name, item)`` of each written tensor of a v2 call (``item`` None for a lone tensor)."""
    out = []
    for name, info in views.items():
        if isinstance(info, list):
            out.extend((name, j) for j, v in enumerate(info) if v is not None)
        elif info is not None:
            out.append((name, None))
    return out


def _mutating_call(op, operands: tuple, node: fx.Node, kwargs, args=()) -> int:
    """The key of a call of a mutating custom op on ``operands`` (read as the call began), the
    same whether the call is functionalized or runs in place: its results and written values are
    projections of it.  A nondeterministic op's call is its own."""
    return ("op", ("mutating", op), operands, _random_identity(node, op, args, kwargs))


def _canonical_op(target, operands: tuple, identity) -> tuple:
    if target in _COMMUTATIVE and len(operands) >= 2 and all(o == 1 for o in operands[2:]):
        a, b = operands[0], operands[1]
        if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] == "t" and b[1] < a[1]:
            operands = (b, a) + tuple(operands[2:])
    return ("op", target, operands, identity)


def _bind(target, args, kwargs) -> Optional[list]:
    """Arguments in schema order with defaults filled in (so that ``f(x)`` and ``f(x, False)``
    compare equal); None without a schema."""
    if not op_facts.is_op_overload(target):
        return None
    out = []
    for i, a in enumerate(target._schema.arguments):
        if i < len(args):
            out.append(args[i])
        elif a.name in kwargs:
            out.append(kwargs[a.name])
        elif a.has_default_value():
            out.append(a.default_value)
        else:
            out.append(None)
    return out


def _written_in(target, args, kwargs) -> List[fx.Node]:
    if not op_facts.is_op_overload(target):
        return []
    schema_args = target._schema.arguments
    out = []
    for i in op_facts.written_argument_positions(target):
        value = args[i] if i < len(args) else kwargs.get(schema_args[i].name)
        out.extend(op_facts._nodes_in(value))
    return out


def _last_before(nodes: Sequence[fx.Node], at: fx.Node) -> Optional[fx.Node]:
    last = None
    for n in nodes:
        if n < at:
            last = n
        else:
            break
    return last
