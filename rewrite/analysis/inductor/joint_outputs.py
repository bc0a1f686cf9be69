"""Which outputs were memory of their own before Inductor's passes ran.

Noop removal (in Inductor's joint-graph passes and again in its post-grad passes) replaces a
``clone`` by its source, and its guard against new aliasing only compares the storages the
outputs had before the pass: two outputs that are clones of views of one buffer both lose
their clones and reach our post-grad pass as two views of that buffer (fuzz seed 37 p74:
``t2 = x0.clone(); o5 = x1.clone().clone()``, with ``x0`` and ``x1`` overlapping views of one
tensor).  After the pass, two outputs AOTAutograd returns as tensors of their own that share a
buffer cannot be told from outputs that do share one in the program (views of one intermediate
that AOTAutograd does not see as aliases: seed 0 p460), so the memory each output is in is
recorded here from the graph our joint-stage pass receives, before every pass that may drop a
copy, and read back by ``earlier_passes.misplaced_outputs`` for the inference or forward graph
compiled from it next, in the same compilation (Dynamo's tracing context)."""
from __future__ import annotations

from collections import OrderedDict
from typing import Optional, Tuple

import torch
import torch.fx as fx

from rewrite.analysis.inductor.earlier_passes import root_of
from rewrite.analysis.inductor.outputs import output_items

#: One memory group per output item of the joint or inference graph, None for items that are
#: not tensors.  The first items of a joint graph are its forward outputs (the new values of
#: mutated inputs, then the user's outputs), the first items of the forward graph partitioned
#: from it too; a training step's joint passes run before AOTAutograd's metadata is set.
Groups = Tuple[Optional[int], ...]

_KEPT = 64                 # compiles whose records are kept (a compile reads its own back at once)
_records: "OrderedDict[int, Tuple[object, Groups]]" = OrderedDict()


def record(graph: fx.Graph) -> Optional[Groups]:
    """Record which of ``graph``'s output items share memory (the joint or inference graph,
    before Inductor's passes), for the compilation under way; returns the groups (None outside
    a compilation)."""
    context = _context()
    if context is None:
        return None
    roots = {}
    groups = tuple(roots.setdefault(root_of(item), len(roots)) if _is_tensor(item) else None
                   for item in output_items(graph))
    _records[id(context)] = (context, groups)
    _records.move_to_end(id(context))
    while len(_records) > _KEPT:
        _records.popitem(last=False)
    return groups


def recorded() -> Optional[Groups]:
    """The groups of the last graph recorded in the compilation under way, or None.  Its
    inference or forward graph is compiled right after its joint passes, before another graph."""
    context = _context()
    entry = _records.get(id(context)) if context is not None else None
    return entry[1] if entry is not None and entry[0] is context else None


def _context():
    try:
        from torch._guards import TracingContext

        return TracingContext.try_get()
    except Exception:  # noqa: BLE001 - another torch: record nothing
        return None


def _is_tensor(item) -> bool:
    return isinstance(item, fx.Node) and isinstance(item.meta.get("val"), torch.Tensor)
