"""Helpers for engine tests: trace programs to the post-grad graphs the rules see."""
from __future__ import annotations

import copy
import textwrap

import torch
import torch.fx as fx

from rewrite.analysis.op_names import op_display_name
from rewrite.backend import make_backend
from rewrite.engine.ruleset import RuleSet


def post_grad(fn, *inputs, kind: str = "inference") -> fx.GraphModule:
    """The post-grad ATen graph AOTAutograd hands Inductor for ``fn`` (no rules applied)."""
    torch._dynamo.reset()
    be = make_backend([], base="eager")
    if kind == "inference":
        with torch.inference_mode():
            torch.compile(fn, backend=be, fullgraph=True)(*inputs)
    else:
        torch.compile(fn, backend=be, fullgraph=True)(*inputs)
    graphs = [gm for k, gm in be.graphs if k == kind]
    return copy.deepcopy(graphs[-1])


def dynamo_graph(fn, *inputs) -> fx.GraphModule:
    """The Dynamo graph (torch-level ops, higher-order ops with subgraphs)."""
    torch._dynamo.reset()
    captured = []

    def capture(gm, example_inputs):
        captured.append(gm)
        return gm.forward

    torch.compile(fn, backend=capture, fullgraph=True)(*inputs)
    return captured[-1]


def rules(tmp_path, text: str, name: str = "test.rules") -> RuleSet:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return RuleSet.load([path], strict=True)


def nodes(gm: fx.GraphModule, op: str):
    return [n for n in gm.graph.nodes if n.op == "call_function" and op_display_name(n.target) == op]


def node(gm: fx.GraphModule, op: str) -> fx.Node:
    found = nodes(gm, op)
    assert found, f"no {op} in\n{gm.code}"
    return found[0]


def placeholders(gm: fx.GraphModule):
    return [n for n in gm.graph.nodes if n.op == "placeholder"]


def ops(gm: fx.GraphModule):
    return [op_display_name(n.target) for n in gm.graph.nodes if n.op == "call_function"]
