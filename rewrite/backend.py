"""The ``rewrite`` torch.compile backend.

Rules run at two points of the pipeline:
1. on the Dynamo graph, before AOTAutograd: dependencies of higher-order ops (their subgraphs
   still hold the user's in-place ops there, so this is where captured-tensor mutations are seen
   and turned into data flow);
2. on the post-grad ATen graphs (inference, forward, backward), where functionalization has
   replaced mutations by scatters and copy-back epilogues: the reinplacing rules.

``base="inductor"`` plugs stage 2 into Inductor as ``post_grad_custom_pre_pass`` (a
``CustomGraphPass`` whose ``uuid()`` hashes the rule set and engine version, so Inductor's FX graph
cache stays valid).  ``base="eager"`` runs AOTAutograd with Inductor's decompositions and then
executes the rewritten graphs directly: same graphs, no code generation, for tests and debugging.
"""
from __future__ import annotations

import functools
import sys
import threading
import types
from typing import List, Optional, Sequence, Tuple

import torch
import torch.fx as fx
from torch._inductor.custom_graph_pass import CustomGraphPass

from rewrite.engine.report import Report
from rewrite.engine.ruleset import RuleSet

BASES = ("inductor", "eager")


def graph_kind_of(graph: fx.Graph, default: str) -> str:
    """AOTAutograd names backward inputs ``tangents_N``."""
    for n in graph.nodes:
        if n.op == "placeholder" and str(n.target).startswith("tangents"):
            return "backward"
    return default


class RulePass(CustomGraphPass):
    """The rule set as an Inductor post-grad custom pass."""

    def __init__(self, rule_set: RuleSet, reports: List[Report], graphs: List, default_kind: str = "forward"):
        self.rule_set = rule_set
        self.reports = reports
        self.graphs = graphs
        self.default_kind = default_kind

    def __call__(self, graph: fx.Graph) -> None:
        gm = graph.owning_module
        kind = graph_kind_of(graph, self.default_kind)
        self.reports.append(self.rule_set.apply(gm, graph_kind=kind, recompile=False, kinds=("rule",)))
        self.graphs.append((kind, gm))

    def uuid(self) -> Optional[object]:
        return self.rule_set.digest


class RewriteBackend:
    """A torch.compile backend applying a rule set; ``reports`` collects one :class:`Report` per
    graph processed."""

    def __init__(self, rules: Optional[Sequence] = None, base: str = "inductor", strict: bool = False,
                 cache: bool = True):
        if base not in BASES:
            raise ValueError(f"base must be one of {BASES}, not {base!r}")
        self.rule_set = rules if isinstance(rules, RuleSet) else RuleSet.load(rules, strict=strict)
        self.base = base
        self.cache = cache
        self.reports: List[Report] = []
        self.graphs: List[Tuple[str, fx.GraphModule]] = []   # (kind, post-grad graph after the rules)
        self._lock = threading.Lock()

    def __call__(self, gm: fx.GraphModule, example_inputs):
        with self._lock:   # dependencies need the user's in-place ops, which only this graph has
            self.reports.append(self.rule_set.apply(gm, graph_kind="dynamo", kinds=("dependency",)))
        kind = "inference" if _is_inference(example_inputs) else "forward"
        if self.base == "inductor":
            return self._inductor(gm, example_inputs, kind)
        return self._eager(gm, example_inputs, kind)

    def _inductor(self, gm, example_inputs, kind):
        from torch._inductor.compile_fx import compile_fx

        # Passed as config_patches, the pass also applies to the backward graph, which
        # AOTAutograd compiles lazily, after this call has returned.
        # A graph served from Inductor's FX graph cache skips the passes and adds no report:
        # ``cache=False`` forces them to run (tests and `rewrite explain` need the reports).
        patches = {"post_grad_custom_pre_pass": RulePass(self.rule_set, self.reports, self.graphs, kind)}
        if not self.cache:
            patches["fx_graph_cache"] = False
        return compile_fx(gm, example_inputs, config_patches=patches)

    def _eager(self, gm, example_inputs, kind):
        """AOTAutograd with Inductor's decompositions, joint-graph passes and partitioner, so the
        rules see the graphs Inductor's post-grad passes would see; then run them as they are."""
        from functorch.compile import make_boxed_func
        from torch._functorch.aot_autograd import aot_module_simplified
        from torch._inductor.decomposition import select_decomp_table
        from torch._inductor.fx_passes.joint_graph import joint_graph_passes

        def compiler(default_kind):
            def compile_graph(fx_g: fx.GraphModule, _inputs):
                kind = graph_kind_of(fx_g.graph, default_kind)
                if kind == "inference":   # training graphs had these passes in partition_fn
                    fx_g = joint_graph_passes(fx_g)
                with self._lock:
                    self.reports.append(self.rule_set.apply(fx_g, graph_kind=kind, kinds=("rule",)))
                    self.graphs.append((kind, fx_g))
                return make_boxed_func(fx_g.forward)

            return compile_graph

        return aot_module_simplified(
            gm, example_inputs,
            fw_compiler=compiler(kind), bw_compiler=compiler("backward"), inference_compiler=compiler("inference"),
            decompositions=select_decomp_table(),
            partition_fn=_inductor_partition_fn(),
            keep_inference_input_mutations=True,
        )

    def fired(self) -> List[str]:
        return [name for rep in self.reports for name in rep.fired_rules()]


def _inductor_partition_fn():
    """Inductor's partitioner (joint-graph passes, then min-cut).  Older torch releases keep it
    inside compile_fx; there, min-cut alone."""
    try:
        from torch._inductor.compile_fx import partition_fn

        return partition_fn
    except ImportError:
        from torch._functorch.partitioners import min_cut_rematerialization_partition

        return functools.partial(min_cut_rematerialization_partition, compiler="inductor")


def _is_inference(example_inputs) -> bool:
    if not torch.is_grad_enabled():
        return True
    return not any(isinstance(t, torch.Tensor) and t.requires_grad for t in example_inputs)


def make_backend(rules: Optional[Sequence] = None, base: str = "inductor", strict: bool = False,
                 cache: bool = True) -> RewriteBackend:
    """A backend over ``rules`` (rule files or folders; None = the shipped rules; [] = none).

    ``strict`` lints the whole graph after every rewrite; ``cache=False`` keeps Inductor's FX
    graph cache out so that every graph is rewritten (and reported) in this process."""
    return RewriteBackend(rules, base=base, strict=strict, cache=cache)


@functools.lru_cache(maxsize=1)
def _default_backend() -> RewriteBackend:
    return make_backend(None, base="inductor")


def rewrite_backend(gm: fx.GraphModule, example_inputs):
    """The ``torch_dynamo_backends`` entry point: Inductor with the shipped rules."""
    return _default_backend()(gm, example_inputs)


def inductor_pass(rules: Optional[Sequence] = None, reports: Optional[List[Report]] = None) -> RulePass:
    """The post-grad rules as a pass for plain Inductor::

        torch._inductor.config.post_grad_custom_pre_pass = rewrite.backend.inductor_pass()

    Only the post-grad (reinplacing) rules run this way; dependencies of higher-order ops need
    the Dynamo graph, which only the ``rewrite`` backend sees."""
    rule_set = rules if isinstance(rules, RuleSet) else RuleSet.load(rules)
    return RulePass(rule_set, reports if reports is not None else [], [], "forward")


class _CallableModule(types.ModuleType):
    """``rewrite.backend(rules=[...], base="eager")`` builds a backend; the module's names stay
    importable as usual."""

    def __call__(self, rules: Optional[Sequence] = None, base: str = "inductor", strict: bool = False,
                 cache: bool = True) -> RewriteBackend:
        return make_backend(rules, base=base, strict=strict, cache=cache)


sys.modules[__name__].__class__ = _CallableModule
