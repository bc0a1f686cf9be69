"""The built-in vocabulary: predicates, functions, actions, node attributes and fact tables.

Each is declared once, here: its parameters' kinds (annotations), the fact tables it needs, the
stages it may be used in, and its documentation (docstring, which ``docs/language.md`` shows).
The bodies are thin: analyses live in ``ctx.facts`` (:class:`rewrite.analysis.graph_facts.GraphFacts`),
graph edits in ``ctx.edit`` (:class:`rewrite.engine.actions.Editor`), so this module needs no torch.
"""
from __future__ import annotations

from rewrite.stages import ATEN_STAGES, POST_GRAD
from rewrite.vocab.registry import (
    Any, Const, List, Node, Number, OptNode, Path, action, attribute, fact_table, function, predicate,
)

# --------------------------------------------------------------------------- fact tables

fact_table("saved_for_backward", ("output", "input", "both", "none"), """
    Which tensors an op keeps for its backward: ``output`` (its result), ``input`` (its
    operands), ``both``, or ``none``.  Read by ``saved_for_backward``.""")

fact_table("materialized", ("extern", "buffered"), """
    Ops whose result Inductor always materializes in a buffer of its own: ``extern`` kernels
    (BLAS, oneDNN, cuDNN, attention kernels), read by ``realized`` and by the legality check's
    model of what Inductor computes lazily; ``buffered`` ops Inductor lowers itself into a buffer
    (reductions, scans, sorts, scatters), read by ``realized_before_copy`` only.""")

# --------------------------------------------------------------------------- predicates


@predicate()
def is_input(ctx, x: Any) -> bool:
    """x is a graph input (a placeholder)."""
    return ctx.facts.is_input(x)


@predicate()
def is_const(ctx, x: Any) -> bool:
    """x is a constant: not a graph node (a number, string, None, list of constants)."""
    return ctx.facts.is_const(x)


@predicate()
def is_view(ctx, x: Node) -> bool:
    """x is a view of another node's memory (by op schema alias annotations or fake-tensor storage)."""
    return ctx.facts.is_view(x)


@predicate()
def copied_back(ctx, value: Node, base: Node) -> bool:
    """A later ``copy_(base, value)`` writes ``value`` back into ``base`` (directly or into a view of it)."""
    return ctx.facts.copy_back(base, value) is not None


@predicate(needs=("materialized",))
def realized(ctx, x: Node) -> bool:
    """x is materialized anyway: a graph input or output, the target of a write, or made by an op
    the ``materialized`` fact table lists under ``extern`` (ops Inductor cannot fuse)."""
    return ctx.facts.realized(x, ctx.fact_table("materialized"))


@predicate()
def used_after(ctx, x: Node, n: Node) -> bool:
    """x, or a view of x, is read by some node that comes after n in graph order (reads through
    n itself, when n is a view of x, are n's own and do not count)."""
    return ctx.facts.used_after(x, n)


@predicate()
def alias_used_between(ctx, x: Node, a: Node, b: OptNode) -> bool:
    """Some alias of x's memory (x itself or any view of the same storage) is read by a node
    strictly after a and before b in graph order, other than the nodes this match rewrites.
    b may be ``None`` for "until the end of the graph"."""
    return ctx.facts.alias_used_between(x, a, b, exclude=ctx.matched_nodes())


@predicate()
def overlaps(ctx, a: Node, b: Node) -> bool:
    """The memory a and b cover may overlap.  For a view-scatter node, its memory is the region
    of its base it writes.  Decided exactly on concrete shapes, with sympy on symbolic ones, and
    answered "may overlap" whenever disjointness cannot be proven."""
    return ctx.facts.may_overlap(a, b)


@predicate()
def operands_overlap_write(ctx, node: Node) -> bool:
    """Some operand of ``node`` other than the one it writes may share memory with what it writes
    (a view scatter writes its destination region; other ops their first operand).  Writing in
    place would then read values it has already overwritten."""
    return ctx.facts.operands_overlap_write(node)


@predicate()
def undoes_view(ctx, w: Node, v: Node) -> bool:
    """The view ``w`` is the inverse of the view ``v``: ``v`` then ``w`` maps ``v``'s source onto
    exactly its own sizes, strides and offset (``permute`` by inverse dims, ``view`` back to the
    original shape...)."""
    return ctx.facts.undoes_view(w, v)


@predicate()
def internal_overlap(ctx, x: Node) -> bool:
    """Several elements of x share one memory location (e.g. an ``expand``ed tensor)."""
    return ctx.facts.internal_overlap(x)


@predicate()
def same_layout(ctx, a: Node, b: Node) -> bool:
    """a and b have the same dtype, shape and strides."""
    return ctx.facts.same_layout(a, b)


@predicate()
def same_storage(ctx, a: Node, b: Node) -> bool:
    """a and b are views of the same storage."""
    return ctx.facts.same_storage(a, b)


@predicate()
def mutated(ctx, subgraph: Node, operand: Node) -> bool:
    """The subgraph (a ``get_attr`` of a higher-order op) writes into the placeholder that
    receives ``operand`` (or into a view of it), directly or in a nested higher-order op."""
    return ctx.facts.subgraph_mutates(ctx.root, subgraph, operand)


@predicate(needs=("saved_for_backward",))
def saved_for_backward(ctx, x: Node) -> bool:
    """In a training graph, x is kept for backward according to the ``saved_for_backward`` fact
    table: made by an op that saves its output, or read by an op that saves its input."""
    return ctx.facts.saved_for_backward(x, ctx.fact_table("saved_for_backward"))


@predicate(stages=POST_GRAD)
def lowered_by_inductor(ctx) -> bool:
    """Inductor lowers the graph after the rules (``make_backend(base="inductor")``); false on the
    eager base, which runs the graph op by op: a repair of something only Inductor's lowering
    gets wrong has nothing to repair there."""
    return ctx.facts.lowered


@predicate(stages=POST_GRAD)
def inductor_reinplaces(ctx, n: Node) -> bool:
    """Inductor's own reinplacing pass, which runs after the rules, would turn ``n`` (a view
    scatter, an indexed update, a foreach op) into an in-place write.  Found by running that pass
    on a copy of the graph as it is now."""
    return ctx.facts.inductor_reinplaces(n)


@predicate(stages=POST_GRAD)
def inductor_reinplace_unsafe(ctx, n: Node) -> bool:
    """Inductor's reinplacing of ``n`` (see ``inductor_reinplaces``) would fail the legality
    check: the graph it leaves computes other values, or has a lowering hazard at ``n``'s write."""
    return ctx.facts.inductor_reinplace_unsafe(n)


@predicate(stages=POST_GRAD)
def inductor_reads_late(ctx, f: Node) -> bool:
    """``f`` is a functionalized call Inductor would write in place, and a value the program
    reads before it from memory it writes Inductor would compute after it: one element into a
    0-dim tensor (fuzz seed 47 p271), or anything before a ``while_loop`` or ``cond`` the call
    wraps (seed 67 p555).  Stock wrong, aot_eager right."""
    return ctx.facts.inductor_reads_late(f)


@predicate(stages=POST_GRAD)
def inductor_clones_at_symbolic_offset(ctx, f: Node) -> bool:
    """``f`` is an ``auto_functionalized`` (v1) call whose written argument at a symbolic storage
    offset Inductor would clone (not write in place); its clone then addresses the copy by the
    argument's ``sym_storage_offset``, which Inductor's code gets wrong for a view (fuzz seed 3
    p19)."""
    return ctx.facts.inductor_clones_at_symbolic_offset(f)


@predicate(stages=POST_GRAD)
def inductor_clones_laid_out_otherwise(ctx, f: Node) -> bool:
    """``f`` is an ``auto_functionalized`` (v1) call with a written argument Inductor would clone
    (not write in place) whose memory is not laid out at run time as its fake value says: the
    clone copies the storage addresses the fake value names (``clone_preserve_strides``), other
    elements than the argument's (fuzz seed 163 p812: a view of a ``cond``'s result faked with the
    strides of the strided input the ``cond`` wrote)."""
    return ctx.facts.inductor_clones_laid_out_otherwise(f)


@predicate(stages=POST_GRAD)
def inductor_reinplace_reads_own_source(ctx, n: Node) -> bool:
    """What makes Inductor's reinplacing of ``n`` unsafe is only that its write reads its own
    source (the scattered values) inside its loop, where the write changes it: computing the
    source first repairs it."""
    return ctx.facts.inductor_reinplace_reads_own_source(n)


@predicate(stages=POST_GRAD)
def inductor_reinplacing_returns_input(ctx, n: Node) -> bool:
    """Inductor's reinplacing of ``n`` (see ``inductor_reinplaces``) would make an output that
    AOTAutograd returns as a tensor of the caller's own the memory of an input: the output is
    ``n``'s value, or a view of it, where noop removal dropped the program's copy (fuzz seed 163
    p915: ``o2 = x1.clone()`` after an update of ``x1``).  Judged on the outputs' memory alone,
    so it is known on a graph whose functional reading is not the program's as well."""
    return ctx.facts.inductor_reinplacing_returns_input(n)


@predicate(stages=POST_GRAD)
def inductor_reinplacing_reads_inside_copy_back(ctx, c: Node) -> bool:
    """``c`` copies a value into a graph input, and once Inductor's reinplacing has written
    another node in place (simulated as for ``inductor_reinplaces``), that value, computed
    lazily inside the copy's loop, reads the memory ``c`` writes at other positions.  Inductor
    fuses such a computation into the copy even where it realized it first (pytorch issue 198270,
    fuzz program 950): computing the value into a buffer no pass removes repairs it."""
    return ctx.facts.inductor_reinplacing_reads_inside_copy_back(c)


@predicate(stages=POST_GRAD)
def overwrites_later_read(ctx, w: Node) -> bool:
    """``w`` is a write that was in the graph when the pass started (the copy-back epilogue), and
    some node after it, or the output, reads memory ``w`` changes through an alias not derived
    from ``w``: the program read that value before the write.  A functional pass of Inductor's
    before ours lost the copy the program made (noop removal drops copies it takes for no-ops:
    ``old = a.clone(); a.mul_(2); return old[3:5].clone()`` arrives as ``return a[3:5]`` after
    the copy-back of ``a``).  Output items AOTAutograd regenerates from the input do not count."""
    return ctx.facts.overwrites_later_read(w)


@predicate(stages=POST_GRAD)
def lowering_hazard(ctx, w: Node) -> bool:
    """The write ``w``, once Inductor lowers the graph, would run a read of the memory it writes
    inside its loop at other positions, or after a read that comes before it (the value being
    computed lazily where it is consumed).  See the legality check in docs/engine.md."""
    return ctx.facts.lowering_hazard(w)


@predicate(stages=POST_GRAD, needs=("materialized",))
def lowering_hazard_inside(ctx, w: Node) -> bool:
    """The write ``w``, once stock Inductor lowers the graph, would read memory it writes at
    other positions inside its own loop (through its source, computed lazily in that loop): the
    ``inside`` kind of ``lowering_hazard``, with the ops the ``materialized`` table lists as
    ``buffered`` computed into buffers as Inductor does (``lowering_hazard`` takes them as
    possibly lazy)."""
    return ctx.facts.lowering_hazard_inside(w)


@predicate(stages=POST_GRAD, needs=("materialized",))
def realized_before_copy(ctx, x: Node) -> bool:
    """Inductor computes ``x`` into a buffer of its own before copying it into a tensor: its
    ``realize_hint`` does so for a lazy pointwise value that loads from more than one place
    (counted on the lazy computation; docs/engine.md).  False for a value read straight from
    memory."""
    return ctx.facts.realized_before_copy(x)


@predicate()
def is_materialized(ctx, x: Node) -> bool:
    """x is a value computed into a buffer of its own by ``materialize`` (the extern op
    ``rewrite::materialized_copy``, or a ``copy_`` into a fresh ``empty_like``): materializing
    it again would change nothing."""
    return ctx.facts.is_materialized(x)


@predicate()
def reads_overwritten_input(ctx, n: Node) -> bool:
    """``n`` reads a graph input after a write into it that was in the graph when the pass
    started (the copy-back epilogue): the program meant the input's original value, which an
    earlier pass's reordering lost (pytorch issue 198131)."""
    return ctx.facts.reads_overwritten_input(n)


# --------------------------------------------------------------------------- functions


@function()
def copy_back(ctx, base: Node) -> OptNode:
    """The ``copy_`` node that writes back into ``base`` (the last one), or None."""
    return ctx.facts.copy_back(base)


@function()
def overwriting_write(ctx, n: Node) -> OptNode:
    """For a node ``reads_overwritten_input`` holds of: the write into the input it reads too late."""
    return ctx.facts.overwriting_write(n)


@function()
def update_source(ctx, u: Node) -> Node:
    """The values an update writes: ``src`` of a view scatter ``X_scatter(base, src, ...)``,
    ``values`` of an indexed update ``index_put(base, indices, values)``."""
    return ctx.facts.update_source(u)


@function()
def interleaved_source(ctx, v: Node, dim: Number) -> OptNode:
    """The tensor ``x`` whose slices along ``dim`` ``v`` repeats, each ``n`` times in a row
    (``v == x.repeat_interleave(n, dim)``), where ``v`` is spelled as views and a copy:
    ``x.unsqueeze(dim + 1).expand(...).reshape(...)``, as transformers' ``repeat_kv`` does; None
    otherwise (a ``repeat``, which tiles, included).  Sizes are compared symbolically."""
    return ctx.facts.interleaved_source(v, dim)


@function()
def numel(ctx, x: Node) -> Number:
    """Number of elements of x (a sympy expression on symbolic shapes)."""
    return ctx.facts.numel(x)


@function()
def view_root(ctx, x: Node) -> Node:
    """The node whose memory ``x`` lives in, through views and in-place results (``x`` itself
    when it owns its memory)."""
    from rewrite.analysis.semantics.layout_maps import chain_to

    return chain_to(x)[0]


@function()
def output_views(ctx, x: Node) -> Number:
    """How many items of the graph's output are ``x`` or views of it (through views and in-place
    results; of a node owning its memory, every item living in that memory)."""
    import torch.fx as fx

    from rewrite.analysis.inductor.outputs import output_items
    from rewrite.analysis.semantics.layout_maps import chain_to

    return sum(1 for item in output_items(ctx.graph)
               if isinstance(item, fx.Node) and (item is x or x in chain_to(item)[1] or chain_to(item)[0] is x))


@function()
def nbytes(ctx, x: Node) -> Number:
    """Bytes of x's own elements (a sympy expression on symbolic shapes)."""
    return ctx.facts.nbytes(x)


# --------------------------------------------------------------------------- actions


@action(stages=POST_GRAD)
def reinplace(ctx, node: Node) -> None:
    """Replace a functional op by its in-place form: ``op(x, ...)`` becomes ``op_(x, ...)`` (the
    in-place overload is found from the op schema), a view scatter ``X_scatter(base, src, *args)``
    becomes ``X(base, *args).copy_(src)``.  Uses of the node then read the written operand."""
    ctx.edit.reinplace(node)


@action(stages=POST_GRAD)
def reinplace_path(ctx, path: Path) -> None:
    """Reinplace every step of a path (not its source)."""
    for step in list(path.steps):
        ctx.edit.reinplace(step)


@action(stages=POST_GRAD)
def write_back(ctx, call: Node) -> None:
    """Replace a functionalized call ``auto_functionalized(op, **args)`` by a call of ``op``
    itself on the same arguments: it writes the arguments its schema marks ``Tensor(a!)``, and
    the new values the call returned are read from them.  An argument the op reads that shares
    memory with one it writes is copied first (the functional call read it whole before any
    write); two written arguments that share memory make it refuse."""
    ctx.edit.write_back(call)


@action(stages=POST_GRAD)
def copy_overlapping_arguments(ctx, call: Node) -> None:
    """Give a functionalized call (``auto_functionalized``, v1 or v2) a private copy of each
    argument it only reads that may share memory with what it writes: the call then reads the
    same values however it is later written in place."""
    ctx.edit.copy_overlapping_arguments(call)


@action(stages=POST_GRAD)
def copy_written_inputs(ctx, call: Node) -> None:
    """Give a functionalized call a private copy of each graph input it writes (v1: an
    argument; v2: a base, unless an ``as_strided`` view addresses a base that does not start its
    storage, or the base's new value, faked at the base's offset, is read by storage address
    later) that is not copied back: the copy is the call's to write.  A ``while_loop`` gets
    none: Inductor does not order the copy's later readers after the loop that writes it."""
    ctx.edit.copy_written_inputs(call)


@action(stages=POST_GRAD)
def drop_identity_writes(ctx) -> None:
    """Fold every write left changing nothing (after ``write_back``, the functional copy-backs
    of the new values): a view scatter whose source is the very view of its base that it writes
    (its users read the base instead), and ``copy_(x, x)``."""
    ctx.edit.drop_identity_writes()


@action(stages=ATEN_STAGES)
def erase(ctx, node: Node) -> None:
    """Erase a node.  A ``copy_(dst, src)`` whose uses can read ``dst`` instead is erased after
    redirecting them (the legality check decides whether dropping the write is right); any other
    node must be unused."""
    ctx.edit.erase(node)


@action(stages=ATEN_STAGES)
def erase_unused(ctx, node: Node) -> None:
    """Erase ``node`` once nothing reads it, and then each operand it was the last reader of,
    back through the graph: the values a rewrite left unread.  Graph inputs, the output and ops
    that write memory (or have other effects) stay.  A node still read is left as it is."""
    ctx.edit.erase_unused(node)


@action(stages=ATEN_STAGES)
def erase_path(ctx, path: Path) -> None:
    """Erase every step of a path, last first (each must be unused by then)."""
    for step in reversed(path.steps):
        ctx.edit.erase(step)


@action(stages=ATEN_STAGES)
def replace_uses(ctx, old: Node, new: Node) -> None:
    """Make every user of ``old`` read ``new`` instead (same shape, dtype and device)."""
    ctx.edit.replace_uses(old, new)


@action(stages=ATEN_STAGES)
def materialize(ctx, value: Node) -> None:
    """Compute ``value`` into a buffer of its own right after it, and make its users read that
    buffer: the read happens where ``value`` sits, however lazily Inductor would have computed it."""
    ctx.edit.materialize(value)


@action(stages=POST_GRAD)
def materialize_hazards(ctx) -> None:
    """For every write this rewrite has made: copy each value that would be read inside the
    write's loop or after it (see ``lowering_hazard``) into a buffer of its own first, the
    smaller of what the reader reads and what it computes; the readers of one value share one
    copy, taken where the value is defined, where nothing writes its memory before them."""
    ctx.edit.materialize_hazards()


@action(stages=POST_GRAD)
def materialize_hazards_of(ctx, w: Node) -> None:
    """The same for one write ``w`` already in the graph (a copy-back stock Inductor would lower
    wrong): copy each value read inside its loop or after it into a buffer of its own first (one
    copy for the readers of one value, as above)."""
    ctx.edit.materialize_hazards([w])


@action(stages=POST_GRAD)
def materialize_late_reads(ctx, f: Node) -> None:
    """For a call ``inductor_reads_late`` holds of: compute each value it names into a buffer of
    its own right where the program reads it, before the call (one element each)."""
    for value in ctx.facts.inductor_late_reads(f):
        ctx.edit.materialize(value)


@action(stages=POST_GRAD)
def copy_late_reads(ctx, w: Node) -> None:
    """For a write ``overwrites_later_read`` holds of: copy each value read after ``w`` that the
    program read before it into a buffer of its own just before ``w`` (no more than the copy the
    program made), and make those readers read the copy."""
    ctx.edit.copy_late_reads(w)


@action(stages=POST_GRAD)
def privatize(ctx, node: Node) -> None:
    """Give ``node`` (a view scatter, an indexed update) a private copy of the tensor it updates,
    so that no later pass can make it write into memory someone else reads; a functionalized call
    (``auto_functionalized`` v1 or v2) gets a private copy of each written argument or base
    Inductor's reinplacing would have it write in place."""
    ctx.edit.privatize(node)


@action(stages=POST_GRAD)
def privatize_cloned_arguments(ctx, f: Node) -> None:
    """Give an ``auto_functionalized`` (v1) call a private copy (a fresh buffer at storage offset
    0) of each written argument Inductor would clone rather than write in place: the call
    writes the copy, the scatters and copy-backs after it stay, and Inductor then writes the
    copy in place (one copy, as its own clone)."""
    ctx.edit.privatize_cloned_arguments(f)


@action(stages=ATEN_STAGES)
def move_before(ctx, node: Node, anchor: Node) -> None:
    """Move ``node`` to just before ``anchor`` (its inputs must be defined there)."""
    ctx.edit.move_before(node, anchor)


@action(stages=("dynamo",))
def thread_as_carried(ctx, loop: Node) -> None:
    """For a ``while_loop`` whose subgraphs mutate captured tensors (the dependency's ``mutates``
    set): carry those tensors as loop state (the condition is evaluated once before the loop and
    again at the end of each iteration, so its mutations happen exactly as often as in eager),
    and copy the final values back into the captured tensors after the loop."""
    ctx.edit.thread_as_carried(loop)


@action(stages=("dynamo",))
def return_from_branches(ctx, cond: Node) -> None:
    """For a ``cond`` whose branches mutate operands (the dependency's ``mutates`` set): each
    branch works on private copies and returns the new values as extra outputs, which are copied
    back into the operands after the ``cond``."""
    ctx.edit.return_from_branches(cond)


# --------------------------------------------------------------------------- attributes


@attribute("args", Node, List, "The node's positional arguments, as written in the graph.")
def _args(ctx, v):
    return tuple(v.args)


@attribute("kwargs", Node, Any, "The node's keyword arguments (index them by name: ``n.kwargs[\"out\"]``).")
def _kwargs(ctx, v):
    return dict(v.kwargs)


@attribute("operand", Node, Any,
           "The node's arguments by schema name, defaults filled in: ``n.operand[\"accumulate\"]``.")
def _operand(ctx, v):
    return ctx.facts.operands(v)


@attribute("mutated", Node, OptNode, "The operand the node writes, or None.")
def _mutated(ctx, v):
    return ctx.facts.mutated_operand(v)


@attribute("target", Node, Const, "The op's name without overload: ``\"aten.copy\"``.")
def _target(ctx, v):
    return ctx.facts.op_name(v)


@attribute("wrapped", Node, Const,
           "The name (without overload) of the op an ``auto_functionalized`` call (v1 or v2) wraps: "
           "``\"mylib.rotary\"``; None for any other node.")
def _wrapped(ctx, v):
    return ctx.facts.wrapped_op_name(v)


@attribute("name", Node, Const, "The node's name in the graph.")
def _name(ctx, v):
    return v.name


@attribute("dtype", Node, Const, "The dtype of the node's value.")
def _dtype(ctx, v):
    return ctx.facts.dtype(v)


@attribute("shape", Node, List, "The shape of the node's value (symbolic sizes stay symbolic).")
def _shape(ctx, v):
    return ctx.facts.shape(v)


@attribute("stride", Node, List, "The strides of the node's value.")
def _stride(ctx, v):
    return ctx.facts.stride(v)


@attribute("source", Path, Node, "The node a path starts from.")
def _source(ctx, v):
    return v.source


@attribute("last", Path, Node, "The node a path ends at (its source when it has no step).")
def _last(ctx, v):
    return v.last


@attribute("steps", Path, List, "The nodes of a path after its source.")
def _steps(ctx, v):
    return tuple(v.steps)


