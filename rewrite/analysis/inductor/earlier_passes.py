"""What Inductor's passes before ours did to a post-grad graph, found and judged.

Between the graph AOTAutograd produces and the one our post-grad pass receives, Inductor runs
functional passes: its joint-graph passes (noop removal, constant folding, pattern passes), the
partitioner, and its post-grad passes up to ours (noop removal again, pattern passes, reordering).
They treat the graph as a pure data flow; it is not one.  AOTAutograd's copy-back epilogue writes
mutated inputs in the graph (``copy_(a, a * 2)``), and the runtime hands the outputs, and the
tensors saved for backward, to their readers as they are.  Noop removal replaces a copy whose
value equals its source (``clone``, a ``_to_copy`` to the same dtype, ``x + 0``...) by the source
itself: ``old = a.clone(); a.mul_(2); return old[3:5].clone()`` reaches us as ``return a[3:5]``
after ``copy_(a, a * 2)`` (pytorch issue 198031 for custom ops).  The guard meant to stop it (an
output must not become an input's memory) looks at the storage of each node's fake value, which
still names the copy it dropped.

The graph still says what the program means when read *functionally*: the epilogue's writes
after every read (the legality check's "before" reading).  Two things can differ from that once
the graph runs as it is:

* **late reads**: a node, or the output, reads memory an epilogue write changes, after that
  write, through an alias not derived from it (:func:`late_reads`);
* **outputs in an input's memory**: an output AOTAutograd returns as a tensor of its own is an
  input's memory (the caller's result would alias its argument), or a tensor saved for backward
  is the memory of an input the runtime writes after the graph (:func:`misplaced_outputs`) or
  in the memory of another such output it did not share memory with before the passes
  (:func:`record_joint_outputs`, below);
* **outputs out of an input's memory**: an output AOTAutograd regenerates from an input with
  its own layout is the input's final value in memory of its own (:func:`regenerated_outputs`;
  AOTAutograd's doing, not a pass's, found and repaired here with the others).

Rules repair what they can (``rules/inductor.rules``), the engine's net the rest (a copy of what
is read, taken before the write), and :func:`functional_reading_kept` confirms with the semantic
model that the graph as it runs computes what its functional reading does.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import torch
import torch.fx as fx
from torch.fx.experimental.symbolic_shapes import statically_known_true

from rewrite.analysis.facts import op_facts
from rewrite.analysis.facts.fake import fake_value
from rewrite.analysis.inductor.outputs import output_items, output_node, runtime_written_inputs
from rewrite.analysis.facts.op_facts import op_display_name
from rewrite.analysis.semantics import layout_maps as lm
from rewrite.analysis.semantics.aliases import AliasIndex
from rewrite.analysis.semantics.comparison import Comparison
from rewrite.analysis.semantics.evaluation import GraphView
from rewrite.analysis.semantics.terms import Terms

#: The pass the damage comes from, as reports name it.
CULPRIT = "a functional pass of Inductor's before ours (noop removal) dropped the copy the program made"


@dataclass(frozen=True)
class LateRead:
    """``reader`` reads ``operand`` (an alias of memory ``write`` changes) after ``write``; the
    program meant the value before it.  ``positions``: the output items, when the reader is the
    output."""

    write: fx.Node
    reader: fx.Node
    operand: fx.Node
    positions: Tuple[int, ...] = ()

    @property
    def anchor(self) -> fx.Node:
        """Where a copy of what is read must be taken: before the write."""
        return self.write

    culprit = CULPRIT

    @property
    def remedy(self) -> str:
        return f"it reads a copy taken before `{self.anchor.name}` instead"

    def describe(self) -> str:
        who = (f"output {', '.join(map(str, self.positions))}" if self.reader.op == "output"
               else f"`{self.reader.name}` ({_op(self.reader)})")
        return (f"{who} reads `{self.operand.name}` after `{self.write.name}` ({_op(self.write)}) overwrote it; "
                f"the program read it before")


class _OutputItem:
    """A finding about output item ``position`` (node ``node``) of the output node ``reader``."""

    @property
    def operand(self) -> fx.Node:
        return self.node

    @property
    def anchor(self) -> fx.Node:
        return self.reader

    @property
    def positions(self) -> Tuple[int, ...]:
        return (self.position,)


@dataclass(frozen=True)
class MisplacedOutput(_OutputItem):
    """Output item ``position`` (node ``node``) is the memory of input ``input``, which it is
    not in the program."""

    position: int
    node: fx.Node
    input: fx.Node
    saved: bool           # a tensor saved for backward (written by the runtime after the graph)
    reader: fx.Node = None    # the output node
    shares_with: Optional[int] = None    # the item shares memory with output ``shares_with`` (``input`` is None)

    culprit = CULPRIT

    @property
    def remedy(self) -> str:
        return f"it reads a copy taken before `{self.anchor.name}` instead"

    @property
    def own_copy(self) -> Optional[int]:
        """A copy for this position alone (an item that is also an earlier output)."""
        return self.position if self.shares_with is not None else None

    def describe(self) -> str:
        if self.shares_with is not None:
            return (f"output {self.position} (`{self.node.name}`) shares memory with output {self.shares_with}, "
                    f"where the program returns two tensors of their own")
        if self.saved:
            return (f"output {self.position} (`{self.node.name}`, saved for backward) is the memory of input "
                    f"`{self.input.name}`, which AOTAutograd writes after the graph")
        return (f"output {self.position} (`{self.node.name}`) is the memory of input `{self.input.name}`, "
                f"where the program returns a tensor of its own")


@dataclass(frozen=True)
class RegeneratedOutput(_OutputItem):
    """Output item ``position`` (node ``node``, memory of its own) is the final value of input
    ``input``, which AOTAutograd returns as an alias of that input; it regenerates the alias from
    the input with the item's own layout where it has no views to replay (an input returned
    whole, remapped when aliased inputs share a synthetic base), so the caller gets the input's
    storage at the item's offset (seed 71 p209: offset 0 of a view at offset 12).  ``write``:
    the copy of the item into the input, which is the input itself."""

    position: int
    node: fx.Node
    input: fx.Node
    write: fx.Node
    reader: fx.Node = None    # the output node

    @property
    def returns(self) -> fx.Node:
        """What the output returns instead: the input, after the copy."""
        return self.write

    culprit = "AOTAutograd's runtime would return the input's storage at the item's offset"

    @property
    def remedy(self) -> str:
        return f"it returns `{self.input.name}` after `{self.write.name}` instead"

    def describe(self) -> str:
        return (f"output {self.position} (`{self.node.name}`) is the value copied into input `{self.input.name}` "
                f"by `{self.write.name}`, in memory of its own, and AOTAutograd regenerates it from that input "
                f"with its layout")


# --------------------------------------------------------------------------- findings


def late_reads(graph: fx.Graph, original_writes: Iterable[fx.Node], roles: Sequence[str] = ()) -> List[LateRead]:
    """Reads that see an original write the functional reading puts after them.  ``roles``:
    :func:`output_roles` (output items AOTAutograd regenerates from the input, ``"alias"``, read
    the input as it ends, which is what the graph does)."""
    return [read for read, _ in late_reads_with_writes(graph, original_writes, roles)]


def late_reads_with_writes(graph: fx.Graph, original_writes: Iterable[fx.Node], roles: Sequence[str] = ()):
    """``(late read, the original writes into the memory read that come before its reader)``
    for every late read (see :func:`late_reads`; the read names the first of the writes)."""
    writes_into: Dict[fx.Node, List[fx.Node]] = {}
    for w in sorted(n for n in original_writes if not n._erased):
        for dst in op_facts.written_nodes(w):
            writes_into.setdefault(op_facts.root_of(dst), []).append(w)
    items = None
    for root, writes in writes_into.items():
        for alias in _aliases_not_through(root, set(writes)):
            for reader in alias.users:
                if op_facts.alias_source(reader) is alias or reader in writes and not _reads(reader, alias):
                    continue
                if reader.op != "output" and not _reads(reader, alias):
                    continue
                before = [w for w in writes if reader.op == "output" or w < reader]
                if not before:
                    continue
                positions: Tuple[int, ...] = ()
                if reader.op == "output":
                    items = output_items(graph) if items is None else items
                    positions = tuple(i for i, item in enumerate(items)
                                      if item is alias and (i >= len(roles) or roles[i] != "alias"))
                    if not positions:
                        continue
                yield LateRead(before[0], reader, alias, positions), before


def misplaced_outputs(graph: fx.Graph, roles: Sequence[str],
                      joint_groups: Optional[Sequence[Optional[int]]] = None) -> List[MisplacedOutput]:
    """Output items in an input's memory where the program has memory of their own, or in the
    memory of another output where the program has two of their own (see the module docstring).
    ``joint_groups``: which items shared memory before Inductor's passes
    (:func:`joint_output_groups`), where known."""
    runtime_written = runtime_written_inputs(graph)
    output = output_node(graph)
    out, first, first_in_root = [], {}, {}
    for i, item in enumerate(output_items(graph)):
        if i >= len(roles) or not isinstance(item, fx.Node) or fake_value(item) is None:
            continue
        if roles[i] == "own" and item in first:     # noop removal made two clones one node (seed 83 p75)
            out.append(MisplacedOutput(i, item, None, False, output, shares_with=first[item]))
            continue
        root = op_facts.root_of(item)
        if roles[i] == "own":
            first.setdefault(item, i)
            other = _own_output_sharing(i, root, first_in_root, joint_groups)
            if other is not None and root.op != "placeholder":   # noop removal merged two clones' memory (seed 37 p74)
                out.append(MisplacedOutput(i, item, None, False, output, shares_with=other))
                continue
        if root.op != "placeholder":
            continue
        if roles[i] == "own":
            out.append(MisplacedOutput(i, item, root, False, output))
        elif roles[i] == "saved" and root in runtime_written:
            out.append(MisplacedOutput(i, item, root, True, output))
    return out


def _own_output_sharing(i: int, root: fx.Node, first_in_root: Dict[fx.Node, List[int]],
                        joint_groups: Optional[Sequence[Optional[int]]]) -> Optional[int]:
    """An earlier own output item in memory ``root`` that was in other memory than item ``i``
    before Inductor's passes, or None; notes item ``i`` under ``root``."""
    earlier = first_in_root.setdefault(root, [])
    earlier.append(i)
    if joint_groups is None or i >= len(joint_groups) or joint_groups[i] is None:
        return None
    return next((k for k in earlier[:-1] if k < len(joint_groups) and joint_groups[k] is not None
                 and joint_groups[k] != joint_groups[i]), None)


def regenerated_outputs(graph: fx.Graph, roles: Sequence[str],
                        bases: Sequence[Optional[fx.Node]]) -> List[RegeneratedOutput]:
    """Output items AOTAutograd returns as an alias of input ``bases[i]`` that are, in memory of
    their own, the value a whole copy writes into that input last (see
    :class:`RegeneratedOutput`); returning the input after that copy is the same value in the
    alias's own layout."""
    output = output_node(graph)
    out = []
    for i, item in enumerate(output_items(graph)):
        base = bases[i] if i < len(bases) else None
        if base is None or i >= len(roles) or roles[i] != "alias" or not isinstance(item, fx.Node) \
                or op_facts.root_of(item).op == "placeholder":
            continue
        write = _last_whole_copy(graph, base, item)
        if write is not None:
            out.append(RegeneratedOutput(i, item, base, write, output))
    return out


def _last_whole_copy(graph: fx.Graph, base: fx.Node, value: fx.Node) -> Optional[fx.Node]:
    """The ``copy_(base, value)`` of the whole of ``base`` after which nothing writes the memory
    of either, or None."""
    copies = [n for n in base.users if n.op == "call_function" and n.target is torch.ops.aten.copy_.default
              and n.args[0] is base and len(n.args) > 1 and n.args[1] is value]
    if len(copies) != 1 or not _same_shape(base, value):
        return None
    roots = {base, op_facts.root_of(value)}
    later = copies[0].next
    while later.op != "output":
        if any(op_facts.root_of(w) in roots for w in op_facts.written_nodes(later)):
            return None
        later = later.next
    return copies[0]


def _same_shape(a: fx.Node, b: fx.Node) -> bool:
    fa, fb = fake_value(a), fake_value(b)
    if not isinstance(fa, torch.Tensor) or not isinstance(fb, torch.Tensor) or fa.dim() != fb.dim():
        return False
    return all(statically_known_true(x == y) for x, y in zip(fa.shape, fb.shape))


def functional_reading_kept(graph: fx.Graph, original_writes: Iterable[fx.Node], roles: Sequence[str] = ()) -> str:
    """Why the graph as it runs computes something else than its functional reading ("" when it
    does not): the semantic model evaluates both readings (the original writes after every read,
    and FX order) from those writes on, and compares every output AOTAutograd does not
    regenerate and the final content of every input."""
    writes = [n for n in original_writes if not n._erased]
    if not writes:
        return ""
    output = output_node(graph)
    masked: Dict[fx.Node, Tuple[tuple, dict]] = {}
    if output is not None and any(r == "alias" for r in roles):
        items = output_items(graph)
        kept = tuple(None if i < len(roles) and roles[i] == "alias" else item for i, item in enumerate(items))
        masked[output] = ((kept,) + tuple(output.args[1:]), dict(output.kwargs))
    functional = GraphView("functional", old_args=dict(masked), deferred=set(writes))
    as_run = GraphView("as run", old_args=dict(masked))
    divergence = Comparison(functional, as_run, writes, AliasIndex(graph), Terms()).run()
    return divergence.message if divergence is not None else ""


# --------------------------------------------------------------------------- outputs before the passes
#
# Which outputs were memory of their own before Inductor's passes ran.
#
# Noop removal (in Inductor's joint-graph passes and again in its post-grad passes) replaces a
# ``clone`` by its source, and its guard against new aliasing only compares the storages the
# outputs had before the pass: two outputs that are clones of views of one buffer both lose
# their clones and reach our post-grad pass as two views of that buffer (fuzz seed 37 p74:
# ``t2 = x0.clone(); o5 = x1.clone().clone()``, with ``x0`` and ``x1`` overlapping views of one
# tensor).  After the pass, two outputs AOTAutograd returns as tensors of their own that share a
# buffer cannot be told from outputs that do share one in the program (views of one intermediate
# that AOTAutograd does not see as aliases: seed 0 p460), so the memory each output is in is
# recorded here from the graph our joint-stage pass receives, before every pass that may drop a
# copy, and read back by :func:`misplaced_outputs` for the inference or forward graph
# compiled from it next, in the same compilation (Dynamo's tracing context).

#: One memory group per output item of the joint or inference graph, None for items that are
#: not tensors.  The first items of a joint graph are its forward outputs (the new values of
#: mutated inputs, then the user's outputs), the first items of the forward graph partitioned
#: from it too; a training step's joint passes run before AOTAutograd's metadata is set.
JointGroups = Tuple[Optional[int], ...]

_JOINT_KEPT = 64                 # compiles whose records are kept (a compile reads its own back at once)
_joint_records: "OrderedDict[int, Tuple[object, JointGroups]]" = OrderedDict()


def record_joint_outputs(graph: fx.Graph) -> Optional[JointGroups]:
    """Record which of ``graph``'s output items share memory (the joint or inference graph,
    before Inductor's passes), for the compilation under way; returns the groups (None outside
    a compilation, and for a higher-order op's function, whose inputs AOTAutograd does not
    describe: Inductor runs the joint passes on such functions too, some after the graph's own)."""
    context = _tracing_context()
    if context is None or not all("desc" in p.meta for p in graph.find_nodes(op="placeholder")):
        return None
    roots = {}
    groups = tuple(roots.setdefault(op_facts.root_of(item), len(roots)) if _is_tensor_node(item) else None
                   for item in output_items(graph))
    _joint_records[id(context)] = (context, groups)
    _joint_records.move_to_end(id(context))
    while len(_joint_records) > _JOINT_KEPT:
        _joint_records.popitem(last=False)
    return groups


def joint_output_groups() -> Optional[JointGroups]:
    """The groups of the last graph recorded in the compilation under way, or None.  Its
    inference or forward graph is compiled right after its joint passes, before another graph."""
    context = _tracing_context()
    entry = _joint_records.get(id(context)) if context is not None else None
    return entry[1] if entry is not None and entry[0] is context else None


def _tracing_context():
    try:
        from torch._guards import TracingContext

        return TracingContext.try_get()
    except Exception:  # noqa: BLE001 - another torch: record nothing
        return None


def _is_tensor_node(item) -> bool:
    return isinstance(item, fx.Node) and isinstance(item.meta.get("val"), torch.Tensor)


# --------------------------------------------------------------------------- helpers


def _aliases_not_through(root: fx.Node, writes: Set[fx.Node]) -> List[fx.Node]:
    """``root`` and the nodes aliasing it, except those derived from one of ``writes`` (they
    read the memory after that write, as they should)."""
    return op_facts.self_and_views(root, stop=writes)


def _reads(node: fx.Node, operand: fx.Node) -> bool:
    if node.op != "call_function":
        return True
    if not op_facts.is_op_overload(node.target):
        return True
    return any(a is operand for a in op_facts._nodes_in(op_facts.read_arguments(node)))


def _op(node: fx.Node) -> str:
    return op_display_name(node.target) if node.op == "call_function" else node.op


#: ``node.meta`` key of a node that addresses storage (``layout_maps.storage_addressed_operands``):
#: the names of the graph inputs whose storage its operands addressed through a functional update
#: in the graph AOTAutograd made, before Inductor's passes (``record_inputs_addressed``).
INPUTS_ADDRESSED_BEFORE_PASSES = "rewrite_inputs_addressed_before_passes"


def record_inputs_addressed(graph: fx.Graph) -> None:
    """Record ``INPUTS_ADDRESSED_BEFORE_PASSES`` on ``graph``'s storage-addressing nodes (the
    joint pass: before noop removal can drop an update, a ``copy(x, src)`` that becomes ``src``)."""
    for node in graph.nodes:
        names = set()
        for operand, _ in lm.storage_addressed_operands(node):
            updates, memory = lm.storage_chain(operand)
            if updates and memory.op == "placeholder" and lm.operand_reading_differs(node, operand):
                names.add(memory.name)
        if names:
            node.meta[INPUTS_ADDRESSED_BEFORE_PASSES] = frozenset(names)


def input_updates_dropped(graph: fx.Graph) -> str:
    """Why a storage-addressing node no longer reaches an input it reached through an update
    before Inductor's passes ("" if none does): the update is gone, and the functional form
    addresses a fresh tensor of its own where the program addressed the input's storage, which
    no in-place write can give back (fuzz seed 197 p463: ``x1.copy_(new)`` written back from a
    ``cond``, then ``x1.as_strided(...)`` of a row range at offset 1; noop removal made
    ``copy(x1, new)`` the fresh ``new``).  A backward graph, whose inputs are not the joint
    graph's, is not judged."""
    inputs = {p.name for p in graph.find_nodes(op="placeholder")}
    for node in graph.nodes:
        names = node.meta.get(INPUTS_ADDRESSED_BEFORE_PASSES)
        if not names or not names & inputs:
            continue
        for operand, _ in lm.storage_addressed_operands(node):
            memory = lm.storage_chain(operand)[1]
            if not (memory.op == "placeholder" and memory.name in names):
                return (f"`{node.name}` addressed the storage of input `{sorted(names)[0]}` through an update of it "
                        f"before Inductor's passes, and addresses the storage of `{memory.name}` now: {CULPRIT}, "
                        f"and the functional form addresses a fresh tensor of its own")
    return ""
