"""Graph edits the built-in actions make, all through the candidate's transaction.

In-place forms come from the op schemas (:mod:`rewrite.analysis.facts.op_facts`), never from a
hand-written table: ``X_scatter(base, src, *args)`` becomes ``X(base, *args).copy_(src)``,
``op.overload(self, ...)`` becomes ``op_.overload(self, ...)``.  No edit may create an op
Inductor cannot compile (:mod:`rewrite.analysis.inductor.compilable`), on either base, so that the eager
base never accepts what Inductor would crash on.
"""
from __future__ import annotations

import operator
from typing import Optional, Tuple

import torch
import torch.fx as fx
from torch.fx.experimental.symbolic_shapes import statically_known_true

from rewrite.analysis.facts import functionalized, mutation
from rewrite.analysis.semantics import layout_maps
from rewrite.analysis.facts import op_facts
from rewrite.analysis.facts.op_facts import MATERIALIZED_COPY
from rewrite.analysis.facts.fake import fake_value
from rewrite.analysis.inductor import functionalized_calls
from rewrite.analysis.inductor.compilable import cannot_compile
from rewrite.engine import hop_actions
from rewrite.engine.errors import ActionError

aten = torch.ops.aten

#: How many rounds ``materialize_hazards`` repairs before it gives up.
HAZARD_ROUNDS = 8


class Editor:
    """The actions of one candidate: ``ctx.edit`` (``ctx.txn`` is its transaction)."""

    def __init__(self, ctx):
        self.ctx = ctx

    @property
    def txn(self):
        return self.ctx.txn

    def insert(self, target, args, kwargs=None, *, before=None, after=None, like=None) -> fx.Node:
        """Insert a call of ``target``; refuse ops Inductor cannot compile, and composites whose
        result may be their input though their schema says otherwise."""
        if isinstance(target, torch._ops.OpOverload):
            reason = cannot_compile(target) or op_facts.hidden_alias(target)
            if reason is not None:
                raise ActionError(reason)
        return self.txn.insert("call_function", target, args, kwargs, before=before, after=after, like=like)

    # ------------------------------------------------------------------ reinplacing

    def reinplace(self, node) -> None:
        if not isinstance(node, fx.Node) or node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
            raise ActionError(f"reinplace needs an ATen op node, got {node}")
        if op_facts.is_view_scatter(node):
            view_op = op_facts.view_op_for_scatter(node.target)
            if view_op is None:
                raise ActionError(f"no view op for {node.target}")
            base, src, *rest = _positional(node)
            view = self.insert(view_op, (base, *rest), before=node, like=node)
            self.insert(aten.copy_.default, (view, src), before=node, like=node)
            result = base
        else:
            op = op_facts.inplace_variant(node.target)
            if op is None:
                raise ActionError(f"{node.target} has no in-place variant")
            result = node.args[0]
            if not (op_facts.is_copy_target(op) and node.args[1] is result):  # copy_(x, x) does nothing
                self.insert(op, node.args, node.kwargs, before=node, like=node)
        self.txn.replace_uses(node, result)
        self.txn.erase(node)

    def write_back(self, call) -> None:
        if functionalized.is_functionalized_v2(call):
            return self._write_back_v2(call)
        if not functionalized.is_functionalized_call(call):
            raise ActionError(f"write_back needs an auto_functionalized call, got {call}")
        op = functionalized.wrapped_op(call)
        written = [n for _, n in functionalized.written_operands(call)]
        facts = self.ctx.facts
        for i, a in enumerate(written):
            if facts.internal_overlap(a):
                raise ActionError(f"{op} would write {a.name}, whose elements share memory")
            for b in written[i + 1:]:
                if a is b or facts.may_overlap(a, b):
                    raise ActionError(f"{op} would write {a.name} and {b.name}, which share memory")
        if facts.operands_overlap_write(call):
            self.copy_overlapping_arguments(call)
        kwargs = dict(call.kwargs)
        new = self.insert(op, (), kwargs, before=call, like=call)
        for item in list(call.users):
            role = functionalized.output_role(op, item.args[1]) if op_facts.is_getitem(item) else None
            if role is None:
                raise ActionError(f"{item.name} reads {call.name} other than by item")
            kind, which = role
            if kind == "result":
                value = new if which is None else self.insert(operator.getitem, (new, which), before=call, like=item)
                self.txn.replace_uses(item, value)
            elif isinstance(kwargs.get(which), fx.Node):
                self.txn.replace_uses(item, kwargs[which])
            elif isinstance(kwargs.get(which), (list, tuple)):
                for element in list(item.users):
                    if not op_facts.is_getitem(element) or not isinstance(element.args[1], int):
                        raise ActionError(f"{element.name} reads the list {item.name} other than by item")
                    self.txn.replace_uses(element, kwargs[which][element.args[1]])
                    self.txn.erase(element)
            elif item.users:
                raise ActionError(f"{item.name} reads {which}, which {call.name} was not given")
            self.txn.erase(item)
        self.txn.erase(call)

    def _write_back_v2(self, call) -> None:
        """``auto_functionalized_v2``: the op runs on the views of the bases its metadata
        describes (the base itself, a slice, or ``as_strided`` over a base whose storage
        addresses are its logical coordinates), and the new bases are the bases."""
        from torch._higher_order_ops.auto_functionalize import AliasViewInfo, AsStridedViewInfo, NotView, SliceViewInfo

        facts = self.ctx.facts
        if facts.operands_overlap_write(call):
            self.copy_overlapping_arguments(call)
        op = functionalized.wrapped_op(call)
        views = functionalized.v2_views(call)
        bases = list(call.kwargs.get("_all_bases") or ())

        def view(info):
            if info is None:
                return None
            base = bases[info.base_index]
            if isinstance(info, (NotView, AliasViewInfo)):
                return base
            if isinstance(info, SliceViewInfo):
                return self.insert(aten.slice.Tensor, (base, info.dim, info.start, info.end), before=call, like=call)
            if isinstance(info, AsStridedViewInfo):
                named = _view_named_by_offset(info, base, facts)
                if named is not None:
                    same, narrowed = named
                    for dim, size in narrowed:
                        same = self.insert(aten.slice.Tensor, (same, dim, 0, size), before=call, like=call)
                    return same
                if any(isinstance(v, fx.Node) for v in (*info.size, *info.stride, info.storage_offset)):
                    raise ActionError(f"{call.name} writes an as_strided view of {base.name} of symbolic addresses")
                like = fake_value(base)
                if like is None or not (layout_maps.fills_its_storage(like)
                                        and layout_maps.map_of_tensor(like) == layout_maps.identity_map(like.shape)):
                    raise ActionError(f"{call.name} writes as_strided addresses of {base.name}, which is not laid out "
                                      f"contiguously over all of its storage")
                return self.insert(aten.as_strided.default, (base, list(info.size), list(info.stride), info.storage_offset),
                                   before=call, like=call)
            raise ActionError(f"{call.name}: unknown view information {info!r}")

        kwargs = {}
        for a in op._schema.arguments:
            if a.name in views:
                info = views[a.name]
                kwargs[a.name] = [view(i) for i in info] if isinstance(info, list) else view(info)
            elif a.name in call.kwargs:
                kwargs[a.name] = call.kwargs[a.name]
        written = [n for name in functionalized.written_names(op) for n in mutation.nodes_in(kwargs.get(name))]
        for i, a in enumerate(written):
            if facts.internal_overlap(a):
                raise ActionError(f"{op} would write {a.name}, whose elements share memory")
            for b in written[i + 1:]:
                if a is b or facts.may_overlap(a, b):
                    raise ActionError(f"{op} would write {a.name} and {b.name}, which share memory")
        new = self.insert(op, (), kwargs, before=call, like=call)
        for item in list(call.users):
            role = functionalized.output_role(op, item.args[1], v2=True) if op_facts.is_getitem(item) else None
            if role is None or role[0] == "base" and role[1] >= len(bases):
                raise ActionError(f"{item.name} reads {call.name} other than by item")
            kind, which = role
            if kind == "result":
                value = new if which is None else self.insert(operator.getitem, (new, which), before=call, like=item)
                self.txn.replace_uses(item, value)
            else:
                self.txn.replace_uses(item, bases[which])
            self.txn.erase(item)
        self.txn.erase(call)

    def copy_overlapping_arguments(self, call) -> None:
        """Give a functionalized call a private copy of every argument it only reads that may
        share memory with what it writes, so that writing in place (ours, or Inductor's
        reinplacing after us) cannot change what it reads; and (v1) of every written argument
        whose new value nothing reads that shares memory with another written one (both merged
        into one tensor by noop removal), so that the two writes land in different memory."""
        if not (functionalized.is_any_functionalized_call(call) or functionalized.is_functionalized_hop_v2(call)):
            raise ActionError(f"copy_overlapping_arguments needs an auto_functionalized call, got {call}")
        written = functionalized.written_memory(call)
        facts, copies = self.ctx.facts, {}
        kwargs = dict(call.kwargs)
        if functionalized.is_functionalized_call(call):
            op = functionalized.wrapped_op(call)
            read = {functionalized.output_role(op, u.args[1]) for u in call.users if op_facts.is_getitem(u) and u.users}
            names = [n for n in functionalized.written_names(op) if isinstance(kwargs.get(n), fx.Node)]
            kept = [kwargs[n] for n in names if ("written", n) in read]      # values read later keep their memory
            for name in names:
                value = kwargs[name]
                if ("written", name) in read:
                    continue
                if any(value is k or facts.may_overlap(value, k) for k in kept):
                    kwargs[name] = copies.setdefault((name,), self.copy_of(value, before=call))
                else:
                    kept.append(value)
            written = [kwargs[name] if isinstance(kwargs.get(name), fx.Node) else None
                       for name in functionalized.written_names(op)]
            written = [w for w in written if w is not None] + [
                n for name in functionalized.written_names(op) if isinstance(kwargs.get(name), (list, tuple))
                for n in mutation.nodes_in(kwargs[name])]

        exact = functionalized.is_functionalized_hop_v2(call)     # as GraphFacts.operands_overlap_write

        def private(value):
            if isinstance(value, (list, tuple)):
                return type(value)(private(v) for v in value)
            if isinstance(value, fx.Node) and fake_value(value) is not None \
                    and any(value is w or (not exact and facts.may_overlap(value, w)) for w in written):
                if value not in copies:
                    copies[value] = self.copy_of(value, before=call)
                return copies[value]
            return value

        for name, value in functionalized.read_only_arguments(call):
            kwargs[name] = private(value)
        if not copies:
            raise ActionError(f"{call.name} reads nothing it writes, and writes no memory twice")
        self.txn.set_args(call, call.args, kwargs)

    def copy_written_inputs(self, call) -> None:
        """Give a functionalized call a private copy of every graph input (or view of one) it
        writes (v1: a written argument; v2: a base) that no later ``copy_`` into the input copies
        back: Inductor's reinplacing would clone it, and its clone assumes the input's traced
        layout (the storage offset of the tensor the program wrote, a copy noop removal merged
        into the input: fuzz program 495).  A v2 base some argument addresses by ``as_strided``
        is copied only where the copy lays its storage out alike."""
        if functionalized_calls.is_v2(call):
            return self._copy_written_bases(call)
        if not functionalized.is_functionalized_call(call):
            raise ActionError(f"copy_written_inputs needs an auto_functionalized call, got {call}")
        names = set(functionalized.written_names(functionalized.wrapped_op(call)))
        read = _read_argument_roots(call, names)
        if not self._copy_arguments(call, names, lambda value: not _copied_back_after(value, call)
                                    and layout_maps.chain_to(value)[0] not in read):
            raise ActionError(f"{call.name} writes no graph input that is not copied back")

    def _copy_arguments(self, call, names, wanted) -> bool:
        """Give the v1 call ``call`` a copy (taken just before it, one per tensor) of each tensor
        ``wanted`` accepts among its arguments ``names`` (list items included); False, and
        nothing changed, where there is none."""
        copies = {}

        def private(value):
            if isinstance(value, (list, tuple)):
                return type(value)(private(v) for v in value)
            if isinstance(value, fx.Node) and fake_value(value) is not None and wanted(value):
                if value not in copies:
                    copies[value] = self.copy_of(value, before=call)
                return copies[value]
            return value

        kwargs = {k: (private(v) if k in names else v) for k, v in call.kwargs.items()}
        if copies:
            self.txn.set_args(call, call.args, kwargs)
        return bool(copies)

    def _copy_written_bases(self, call) -> None:
        if functionalized.is_functionalized_hop_v2(call) and call.args[0] is torch.ops.higher_order.while_loop:
            # Inductor writes such a copy in place inside the loop, but orders the copy's later
            # readers by the buffer it allocated, not after the loop that writes it: the read of
            # the loop's new value ran before the loop (fuzz seed 163 p303; its own clone is right)
            raise ActionError(f"{call.name} is a `while_loop`, whose in-place writes into a copy of ours Inductor "
                              f"does not order the copy's later readers after")
        kwargs = dict(call.kwargs)
        bases = list(kwargs.get("_all_bases") or ())
        as_strided = _as_strided_bases(call)
        copies = {}
        read = _read_argument_roots(call, ())
        for i, base in enumerate(bases):
            if not isinstance(base, fx.Node) or fake_value(base) is None or _copied_back_after(base, call):
                continue
            if layout_maps.chain_to(base)[0] in read:
                continue                # an argument the call reads shares its memory (seed 103 p542)
            if (i in as_strided and not _starts_its_storage(base)) or _result_read_by_address(call, i):
                continue
            if base not in copies:
                copies[base] = self.copy_of(base, before=call)
            bases[i] = copies[base]
        if not copies:
            raise ActionError(f"{call.name} writes no graph input that is not copied back and that a copy "
                              f"would lay out alike")
        kwargs["_all_bases"] = bases
        self.txn.set_args(call, call.args, kwargs)

    def drop_identity_writes(self) -> None:
        """Fold the writes that change nothing, in graph order: a view scatter whose source is
        the very view of its base it writes (its users read the base), and ``copy_(x, x)``."""
        facts = self.ctx.facts
        for node in list(self.txn.graph.nodes):
            if node._erased or node in self.txn.to_erase:
                continue
            if op_facts.is_view_scatter(node) and facts.writes_own_view(node):
                self.txn.replace_uses(node, node.args[0])
                self.txn.erase(node)
            elif mutation.is_copy(node) and node.op == "call_function" and node.args[0] is node.args[1]:
                self.txn.replace_uses(node, node.args[0])
                self.txn.erase(node)

    def erase(self, node) -> None:
        if not isinstance(node, fx.Node):
            raise ActionError(f"erase needs a node, got {node!r}")
        if mutation.is_copy(node) and node.args[1] is node.args[0]:
            self.txn.replace_uses(node, node.args[0])       # copy_(x, x): nothing to keep
        elif mutation.is_copy(node) and not self.ctx.legality_enabled:
            raise ActionError(f"erasing {node.name} would drop the write of {node.args[1].name} into "
                              f"{node.args[0].name} (and the legality check is off)")
        elif mutation.is_copy(node):
            self.txn.replace_uses(node, node.args[0])
        elif any(u not in self.txn.to_erase for u in node.users):
            raise ActionError(f"cannot erase {node.name}: it has users")
        self.txn.erase(node)

    def erase_unused(self, node) -> None:
        """Erase ``node`` and, back through its operands, every value left without a reader;
        only pure computations (no write, no other effect) go."""
        if not isinstance(node, fx.Node):
            raise ActionError(f"erase_unused needs a node, got {node!r}")
        pending = [node]
        while pending:
            n = pending.pop()
            if n in self.txn.to_erase or not self._unused_pure(n):
                continue
            self.txn.erase(n)
            pending.extend(a for a in n.all_input_nodes if a not in pending)

    def _unused_pure(self, n: fx.Node) -> bool:
        if n.op != "call_function" or any(u not in self.txn.to_erase for u in n.users):
            return False
        return not mutation.written_operands(n) and not n.is_impure()

    def replace_uses(self, old, new) -> None:
        if not isinstance(old, fx.Node):
            raise ActionError(f"replace_uses needs a node, got {old!r}")
        self.txn.replace_uses(old, new)

    def move_before(self, node, anchor) -> None:
        if not isinstance(node, fx.Node) or not isinstance(anchor, fx.Node):
            raise ActionError(f"move_before needs two nodes, got {node!r} and {anchor!r}")
        if anchor < node:
            moved = self.txn.copy_node(node, lambda n: n, before=anchor)
            self.txn.replace_uses(node, moved)
            self.txn.erase(node)
            self.ctx.rebind(node, moved)

    def build(self, target, args, kwargs) -> fx.Node:
        """A result pattern: a new call of ``target`` before the rule's root node."""
        return self.insert(target, tuple(args), dict(kwargs), before=self.ctx.root_node, like=self.ctx.root_node)

    # ------------------------------------------------------------------ materializing

    def copy_of(self, value: fx.Node, *, before: Optional[fx.Node] = None, after: Optional[fx.Node] = None) -> fx.Node:
        """``rewrite::materialized_copy(value)``: a buffer of its own holding ``value``, which
        Inductor computes as an extern call it neither inlines nor fuses (see
        ``analysis/facts/op_facts.py``)."""
        if fake_value(value) is None:
            raise ActionError(f"{value.name} is not a tensor")
        if after is not None:
            return self.insert(MATERIALIZED_COPY, (value,), after=after, like=value)
        return self.insert(MATERIALIZED_COPY, (value,), before=before, like=value)

    def materialize(self, value) -> None:
        if not isinstance(value, fx.Node):
            raise ActionError(f"materialize needs a node, got {value!r}")
        users = [u for u in value.users if u not in self.txn.to_erase]
        writers = [u for u in users if value in op_facts.written_nodes(u)]
        first_write = min(writers) if writers else None
        copy = self.copy_of(value, after=value)
        for user in users:                  # reads only, up to the first write into `value`
            if first_write is None or not first_write < user:
                self.txn.replace_reads(user, value, copy)
        self.txn.replaced[value] = copy

    def materialize_for(self, value: fx.Node, reader: fx.Node) -> fx.Node:
        """Make ``reader`` read a copy of ``value`` taken right before it (where it writes
        ``value``, it still does: `index_put_(x, idx, x)`); returns the copy."""
        copy = self.copy_of(value, before=reader)
        self.txn.replace_reads(reader, value, copy)
        return copy

    def copy_late_reads(self, write) -> None:
        """Every alias of the memory ``write`` changes that is read after it, where the program
        read it before (``earlier_passes.late_reads``), is copied into a buffer of its own just
        before the first such write; those readers read the copy."""
        if not isinstance(write, fx.Node):
            raise ActionError(f"copy_late_reads needs a write node, got {write!r}")
        reads = self.ctx.facts.late_reads(write)
        if not reads:
            raise ActionError(f"nothing reads what {write.name} writes after it")
        self.copy_for_readers(reads)

    def copy_for_readers(self, reads) -> None:
        """For each read (``earlier_passes.LateRead`` or ``MisplacedOutput``): its reader reads a
        copy of what it read, taken before the write it came after (or, for an output in an
        input's memory, right before the output); one copy per value and place.  A finding that
        names what to return instead (``RegeneratedOutput.returns``) gets that, and no copy."""
        groups = {}
        for r in reads:
            if getattr(r, "returns", None) is not None:      # the output returns another node
                self._replace_output_items(r.reader, r.operand, r.returns, r.positions)
                continue
            readers = groups.setdefault((r.operand, r.anchor, getattr(r, "own_copy", None)), {})
            readers.setdefault(r.reader, set()).update(r.positions)
        for (operand, anchor, _), readers in groups.items():
            copy = self.copy_of(self._defined_before(operand, anchor), before=anchor)
            for reader, positions in readers.items():
                if reader.op == "output":
                    self._replace_output_items(reader, operand, copy, positions)
                else:
                    self.txn.replace_reads(reader, operand, copy)

    def _defined_before(self, value: fx.Node, anchor: fx.Node) -> fx.Node:
        """``value``, or its chain of views taken again just before ``anchor`` where ``value`` is
        computed after it (a view reads nothing until its reader does)."""
        if value < anchor:
            return value
        source = op_facts.alias_source(value)
        others = [n for n in value.all_input_nodes if n is not source]
        if source is None or not op_facts.is_view_node(value) or any(not n < anchor for n in others):
            raise ActionError(f"{value.name} is computed after {anchor.name}: no copy of it can be taken before")
        earlier = self._defined_before(source, anchor)
        return self.txn.copy_node(value, lambda n: earlier if n is source else n, before=anchor)

    def _replace_output_items(self, output: fx.Node, old: fx.Node, new: fx.Node, positions) -> None:
        items = output.args[0]
        if not isinstance(items, (list, tuple)):
            self.txn.set_args(output, (new,) + tuple(output.args[1:]))
            return
        changed = type(items)(new if i in positions and item is old else item for i, item in enumerate(items))
        self.txn.set_args(output, (changed,) + tuple(output.args[1:]))

    def materialize_hazards(self, writes=None) -> None:
        """Repair the lowering hazards of ``writes`` (default: the writes this transaction
        created, and the writes that read a node whose arguments it changed: a copy-back whose
        source now reads the memory it overwrites) by copying what is read."""
        if writes is None:
            writes = self.txn.writes_created()
            rewired = [n for n in self.txn.old_args if not n._erased and n not in self.txn.to_erase]
            for n in rewired:
                for w in [n, *n.users]:
                    if w not in writes and w not in self.txn.to_erase and w.op == "call_function" \
                            and op_facts.written_nodes(w):
                        writes.append(w)
        else:
            writes = list(writes)
        if not all(isinstance(w, fx.Node) for w in writes):
            raise ActionError(f"materialize_hazards needs write nodes, got {writes!r}")
        copies: dict = {}                # value -> the copy taken of it, for its other readers
        for _ in range(HAZARD_ROUNDS):
            model = self.ctx.facts.lowering_model(rewired=list(self.txn.old_args))
            hazards = model.hazards(writes, absent=self.txn.to_erase)
            if not hazards:
                return
            repaired: set = set()        # one copy per value a round: the next round sees it
            for hazard in hazards:
                self._repair(hazard, repaired, copies)
        raise ActionError("lowering hazards remain after materializing: " + hazards[0].describe())

    def _repair(self, hazard, repaired: set, copies: dict) -> None:
        if hazard.kind == "dtype_view":
            raise ActionError(hazard.describe())      # a copy of what is read cannot help
        reader, operand = hazard.reader, hazard.operand
        if reader is hazard.write or _numel(operand) <= _numel(reader):
            if (operand, reader) in repaired or reader in repaired:
                return
            repaired.add((operand, reader))
            # one copy for the readers of one value, taken where it is defined, where they can share it
            copy = copies.get(operand)
            if copy is not None and copy < reader and not _written_between(operand, copy, reader):
                self.txn.replace_reads(reader, operand, copy)
            elif _written_between(operand, _defined(operand), reader):
                copies[operand] = self.materialize_for(operand, reader)
            else:
                copies[operand] = self.copy_of(operand, after=_defined(operand))
                self.txn.replace_reads(reader, operand, copies[operand])
        else:
            if reader in repaired:
                return
            repaired.add(reader)
            users = list(reader.users)
            copy = self.copy_of(reader, after=reader)
            self.txn.replace_uses(reader, copy, where=lambda u: u in users)

    def privatize(self, node) -> None:
        """``node`` (a scatter or an indexed update) works on a private copy of its base; a
        functionalized call, on private copies of what Inductor would have it write in place."""
        if functionalized_calls.is_call(node):
            return self._privatize_call(node)
        if not isinstance(node, fx.Node) or not node.args or not isinstance(node.args[0], fx.Node):
            raise ActionError(f"privatize needs an op node with a tensor first argument, got {node!r}")
        if op_facts.is_private_copy(node.args[0], node):
            raise ActionError(f"{node.name} already works on a private copy of its base")
        copy = self.copy_of(node.args[0], before=node)
        self.txn.set_args(node, (copy, *node.args[1:]))

    def _privatize_call(self, call) -> None:
        """Copy each written argument (v1) or base (v2) Inductor's reinplacing would have
        ``call`` write in place: it then writes the copy, and the copy-backs after it stay."""
        decision = self.ctx.facts.simulation(call).decisions.get(call)
        if decision is None or not decision.in_place:
            raise ActionError(f"Inductor would not write anything of {call.name} in place")
        if functionalized_calls.in_place_into_private_copies(call, decision.in_place):
            raise ActionError(f"{call.name} already writes private copies")
        kwargs = dict(call.kwargs)
        if functionalized_calls.is_v2(call):
            bases = list(kwargs["_all_bases"])
            as_strided = _as_strided_bases(call)
            for i in decision.in_place:
                if op_facts.is_private_copy(bases[i], call):
                    continue                    # a copy of ours already (copy_inputs_a_call_writes)
                if (i in as_strided and not _starts_its_storage(bases[i])) or _result_read_by_address(call, i):
                    raise ActionError(f"{call.name} addresses storage of {bases[i].name} (as_strided), which a copy "
                                      f"would not lay out alike")
                bases[i] = self.copy_of(bases[i], before=call)
            kwargs["_all_bases"] = bases
        else:
            for name in decision.in_place:
                value = kwargs[name]
                kwargs[name] = [self.copy_of(v, before=call) if isinstance(v, fx.Node) else v for v in value] \
                    if isinstance(value, (list, tuple)) else self.copy_of(value, before=call)
        self.txn.set_args(call, call.args, kwargs)

    def privatize_cloned_arguments(self, call) -> None:
        """Copy each written argument of a v1 call that Inductor's reinplacing would not have
        it write in place (which its decomposition would clone)."""
        if not functionalized.is_functionalized_call(call):
            raise ActionError(f"privatize_cloned_arguments needs an auto_functionalized call, got {call}")
        decision = self.ctx.facts.simulation(call).decisions.get(call)
        in_place = set(decision.in_place) if decision is not None else set()
        names = set(functionalized.written_names(functionalized.wrapped_op(call))) - in_place
        if not self._copy_arguments(call, names, lambda value: not op_facts.is_private_copy(value, call)):
            raise ActionError(f"Inductor would clone no argument of {call.name} that is not already a private copy")

    # ------------------------------------------------------------------ higher-order ops

    def thread_as_carried(self, loop) -> None:
        hop_actions.thread_as_carried(self.ctx, loop)

    def return_from_branches(self, cond) -> None:
        hop_actions.return_from_branches(self.ctx, cond)


def _starts_its_storage(base: fx.Node) -> bool:
    """``base`` starts its storage and fills it: a copy of it (a fresh buffer) lays every
    element at the same storage offset, so an ``as_strided`` view of it addresses alike."""
    like = fake_value(base)
    return like is not None and statically_known_true(like.storage_offset() == 0) \
        and layout_maps.fills_its_storage(like)


def _as_strided_bases(call) -> set:
    """The bases of a v2 call some written argument is an ``as_strided`` view of (its
    regeneration addresses the base's storage, not its coordinates)."""
    from torch._higher_order_ops.auto_functionalize import AsStridedViewInfo

    try:
        infos = functionalized.v2_view_infos(call)
    except Exception:  # noqa: BLE001 - views not known: every base counts
        return set(range(len(call.kwargs.get("_all_bases") or ())))
    return {i.base_index for i in infos if isinstance(i, AsStridedViewInfo)}


def _result_read_by_address(call, i: int) -> bool:
    """The new value of ``call``'s base ``i`` (an item of its result) is read by storage address
    where a copy of the base, dense at offset 0, would not lay it out as its fake value says: the
    item is faked as the base is (``clone_preserve_strides`` of it), and a copy of a base that does
    not fill its storage is laid out otherwise.  Read by address: through the item or a view of
    it, as a later v2 call's base (it regenerates a written view by ``as_strided``: fuzz seed 19
    p35, a ``cond`` given a compact copy of a strided input, then a call on ``x[1::2]`` of its
    result; or clones it by its fake offset: seed 191 p50, a ``cond``'s result for a row range at
    offset 3 handed to a v2 op, which cloned 15 elements of our 12-element copy), as an argument
    of a later v1 call (its decomposition clones written arguments so), or by ``as_strided``."""
    for item in call.users:
        if layout_maps.v2_base_result(item) != (call, i):
            continue
        like = fake_value(item)
        if like is not None and layout_maps.fills_its_storage(like):
            continue                            # faked dense at offset 0, as the copy is
        for view in op_facts.self_and_views(item):
            for user in view.users:
                if functionalized.is_functionalized_v2(user) or functionalized.is_functionalized_hop_v2(user) \
                        or functionalized.is_functionalized_call(user) or layout_maps.addresses_storage(user):
                    return True
    return False


def _view_named_by_offset(info, base: fx.Node, facts) -> Optional[Tuple[fx.Node, list]]:
    """Under symbolic shapes a v2 view's storage offset is ``sym_storage_offset(v)`` of a view
    ``v`` of ``base``'s storage the program made (Inductor's own ``as_strided`` over a symbolic
    offset of a view is not to be trusted: pytorch issue 198031's family, fuzz seed 11 p53 and
    seed 0 p609).  Where the written view has ``v``'s strides and, in every dimension, provably
    no more elements, it is ``v`` cut to its sizes (the leading piece of a split of ``v`` shares
    its offset): ``(v, [(dim, size), ...])``, the dimensions to narrow; None where it is not."""
    off = info.storage_offset
    if not (isinstance(off, fx.Node) and off.target is torch.ops.aten.sym_storage_offset.default and off.args):
        return None
    v = off.args[0]
    like = fake_value(v) if isinstance(v, fx.Node) else None
    if like is None or not facts.same_storage(v, base) or len(info.size) != like.dim():
        return None

    def val(x):
        return x.meta.get("val") if isinstance(x, fx.Node) else x

    def key(values):
        return tuple(layout_maps.dim_key(val(x)) for x in values)

    if key(info.stride) != key(like.stride()):
        return None
    narrowed = []
    for dim, (size, have) in enumerate(zip(info.size, like.shape)):
        if layout_maps.dim_key(val(size)) == layout_maps.dim_key(have):
            continue
        if val(size) is None or not statically_known_true(val(size) <= have):
            return None
        narrowed.append((dim, size))
    return v, narrowed


def _read_argument_roots(call: fx.Node, written_names) -> set:
    """The memory roots of the tensors a functionalized call is given to read only (v1: its
    arguments but ``written_names``; v2: its arguments but the bases and their views' metadata).
    A private copy of a written input whose memory one of them shares would part them, where the
    op (a ``cond`` whose branch writes one operand and then reads the other) sees its own writes
    through the other (seed 103 p542: aliased inputs, stock right, aot_eager wrong)."""
    roots = set()
    for name, value in call.kwargs.items():
        if name in written_names or name.startswith("_"):
            continue
        for node in (value if isinstance(value, (list, tuple)) else [value]):
            if isinstance(node, fx.Node) and isinstance(fake_value(node), torch.Tensor):
                roots.add(layout_maps.chain_to(node)[0])
    return roots


def _copied_back_after(value: fx.Node, call: fx.Node) -> bool:
    """``value`` is no graph input nor a view of one, or a ``copy_`` into it (or into the input
    it views) follows ``call``; into the input itself, a copy of what ``call`` wrote there
    (Inductor's reinplacing writes into an input that any later copy_ overwrites, even with
    another value: fuzz seed 11 p19)."""
    chain = [value]
    while mutation.view_source(chain[-1]) is not None:
        chain.append(mutation.view_source(chain[-1]))
    if chain[-1].op != "placeholder":
        return True

    def from_call(src) -> bool:
        return isinstance(src, fx.Node) and op_facts.is_getitem(src) and src.args[0] is call

    return any(mutation.is_copy(u) and u.args[0] is n and call < u and (n is not value or from_call(u.args[1]))
               for n in chain for u in n.users)


def _numel(node: fx.Node):
    """Elements of a node's value, by size hint on symbolic shapes (to choose between two
    copies; nothing is specialized)."""
    val = fake_value(node)
    if val is None:
        return float("inf")
    n = val.numel()
    return n if isinstance(n, int) else (n.node.hint if n.node.hint is not None else float("inf"))


def _positional(node: fx.Node) -> Tuple:
    """All schema arguments in order, defaults filled in (the view op takes them positionally)."""
    values = []
    for name, value in mutation.bound_arguments(node):
        if value is mutation.MISSING:
            raise ActionError(f"{node.name}: missing argument {name}")
        values.append(value)
    return tuple(values)


def _defined(value: fx.Node) -> fx.Node:
    """Where a copy of ``value`` can be taken first: after it, or after the last input."""
    if value.op != "placeholder":
        return value
    return value.graph.find_nodes(op="placeholder")[-1]


def _written_between(value: fx.Node, start: fx.Node, end: fx.Node) -> bool:
    """Some node after ``start`` and before ``end`` writes memory ``value`` lives in."""
    root = layout_maps.chain_to(value)[0]
    node = start.next
    while node is not end and node.op != "output":
        if any(layout_maps.chain_to(w)[0] is root for w in op_facts.written_nodes(node)):
            return True
        node = node.next
    return False
