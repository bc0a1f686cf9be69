"""Reports built as plain data for the explain tests: a large synthetic post-grad graph where
two slice updates of inputs were rewritten in place, without compiling anything."""
from __future__ import annotations

import random
from typing import List, Tuple

from rewrite.engine.report import Candidate, GraphSnapshot, NodeInfo, Report

LONG_NAME = "index_put__default_from_a_rather_long_generated_name_17"
LONG_OP = "aten._scaled_dot_product_flash_attention_for_cpu"
UPDATE_AT = (90, 200)          # where, in the chain of ops, the two input updates sit


def _op(name, target, inputs, writes=(), value="f32[64, 128]") -> NodeInfo:
    return NodeInfo(name, "call_function", target, tuple(inputs), tuple(writes), value)


def synthetic_report(ops: int = 280, inputs: int = 12, seed: int = 0) -> Report:
    """An inference report of about ``ops + inputs + 10`` nodes: a deterministic random network
    of ATen ops with two ``slice -> add -> slice_scatter -> copy_`` input updates that the
    rewrite turned into ``slice -> copy_``, and a few rejected candidates."""
    rng = random.Random(seed)
    args = [NodeInfo(f"arg{i}_1", "placeholder", f"arg{i}_1", (), (), "f32[64, 128]") for i in range(inputs)]
    before: List[NodeInfo] = list(args)
    after: List[NodeInfo] = list(args)
    recent = [a.name for a in args[:3]]
    candidates: List[Candidate] = []
    for i in range(ops):
        if i in UPDATE_AT:
            before_nodes, after_nodes, cands = _update(i, args[len(candidates) % inputs].name, recent[-1])
            before += before_nodes
            after += after_nodes
            candidates += cands
            recent.append(before_nodes[1].name)
            continue
        target = rng.choice(("aten.add", "aten.mul", "aten.relu", "aten.sum", "aten.view", "aten.permute",
                             "aten.mm", "aten.sigmoid"))
        reads = [recent[-1]] + ([rng.choice(recent[-6:])] if rng.random() < 0.5 else [])
        if rng.random() < 0.1:
            reads.append(rng.choice(args).name)
        name = f"{target.split('.')[-1]}_{i}"
        if i == 150:
            name, target = LONG_NAME, LONG_OP
        node = _op(name, target, dict.fromkeys(reads))
        before.append(node)
        after.append(node)
        recent.append(name)
    out = NodeInfo("output", "output", "output", tuple(recent[-3:]), (), "")
    before.append(out)
    after.append(out)
    tried = before[inputs + 40].name
    candidates.append(Candidate("reinplace_scatter_into_intermediate", "rules/reinplace.rules:61", tried, "inference",
                                stopped_at="safe", reason=f"{tried} is read after the update",
                                reached=("match", "where", "safe")))
    return Report("inference", candidates=candidates, before=GraphSnapshot(before), after=GraphSnapshot(after),
                  bytes_removed=2 * 64 * 128 * 4)


def _update(i: int, arg: str, value: str) -> Tuple[List[NodeInfo], List[NodeInfo], List[Candidate]]:
    sl, add, scatter, copy = f"slice_{i}", f"add_{i}", f"slice_scatter_{i}", f"copy__{i}"
    common = [_op(sl, "aten.slice", [arg], value="f32[62, 128]"),
              _op(add, "aten.add", [sl, value], value="f32[62, 128]")]
    before = common + [_op(scatter, "aten.slice_scatter", [arg, add]), _op(copy, "aten.copy_", [arg, scatter], [arg])]
    view, write = f"slice_tensor_{i}", f"copy__default_{i}"
    after = common + [_op(view, "aten.slice", [arg], value="f32[62, 128]"),
                      _op(write, "aten.copy_", [view, add], [view], value="f32[62, 128]")]
    cands = [Candidate("reinplace_update_into_input", "rules/reinplace.rules:25", scatter, "inference",
                       stopped_at=None, reached=("match", "where", "safe", "rewrite", "legality"),
                       before=(scatter, copy), after=(view, write), bytes_removed=64 * 128 * 4),
             Candidate("read_input_before_its_copy_back", "rules/inductor.rules:41", write, "inference",
                       stopped_at="match", reason=f"argument 0 (self) of {write}; expected input, got {view}",
                       reached=("match",))]
    return before, after, cands


def unchanged_dynamo_report() -> Report:
    nodes = [NodeInfo("l_x_", "placeholder", "L_x_", (), (), "f32[8]"),
             NodeInfo("l_d_", "placeholder", "L_d_", (), (), "f32[6]"),
             NodeInfo("getitem", "call_function", "getitem", ("l_x_",), (), "f32[6]"),
             NodeInfo("add_", "call_method", "add_", ("getitem", "l_d_"), (), "f32[6]"),
             NodeInfo("output", "output", "output", (), (), "")]
    return Report("dynamo", before=GraphSnapshot(list(nodes)), after=GraphSnapshot(list(nodes)))
