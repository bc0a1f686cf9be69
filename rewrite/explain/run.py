"""Compiling one function with the rules and keeping the reports of its graphs."""
from __future__ import annotations

from typing import Callable, List, Optional, Sequence

import torch
from torch.utils._pytree import tree_flatten

from rewrite.backend import make_backend
from rewrite.engine.report import Report
from rewrite.explain.text import render_text
from rewrite.testing.execute import auto_functionalized as auto_functionalized_setting, mode_context


def _mode_for(inputs: Sequence) -> str:
    flat, _ = tree_flatten(list(inputs))
    return "training" if any(isinstance(t, torch.Tensor) and t.requires_grad for t in flat) else "inference"


def explain_reports(fn: Callable, *inputs, base: str = "eager", rules=None, mode: Optional[str] = None,
                    dynamic: bool = False, auto_functionalized: Optional[str] = None) -> List[Report]:
    """Compile ``fn`` with the rules (under inference_mode unless an input requires grad, or as
    ``mode`` says; under ``auto_functionalized`` v1 or v2 when given), call it once on ``inputs``
    and return the reports."""
    torch._dynamo.reset()
    # every graph rewritten and reported, with its copies next to stock Inductor's
    backend = make_backend(rules=rules, base=base, cache=False, measure_copies=True, snapshots=True)
    compiled = torch.compile(fn, backend=backend, fullgraph=True, dynamic=dynamic)
    with mode_context(mode or _mode_for(inputs)), auto_functionalized_setting(auto_functionalized):
        compiled(*inputs)
    return list(backend.reports)


def explain(fn: Callable, *inputs, base: str = "eager", rules=None, mode: Optional[str] = None,
            dynamic: bool = False) -> str:
    """The explanation of what the rules did to ``fn``'s graphs, as text."""
    name = getattr(fn, "__name__", "fn")
    return render_text(explain_reports(fn, *inputs, base=base, rules=rules, mode=mode, dynamic=dynamic),
                       title=f"{name} [{base}]")
