"""Helpers for engine tests: trace programs to the post-grad graphs the rules see."""
from __future__ import annotations

import copy
import textwrap

import torch
import torch.fx as fx
from torch._inductor import config as inductor_config
from torch._inductor.custom_graph_pass import CustomInferenceAwareGraphPass
from torch._subclasses.fake_tensor import unset_fake_temporarily

from rewrite.analysis.facts.op_facts import op_display_name
from rewrite.backend import make_backend
from rewrite.engine.ruleset import RuleSet


class _Capture(CustomInferenceAwareGraphPass):
    """Keeps a copy of every post-grad graph, where the rules would see it."""

    def __init__(self):
        self.graphs = []

    def __call__(self, graph, is_inference=False):
        from rewrite.backend import graph_kind_of

        kind = "inference" if is_inference else graph_kind_of(graph, "forward")
        with unset_fake_temporarily():       # tensor constants are real: copy them outside fake mode
            self.graphs.append((kind, copy.deepcopy(graph.owning_module)))

    def uuid(self):
        return None


def post_grad(fn, *inputs, kind: str = "inference", dynamic: bool = False) -> fx.GraphModule:
    """The post-grad ATen graph as the rules see it (after Inductor's functional passes) for
    ``fn`` (no rules applied); ``dynamic`` traces every size symbolically."""
    torch._dynamo.reset()
    capture = _Capture()
    be = make_backend([], base="eager", cache=False)
    compiled = torch.compile(fn, backend=be, fullgraph=True, dynamic=dynamic or None)
    with inductor_config.patch(post_grad_custom_post_pass=capture):
        if kind == "inference":
            with torch.inference_mode():
                compiled(*inputs)
        else:
            out = compiled(*inputs)
            if kind == "backward":              # (AOTAutograd compiles it on the first backward)
                outs = out if isinstance(out, (tuple, list)) else (out,)
                sum(o.sum() for o in outs if isinstance(o, torch.Tensor) and o.requires_grad).backward()
    graphs = [gm for k, gm in capture.graphs if k == kind]
    return graphs[-1]


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
