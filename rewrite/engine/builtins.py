"""The built-in vocabulary: general predicates, functions and actions over FX graphs.

Each implementation takes the evaluation context ``ctx`` (:class:`rewrite.engine.context.Context`)
first, then the rule's arguments already evaluated (nodes, lists, literals, paths).  They are thin:
the work lives in the analyses (:mod:`rewrite.analysis`) and actions (:mod:`rewrite.engine.actions`).
"""
from __future__ import annotations

from rewrite.vocab import builtin

# --------------------------------------------------------------------------- predicates


@builtin("predicate")
def is_input(ctx, x):
    """x is a graph input (a placeholder)."""
    return ctx.facts.is_input(x)


@builtin("predicate")
def is_const(ctx, x):
    """x is a constant: not a graph node (a number, string, None, list of constants)."""
    return ctx.facts.is_const(x)


@builtin("predicate")
def is_view(ctx, x):
    """x is a view of another node's storage (by op schema alias annotations or fake-tensor storage)."""
    return ctx.facts.is_view(x)


@builtin("predicate")
def copied_back(ctx, value, base):
    """A later ``copy_(base, value)`` writes ``value`` back into ``base`` (directly or into a view of it)."""
    return ctx.facts.copy_back(base, value) is not None


@builtin("predicate")
def realized(ctx, x):
    """x must be materialized anyway: a graph input or output, the target of a mutation, or made by
    an op the ``materialized`` fact table lists under ``extern`` (ops Inductor cannot fuse)."""
    return ctx.facts.realized(x, ctx.fact_table("materialized"))


@builtin("predicate")
def used_after(ctx, x, n):
    """x, or a view of x, is read by some node that comes after n in graph order (reads through
    n itself, when n is a view of x, are n's own and do not count)."""
    return ctx.facts.used_after(x, n, exclude=())


@builtin("predicate")
def alias_used_between(ctx, x, a, b):
    """Some alias of x's storage (x itself or any view of the same storage) is read by a node
    strictly after a and before b in graph order, other than the nodes this match rewrites.
    b may be ``None`` for "until the end of the graph"."""
    return ctx.facts.alias_used_between(x, a, b, exclude=ctx.matched_nodes())


@builtin("predicate")
def overlaps(ctx, a, b):
    """The memory a and b cover may overlap.  For a view-scatter node, its memory is the region
    of its base it writes.  Decided exactly on concrete shapes, with sympy on symbolic ones, and
    answered "may overlap" whenever disjointness cannot be proven."""
    return ctx.facts.may_overlap(a, b)


@builtin("predicate")
def operands_overlap_write(ctx, node):
    """Some operand of ``node`` other than the one it writes may share memory with what it writes
    (a view scatter writes its destination region; other ops their first operand).  Writing in
    place would then read values it has already overwritten."""
    return ctx.facts.operands_overlap_write(node)


@builtin("predicate")
def undoes_view(ctx, w, v):
    """The view ``w`` is the inverse of the view ``v``: ``v`` then ``w`` maps ``v``'s source onto
    exactly its own sizes, strides and offset (``permute`` by inverse dims, ``view`` back to the
    original shape...)."""
    return ctx.facts.undoes_view(w, v)


@builtin("predicate")
def internal_overlap(ctx, x):
    """Several elements of x share one memory location (e.g. an ``expand``ed tensor)."""
    return ctx.facts.internal_overlap(x)


@builtin("predicate")
def same_layout(ctx, a, b):
    """a and b have the same dtype, shape and strides."""
    return ctx.facts.same_layout(a, b)


@builtin("predicate")
def same_storage(ctx, a, b):
    """a and b are views of the same storage."""
    return ctx.facts.same_storage(a, b)


@builtin("predicate")
def mutated(ctx, subgraph, operand):
    """The subgraph (a ``get_attr`` of a higher-order op) writes into the placeholder that
    receives ``operand`` (or into a view of it)."""
    return ctx.facts.subgraph_mutates(ctx.root, subgraph, operand)


@builtin("predicate")
def saved_for_backward(ctx, x):
    """In a training graph, x is kept for backward according to the ``saved_for_backward`` fact
    table: made by an op that saves its output, or read by an op that saves its input."""
    return ctx.facts.saved_for_backward(x, ctx.fact_table("saved_for_backward"))


# --------------------------------------------------------------------------- functions


@builtin("function")
def copy_back(ctx, base):
    """The ``copy_`` node that writes back into ``base`` (the last one), or None."""
    return ctx.facts.copy_back(base)


@builtin("function")
def numel(ctx, x):
    """Number of elements of x (a sympy expression on symbolic shapes)."""
    return ctx.facts.numel(x)


@builtin("function")
def nbytes(ctx, x):
    """Bytes of x's own elements."""
    return ctx.facts.nbytes(x)


# --------------------------------------------------------------------------- actions


@builtin("action")
def reinplace(ctx, node):
    """Replace a functional op by its in-place form: ``op(x, ...)`` becomes ``op_(x, ...)`` (the
    in-place overload is found from the op schema), a view scatter ``X_scatter(base, src, *args)``
    becomes ``X(base, *args).copy_(src)``.  Uses of the node then read the mutated operand."""
    from rewrite.engine import actions

    actions.reinplace(ctx, node)


@builtin("action")
def reinplace_path(ctx, path):
    """Reinplace every step of a path (not its source)."""
    from rewrite.engine import actions

    for step in list(path.steps):
        actions.reinplace(ctx, step)


@builtin("action")
def erase(ctx, node):
    """Erase a node.  A ``copy_(dst, src)`` whose uses can read ``dst`` instead is erased after
    redirecting them; any other node must be unused."""
    from rewrite.engine import actions

    actions.erase(ctx, node)


@builtin("action")
def erase_path(ctx, path):
    """Erase every step of a path, last first (each must be unused by then)."""
    from rewrite.engine import actions

    for step in reversed(path.steps):
        actions.erase(ctx, step)


@builtin("action")
def replace_uses(ctx, old, new):
    """Make every user of ``old`` read ``new`` instead."""
    from rewrite.engine import actions

    actions.replace_uses(ctx, old, new)


@builtin("action")
def thread_as_carried(ctx, loop):
    """For a ``while_loop`` whose subgraphs mutate captured tensors (the dependency's ``mutates``
    set): carry those tensors as loop state (the condition is evaluated once before the loop and
    again at the end of each iteration, so its mutations happen exactly as often as in eager),
    and copy the final values back into the captured tensors after the loop."""
    from rewrite.engine import hop_actions

    hop_actions.thread_as_carried(ctx, loop)


@builtin("action")
def return_from_branches(ctx, cond):
    """For a ``cond`` whose branches mutate operands (the dependency's ``mutates`` set): each
    branch works on private copies and returns the new values as extra outputs, which are copied
    back into the operands after the ``cond``."""
    from rewrite.engine import hop_actions

    hop_actions.return_from_branches(ctx, cond)
