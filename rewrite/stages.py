"""Where rules run, and the steps a candidate goes through: the one source of both lists.

A *stage* is a point of torch.compile's pipeline whose graphs a rule may rewrite:

* ``dynamo``: the graph Dynamo captures, before AOTAutograd.  It still holds the user's in-place
  ops, as torch functions and tensor methods, and higher-order ops with their subgraphs.
* ``joint``: the joint forward+backward ATen graph, before Inductor's joint-graph passes and the
  partitioner.  It must stay functional (those passes and the partitioner assume it).
* ``inference``, ``forward``, ``backward``: the post-grad ATen graphs, after all of Inductor's
  functional passes; mutation is introduced here.  ``post_grad`` names the three.

Every candidate of a rule goes through the *steps* ``match``, ``where``, ``profitable``,
``safe``, ``rewrite`` and ``legality`` (the independent check of the rewritten graph), in order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Tuple


@dataclass(frozen=True)
class Stage:
    name: str
    graph: str            # "torch": torch functions, methods, HOPs; "aten": ATen ops
    mutation: bool        # rules may introduce in-place writes here
    doc: str


STAGES: Dict[str, Stage] = {s.name: s for s in (
    Stage("dynamo", "torch", True, "the Dynamo graph, before AOTAutograd (user in-place ops, higher-order ops)"),
    Stage("joint", "aten", False, "the joint ATen graph, before Inductor's joint-graph passes (must stay functional)"),
    Stage("inference", "aten", True, "the post-grad inference graph"),
    Stage("forward", "aten", True, "the post-grad forward graph of a training step"),
    Stage("backward", "aten", True, "the post-grad backward graph of a training step"),
)}

#: Names that stand for several stages.
STAGE_GROUPS: Dict[str, Tuple[str, ...]] = {"post_grad": ("inference", "forward", "backward")}

POST_GRAD = STAGE_GROUPS["post_grad"]

#: The stages whose graphs are ATen graphs: the joint graph and the post-grad graphs.
ATEN_STAGES: Tuple[str, ...] = tuple(s.name for s in STAGES.values() if s.graph == "aten")

#: The stage a rule (dependency) runs in when it does not say.
DEFAULT_STAGE = {"rule": ("post_grad",), "dependency": ("dynamo",)}


def expand(names) -> Tuple[str, ...]:
    """Stage names with groups expanded, in pipeline order, without repeats."""
    wanted = set()
    for name in names:
        wanted.update(STAGE_GROUPS.get(name, (name,)))
    return tuple(s for s in STAGES if s in wanted)


def stage_names() -> Tuple[str, ...]:
    return tuple(STAGES) + tuple(STAGE_GROUPS)


#: The steps of a candidate, in order.  ``rewrite``: the actions ran and the result validated;
#: ``legality``: the independent check of the rewritten graph (refusals roll back).
STEPS: Tuple[str, ...] = ("match", "where", "profitable", "safe", "rewrite", "legality")

#: The steps that are sections of a rule (with an expression a rule author writes).
GUARD_SECTIONS: Tuple[str, ...] = ("where", "profitable", "safe")
