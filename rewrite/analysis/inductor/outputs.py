"""What AOTAutograd does with the outputs of a graph it is compiling, and whether a change moves
an output into other memory.

A forward or inference graph's outputs are, in order: the new values of inputs the runtime writes
back after the graph, the user's outputs (AOTAutograd returns some as aliases of inputs,
regenerated from those inputs; the others as tensors of their own), then, in a forward graph,
the tensors saved for backward.  Its metadata (``fw_metadata`` in the tracing context) says
which; where it does not describe the graph (a backward graph, a higher-order op's function,
another torch) every role is ``"unknown"`` and outputs keep the memory they have.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Set

import torch
import torch.fx as fx

from rewrite.analysis.facts.fake import fake_value


def output_roles(graph: fx.Graph, graph_kind: Optional[str] = None) -> List[str]:
    """What AOTAutograd does with each tensor output of a forward or inference graph it is
    compiling now: ``"alias"`` (it returns an alias of an input, regenerated from that input),
    ``"own"`` (a tensor of its own), ``"mutation"`` (the new value of an input the runtime
    writes back), ``"saved"`` (kept for backward); ``"unknown"`` where its metadata does not
    describe the graph (a backward or joint graph, a subgraph, another torch).  ``graph_kind``:
    the stage, where the caller knows it; else a graph with tangent inputs is taken as backward."""
    items = output_items(graph)
    described = _described_outputs(graph, items, graph_kind)
    if described is None:
        return ["unknown"] * len(items)
    infos, n_mutated, user = described
    from torch._functorch._aot_autograd.schemas import OutputType

    roles = ["mutation"] * n_mutated
    for info in infos:
        if info.output_type in (OutputType.alias_of_input, OutputType.is_input):
            roles.append("alias")
        elif info.output_type == OutputType.non_alias:
            roles.append("own")
        else:
            roles.append("unknown")
    roles += ["saved"] * (len(items) - user)
    return roles

def output_bases(graph: fx.Graph, graph_kind: Optional[str] = None) -> List[Optional[fx.Node]]:
    """For each output item AOTAutograd returns as an alias of an input (``"alias"`` in
    :func:`output_roles`), the placeholder of the input it regenerates the item from; None for
    the others and where the metadata does not describe the graph."""
    items = output_items(graph)
    bases: List[Optional[fx.Node]] = [None] * len(items)
    described = _described_outputs(graph, items, graph_kind)
    if described is None:
        return bases
    infos, n_mutated, _ = described
    from torch._functorch._aot_autograd.schemas import OutputType

    placeholders = graph.find_nodes(op="placeholder")
    for k, info in enumerate(infos):
        index = getattr(info, "base_idx", None)
        if info.output_type in (OutputType.alias_of_input, OutputType.is_input) and isinstance(index, int) \
                and 0 <= index < len(placeholders):
            bases[n_mutated + k] = placeholders[index]
    return bases

def _described_outputs(graph: fx.Graph, items: list, graph_kind: Optional[str]):
    """``(user output infos, number of mutated-input outputs, number of outputs before the saved
    tensors)`` from the tracing context's metadata, or None where it does not describe
    ``graph`` (a backward or joint graph, a higher-order op's function, another torch)."""
    meta = _fw_metadata()
    if graph_kind is None:
        tangents = any(str(n.target).startswith("tangents") for n in graph.find_nodes(op="placeholder"))
        graph_kind = "backward" if tangents else "forward"
    if meta is None or graph_kind not in ("inference", "forward"):
        return None
    try:
        infos = list(meta.output_info)
        n_mutated = int(meta.num_mutated_inp_runtime_indices)
        inputs = list(meta.input_info)
    except Exception:  # noqa: BLE001 - another torch: say nothing
        return None
    placeholders = graph.find_nodes(op="placeholder")
    if len(inputs) != len(placeholders) or not all("desc" in p.meta for p in placeholders):
        return None            # not the graph the metadata describes (a higher-order op's function)
    user = n_mutated + len(infos)
    if len(items) < user or (graph_kind == "inference" and len(items) != user):
        return None
    return infos, n_mutated, user

def runtime_written_inputs(graph: fx.Graph) -> Set[fx.Node]:
    """The placeholders AOTAutograd's runtime writes after the graph (input mutations it does
    not keep in the graph)."""
    meta = _fw_metadata()
    placeholders = graph.find_nodes(op="placeholder")
    try:
        indices = list(meta.mutated_inp_runtime_indices) if meta is not None else []
    except Exception:  # noqa: BLE001
        return set()
    if meta is None or len(meta.input_info) != len(placeholders) or not all("desc" in p.meta for p in placeholders):
        return set()
    return {placeholders[i] for i in indices if 0 <= i < len(placeholders)}

def _fw_metadata():
    try:
        from torch._guards import TracingContext

        ctx = TracingContext.try_get()
    except Exception:  # noqa: BLE001
        return None
    return getattr(ctx, "fw_metadata", None)

def output_items(graph: fx.Graph) -> List[object]:
    """The flat items of the output node's first argument, tensors or not."""
    output = output_node(graph)
    if output is None or not output.args:
        return []
    value = output.args[0]
    return list(value) if isinstance(value, (list, tuple)) else [value]

def aliasing_change(roots_before: Sequence[fx.Node], roots_after: Sequence[fx.Node],
                    graph: Optional[fx.Graph] = None) -> str:
    """Compare the memory each output is (its alias root) before and after a change; the
    reason the change is visible to the caller, or "".  What AOTAutograd does with the graph's
    outputs (``outputs.output_roles``) decides where it is known: an output it returns as
    an alias of an input may become that input's memory (it regenerates it from the input's base
    with the graph output's layout, which is right only when the output is that input: fuzz
    program 2083, a private copy came back at offset 0); one it returns as a tensor of its own
    must not be an input's memory after the change, and may stop being one (a pass before ours
    made it one: issue 23), and so may a tensor saved for backward.  Elsewhere an output keeps
    the memory it had."""
    roles = tensor_output_roles(graph, len(roots_after)) if graph is not None else ["unknown"] * len(roots_after)
    for i, (rb, ra) in enumerate(zip(roots_before, roots_after)):
        if roles[i] == "alias" and ra.op == "placeholder" and rb.op != "placeholder":
            continue
        if roles[i] == "own" or (roles[i] == "saved" and ra.op != "placeholder"):
            if ra.op == "placeholder":
                return f"output {i} would be the memory of input `{ra.name}`, which it is not in the program"
            continue              # (a tensor saved for backward may get memory of its own)
        if (rb.op == "placeholder" or ra.op == "placeholder") and rb is not ra:
            if ra.op == "placeholder":
                return f"output {i} would be the memory of input `{ra.name}`, which it is not in the program"
            return f"output {i} would no longer be the memory of input `{rb.name}`"
    for i in range(len(roots_after)):
        for j in range(i):
            if roots_after[i] is roots_after[j] and roots_before[i] is not roots_before[j]:
                return f"outputs {j} and {i} would share memory, which they do not in the program"
    return ""

def tensor_output_roles(graph: fx.Graph, n_outputs: int) -> List[str]:
    """``outputs.output_roles`` for each of ``graph``'s ``n_outputs`` tensor outputs, in
    order; all ``"unknown"`` where the outputs are nested or the counts disagree."""
    unknown = ["unknown"] * n_outputs
    items = output_items(graph)
    if any(isinstance(item, (list, tuple)) for item in items):
        return unknown
    roles = output_roles(graph)
    tensor_roles = [roles[i] for i, item in enumerate(items)
                    if i < len(roles) and isinstance(item, fx.Node) and isinstance(fake_value(item), torch.Tensor)]
    return tensor_roles if len(tensor_roles) == n_outputs else unknown

def output_tensors(graph: fx.Graph) -> list:
    """The nodes a graph returns that hold tensors, in order."""
    output = output_node(graph)
    return tensor_items(output.args[0]) if output is not None else []

def output_node(graph: fx.Graph):
    return next((n for n in reversed(graph.nodes) if n.op == "output"), None)

def tensor_items(value) -> list:
    """The graph nodes among an output's (nested) items that hold tensors, in order."""
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in tensor_items(v)]
    if isinstance(value, fx.Node) and isinstance(fake_value(value), torch.Tensor):
        return [value]
    return []
