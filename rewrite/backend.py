"""The ``rewrite`` torch.compile backend.

Each rule says where it runs (its ``stage``), and the backend runs it there:

* ``dynamo``: on the graph Dynamo hands the backend, before AOTAutograd (the subgraphs of
  higher-order ops still hold the user's in-place ops: dependencies live here);
* ``joint``: as Inductor's ``joint_custom_pre_pass``, before its joint-graph passes;
* ``inference`` / ``forward`` / ``backward``: as Inductor's ``post_grad_custom_post_pass``, after
  all of Inductor's functional post-grad passes (noop removal, pattern passes), so that nothing
  after the rules assumes a functional graph.  The only pass after it that introduces mutation
  is Inductor's own reinplacing, whose decisions the rules check and repair
  (``rules/inductor.rules``).

``base="inductor"`` compiles with Inductor (every ``mode`` and ``options`` Inductor accepts);
the passes are ``CustomGraphPass``es whose ``uuid()`` covers the rules, the engine and the user
Python the rules call, so Inductor's FX graph cache stays valid.  ``base="eager"`` runs the same
AOTAutograd and the same Inductor passes in the same order, then executes the graphs directly:
the same graphs, no code generation (tests, debugging).
"""
from __future__ import annotations

import collections
import contextlib
import copy
import dataclasses
import functools
import operator
import os
import sys
import threading
import traceback
import types
from typing import Any, Dict, List, Optional, Tuple

import torch
import torch.fx as fx
from torch._inductor.custom_graph_pass import CustomGraphPass, CustomInferenceAwareGraphPass

from rewrite.analysis.semantics import stale_reads
from rewrite.analysis.facts.fake import graph_fake_mode
from rewrite.analysis.inductor.earlier_passes import record_inputs_addressed, record_joint_outputs
from rewrite.eager_graph import runnable_as_aten
from rewrite.engine.report import Report, log
from rewrite.engine.ruleset import ReferenceFallback, RuleSet
from rewrite.stages import POST_GRAD

BASES = ("inductor", "eager")
#: What a backend does when compiling a graph fails past the Dynamo stage (an Inductor lowering
#: or pass error, a stop of the engine's nets): run it with torch's reference (Dynamo's graph op
#: by op; no Inductor, no rules after the Dynamo stage; a warning says so), or raise.
#: ``"aot_eager"`` is the first name of ``"reference"``, still accepted.
FALLBACKS = ("reference", "error", "aot_eager")
#: What runs a graph that fell back: one a dependency left to torch's reference pipeline
#: (``fallback reference``: AOTAutograd handles the op right, Inductor's lowering does not), and
#: one whose compile failed (``RewriteBackend._fall_back`` says why not aot_eager).
RUNS_WITH_AOT_EAGER = "with aot_eager"
RUNS_EAGERLY = "eagerly, as Dynamo captured it"
#: ... and a backward graph whose compile failed: AOTAutograd's graph, op by op.
RUNS_AS_AOT_EAGER = "eagerly, as AOTAutograd made it"
#: Reports a backend keeps (the oldest are dropped): a long-running process compiles many graphs.
MAX_REPORTS = 256


def graph_kind_of(graph: fx.Graph, default: str) -> str:
    """AOTAutograd names backward inputs ``tangents_N``."""
    for n in graph.nodes:
        if n.op == "placeholder" and str(n.target).startswith("tangents"):
            return "backward"
    return default


class _Log:
    """Where a backend's passes leave their reports (bounded) and, on request, the graphs."""

    def __init__(self, keep_graphs: bool, max_reports: int):
        self.reports: collections.deque = collections.deque(maxlen=max_reports)
        self.graphs: collections.deque = collections.deque(maxlen=max_reports if keep_graphs else 0)
        self.lock = threading.Lock()
        self.added = [0, 0]          # reports and graphs added so far (the deques drop the oldest)

    def drop_after(self, mark: Tuple[int, int]) -> None:
        """Forget the reports and graphs added since ``mark`` (a :meth:`mark`)."""
        with self.lock:
            for items, count in ((self.reports, self.added[0] - mark[0]), (self.graphs, self.added[1] - mark[1])):
                for _ in range(min(count, len(items))):
                    items.pop()
            self.added = list(mark)

    def mark(self) -> Tuple[int, int]:
        with self.lock:
            return self.added[0], self.added[1]

    def add(self, report: Report, kind: str, gm: Optional[fx.GraphModule]) -> None:
        with self.lock:
            self.reports.append(report)
            self.added[0] += 1
            if gm is not None:
                self.graphs.append((kind, gm))
                self.added[1] += 1


class RulePass(CustomInferenceAwareGraphPass):
    """The post-grad rules as Inductor's ``post_grad_custom_post_pass``."""

    def __init__(self, rule_set: RuleSet, sink: Optional[_Log] = None, measure_copies: bool = False,
                 snapshots: bool = False, inductor: bool = True):
        self.rule_set = rule_set
        self.sink = sink
        self.measure_copies = measure_copies
        self.snapshots = snapshots
        self.inductor = inductor            # Inductor lowers the graph after the pass (not the eager base)

    def __call__(self, graph: fx.Graph, is_inference: bool = False) -> None:
        gm = graph.owning_module
        kind = "inference" if is_inference else graph_kind_of(graph, "forward")
        report = self.rule_set.apply(gm, graph_kind=kind, recompile=False, subgraphs=False,
                                     measure_copies=self.measure_copies, snapshots=self.snapshots,
                                     inductor=self.inductor)
        if self.sink is not None:
            self.sink.add(report, kind, gm)

    def uuid(self) -> Optional[object]:
        return ("rewrite-post-grad", self.rule_set.digest, self.inductor)


class JointPass(CustomGraphPass):
    """Inductor's ``joint_custom_pre_pass``: records which outputs share memory before Inductor's
    passes (``earlier_passes.record_joint_outputs``, read by the post-grad pass) and which
    operands of higher-order ops' v2 calls their functions read after writing memory they share
    (``stale_reads.record``) and which storage-addressing nodes address an input
through an update of it (``earlier_passes.record_inputs_addressed``), then runs the joint-stage
rules."""

    def __init__(self, rule_set: RuleSet, sink: Optional[_Log] = None, snapshots: bool = False):
        self.rule_set = rule_set
        self.sink = sink
        self.snapshots = snapshots

    def __call__(self, graph: fx.Graph) -> None:
        record_joint_outputs(graph)
        stale_reads.record(graph)
        record_inputs_addressed(graph)
        if not self.rule_set.runs_at("joint"):
            return
        report = self.rule_set.apply(graph.owning_module, graph_kind="joint", recompile=False,
                                     snapshots=self.snapshots)
        if self.sink is not None:
            self.sink.add(report, "joint", None)

    def uuid(self) -> Optional[object]:
        return ("rewrite-joint", self.rule_set.digest, "output-groups", "stale-reads", "inputs-addressed")


def inductor_config(mode: Optional[str] = None, options: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """Inductor config patches for ``mode`` and ``options``, as ``torch.compile(backend="inductor")``
    derives them (same names, same validation)."""
    from torch._inductor import config, list_mode_options

    patches: Dict[str, Any] = {}
    if mode and mode != "default":
        patches.update(list_mode_options(mode, None))
    known = config.get_config_copy()
    for key, value in (options or {}).items():
        name = key.replace("-", "_")
        if name not in known:
            raise RuntimeError(f"Unexpected optimization option {key}, known options are {sorted(known)}")
        patches[name] = value
    return patches


def _passes(existing, ours) -> list:
    """Our pass after any the user configured (Inductor accepts a list)."""
    if existing is None:
        return [ours]
    return [*existing, ours] if isinstance(existing, (list, tuple)) else [existing, ours]


class RewriteBackend:
    """A torch.compile backend applying a rule set.  ``reports`` holds one :class:`Report` per
    graph processed (the last ``max_reports``); ``graphs`` the rewritten post-grad graphs when
    ``keep_graphs``."""

    def __init__(self, rules=None, base: str = "inductor", strict: bool = False, cache: bool = True,
                 legality: bool = True, keep_graphs: bool = False, max_reports: int = MAX_REPORTS,
                 measure_copies: bool = False, snapshots: bool = False, fallback: str = "reference"):
        if base not in BASES:
            raise ValueError(f"base must be one of {BASES}, not {base!r}")
        if fallback not in FALLBACKS:
            raise ValueError(f"fallback must be one of {FALLBACKS}, not {fallback!r}")
        self._config = dict(rules=_rule_paths(rules), base=base, strict=strict, cache=cache, legality=legality,
                            keep_graphs=keep_graphs, max_reports=max_reports, measure_copies=measure_copies,
                            snapshots=snapshots, fallback=fallback)
        self.fallback = "reference" if fallback == "aot_eager" else fallback
        self.measure_copies = measure_copies
        self.snapshots = snapshots
        self.rule_set = rules if isinstance(rules, RuleSet) else RuleSet.load(rules, strict=strict, legality=legality)
        self.base = base
        self.cache = cache
        self._log = _Log(keep_graphs, max_reports)

    @property
    def reports(self) -> List[Report]:
        return list(self._log.reports)

    @property
    def graphs(self) -> List[Tuple[str, fx.GraphModule]]:
        return list(self._log.graphs)

    def clear(self) -> None:
        self._log.reports.clear()
        self._log.graphs.clear()

    # copy.deepcopy and pickle rebuild the backend from its configuration (rule files and
    # settings); reports are not carried over.
    def __reduce__(self):
        return (_rebuild, (self._config,))

    def __call__(self, gm: fx.GraphModule, example_inputs, mode: Optional[str] = None,
                 options: Optional[Dict[str, Any]] = None, **_ignored):
        kind = "inference" if _is_inference(example_inputs) else "forward"
        if self.rule_set.runs_at("dynamo"):
            with self._log.lock:   # dependencies need the user's in-place ops, which only this graph has
                report = self.rule_set.apply(gm, graph_kind="dynamo", snapshots=self.snapshots)
            self._log.add(report, "dynamo", None)
            if report.left_to_reference and self.base == "inductor":
                # AOTAutograd handles the op right and Inductor's lowering does not: the eager base
                # runs AOTAutograd's graph as it is, the Inductor base gives it to aot_eager
                error = ReferenceFallback(f"left to torch's reference pipeline (fallback reference): "
                                          f"{report.left_to_reference[0]}")
                if self.fallback == "error":
                    raise error
                return self._fall_back(gm, example_inputs, kind, error)
        patches = inductor_config(mode, options)
        self._warn_if_passes_off(patches, mode)
        reported = self._log.mark()
        try:
            if self.base == "inductor":
                return self._inductor(gm, example_inputs, patches)
            return self._eager(gm, example_inputs, kind, patches)
        except Exception as error:
            if self.fallback == "error" or _for_dynamo(error):
                raise
            self._log.drop_after(reported)     # the reports of the failed attempt describe nothing that runs
            return self._fall_back(gm, example_inputs, kind, error)

    def _fall_back(self, gm, example_inputs, kind: str, error: Exception):
        """Run ``gm`` with torch's reference after the compile failed with ``error`` (or a
        dependency left it to the reference: ``ReferenceFallback``): the graph runs right, without
        the rules after the Dynamo stage or Inductor, rather than not at all.

        A graph left to the reference compiles with ``aot_eager``: AOTAutograd handles its op
        right.  A graph whose compile failed runs as Dynamo captured it, op by op (what torch's
        ``eager`` backend does), not traced again: the failed attempt shared Dynamo's fake-tensor
        mode and shape environment, and AOTAutograd's second trace of the same graph read what
        it left there (fuzz seed 0 p3089: with static shapes the fake-tensor dispatch cache, with
        dynamic ones the storage offsets of a v2 call's views came out relative to a fresh
        buffer; the input ended wrong both times).  Where the reference fails too, ``error`` is
        raised."""
        from torch._dynamo.backends.debugging import aot_eager
        from torch._subclasses.fake_tensor import FakeTensorMode

        reason = _first_line(error)
        if isinstance(error, ReferenceFallback):
            try:
                compiled = aot_eager(gm, example_inputs)
            except Exception:
                raise error from None
            runs = RUNS_WITH_AOT_EAGER
            log.warning("%s; the %s graph runs with aot_eager (no Inductor, no rules after the Dynamo stage)", reason, kind)
        else:
            FakeTensorMode.cache_clear()    # what the failed attempt left for later compiles
            compiled, runs = gm.forward, RUNS_EAGERLY
            log.warning("compiling the %s graph failed (%s); it runs eagerly instead (Dynamo's graph op by op: no "
                        "Inductor, no rules after the Dynamo stage); make_backend(fallback=\"error\") raises", kind, reason)
        self._log.add(Report(graph=kind, fallback=reason, fallback_runs=runs), kind, None)
        return compiled

    @contextlib.contextmanager
    def _backward_fallback(self, gm: fx.GraphModule):
        """Around a backward graph's compile: where it fails (a stop of the engine's nets, an
        Inductor error), the graph runs as AOTAutograd handed it over, op by op (a copy taken
        before any pass ran on it: what ``aot_eager`` runs), with a warning, rather than raising
        in the middle of ``loss.backward()``.  AOTAutograd compiles a backward lazily, after the
        backend returned, so ``__call__``'s fallback cannot catch it (fuzz seed 193 p789 stopped
        there).  The yielded object is that copy (``_Pristine``; its ``module()`` runs); the
        body's return skips the code after the ``with``."""
        fallback = _Pristine(gm)
        reported = self._log.mark()
        try:
            yield fallback
        except Exception as error:
            if self.fallback == "error" or _for_dynamo(error):
                raise
            from torch._subclasses.fake_tensor import FakeTensorMode

            FakeTensorMode.cache_clear()    # what the failed attempt left for later compiles
            self._log.drop_after(reported)
            reason = _first_line(error)
            log.warning("compiling the backward graph failed (%s); it runs eagerly instead (AOTAutograd's graph op "
                        "by op: no Inductor, no rules); make_backend(fallback=\"error\") raises", reason)
            self._log.add(Report(graph="backward", fallback=reason, fallback_runs=RUNS_AS_AOT_EAGER), "backward", None)

    def _warn_if_passes_off(self, patches: Dict[str, Any], mode: Optional[str]) -> None:
        """``mode="lite"`` (or the options) turn Inductor's pass pipelines off, and with them the
        rules that run inside it; say so rather than report nothing."""
        off = [(flag, stages) for flag, stages in (("use_post_grad_passes", POST_GRAD),
                                                    ("use_joint_graph_passes", ("joint",)))
               if patches.get(flag) is False and any(self.rule_set.runs_at(s) for s in stages)]
        for flag, stages in off:
            log.warning("%s=False (%s): Inductor runs no %s passes, so the rules of stage %s do not run",
                        flag, f"mode {mode!r}" if mode else "options", flag.split("_")[1].replace("post", "post-grad"),
                        "/".join(stages))

    def _patches(self, patches: Dict[str, Any]) -> Dict[str, Any]:
        from torch._inductor import config

        out = dict(patches)
        if any(self.rule_set.runs_at(s) for s in POST_GRAD):
            out["post_grad_custom_post_pass"] = _passes(patches.get("post_grad_custom_post_pass",
                                                                    config.post_grad_custom_post_pass),
                                                        RulePass(self.rule_set, self._log, self.measure_copies,
                                                                 self.snapshots, inductor=self.base == "inductor"))
        if any(self.rule_set.runs_at(s) for s in ("joint",) + POST_GRAD):
            out["joint_custom_pre_pass"] = _passes(patches.get("joint_custom_pre_pass", config.joint_custom_pre_pass),
                                                   JointPass(self.rule_set, self._log, self.snapshots))
        if not self.cache:
            out["fx_graph_cache"] = False
        return out

    def _inductor(self, gm, example_inputs, patches):
        from functorch.compile import make_boxed_func
        from torch._inductor.compile_fx import compile_fx, compile_fx_inner

        log_ = self._log

        def inner_compile(graph_module, inputs, **kwargs):
            if kwargs.get("is_backward"):
                with self._backward_fallback(graph_module) as fallback:
                    return compile_graph(graph_module, inputs, **kwargs)
                return _eager_output_code(make_boxed_func(fallback.module().forward))
            return compile_graph(graph_module, inputs, **kwargs)

        def compile_graph(graph_module, inputs, **kwargs):
            # A graph served from Inductor's FX graph cache skips every pass: say so.
            hits = _cache_hits()
            out = compile_fx_inner(graph_module, inputs, **kwargs)
            if _cache_hits() > hits:
                kind = "inference" if kwargs.get("is_inference") else \
                    ("backward" if kwargs.get("is_backward") else "forward")
                log.info("%s graph served from Inductor's FX graph cache: rules not run on it", kind)
                log_.add(Report(graph=kind, cache_hit=True), kind, None)
            return out

        # Passed as config_patches, the passes also apply to the backward graph, which
        # AOTAutograd compiles lazily, after this call has returned.
        return compile_fx(gm, example_inputs, inner_compile=inner_compile, config_patches=self._patches(patches))

    def _eager(self, gm, example_inputs, kind, patches):
        """AOTAutograd with Inductor's decompositions, joint-graph passes, partitioner and
        post-grad passes (ours among them, where Inductor would run them); then run the graphs."""
        from functorch.compile import make_boxed_func
        from torch._dynamo.backends.common import aot_autograd
        from torch._inductor import config
        from torch._inductor.compile_fx import _recursive_post_grad_passes
        from torch._inductor.decomposition import select_decomp_table
        from torch._inductor.fx_passes.joint_graph import joint_graph_passes
        from torch._inductor.virtualized import V
        from torch._guards import detect_fake_mode

        inductor_patches = {k: v for k, v in self._patches(patches).items() if k in config.get_config_copy()}

        def compiler(default_kind):
            def compile_or_fall_back(fx_g: fx.GraphModule, inputs):
                if graph_kind_of(fx_g.graph, default_kind) != "backward":
                    return compile_graph(fx_g, inputs)
                with self._backward_fallback(fx_g) as fallback:
                    return compile_graph(fx_g, inputs)
                return make_boxed_func(fallback.module().forward)

            def compile_graph(fx_g: fx.GraphModule, inputs):
                graph_kind = graph_kind_of(fx_g.graph, default_kind)
                fake_mode = detect_fake_mode(inputs) or graph_fake_mode(fx_g.graph)
                with config.patch(inductor_patches), V.set_fake_mode(fake_mode):
                    if graph_kind == "inference":   # training graphs had these passes in partition_fn
                        fx_g = joint_graph_passes(fx_g)
                    _recursive_post_grad_passes(fx_g, is_inference=graph_kind == "inference")
                runnable_as_aten(fx_g)
                return make_boxed_func(fx_g.forward)

            return compile_or_fall_back

        # torch's aot_autograd backend helper, not aot_module_simplified alone: the DDP optimizer
        # counts its calls to know that the compiled submodules take fake inputs, and it keeps
        # Dynamo out of the backward compiler.  Pre-grad passes and functorch settings as
        # compile_fx gives them, so both bases see the same graphs.
        from torch._functorch import config as functorch_config
        from torch._inductor.compile_fx import run_pre_grad_passes

        aot = aot_autograd(
            fw_compiler=compiler(kind), bw_compiler=compiler("backward"), inference_compiler=compiler("inference"),
            decompositions=select_decomp_table(),
            partition_fn=_inductor_partition_fn(),
            keep_inference_input_mutations=True,
            pre_grad_passes=run_pre_grad_passes,
        )
        with config.patch(inductor_patches), functorch_config.patch(unlift_effect_tokens=True,
                                                                     selective_decompose=config.selective_decompose):
            return aot(gm, example_inputs)

    def fired(self) -> List[str]:
        return [name for rep in self.reports for name in rep.fired_rules()]


def _for_dynamo(error: BaseException) -> bool:
    """An exception Dynamo acts on (restart the analysis, skip or break the frame), not a failure."""
    from torch._dynamo import exc

    return isinstance(error, (exc.RestartAnalysis, exc.SkipFrame, exc.Unsupported, IndexError)
                      + exc.exceptions_allowed_to_be_fallback)   # (Dynamo breaks the graph for these)


def _first_line(error: BaseException) -> str:
    """The first line of the error Inductor wrapped (``InductorError``), with the place it was
    raised where it has no message (a bare ``assert``)."""
    inner = getattr(error, "inner_exception", None) or error
    lines = [line for line in str(inner).strip().splitlines() if line.strip()]
    if lines:
        return f"{type(inner).__name__}: {lines[0][:300]}"
    frames = traceback.extract_tb(inner.__traceback__)
    where = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno} ({frames[-1].name})" if frames else ""
    return f"{type(inner).__name__}{where}"


class _Pristine:
    """A graph module's graph (and its higher-order ops' subgraphs), copied before any pass
    changes them, and the attributes it reads; the module is built only where it runs (a graph's
    deep copy shares its nodes' meta, no fake tensor is copied; building the module, which
    generates its code, costs more than copying and is left to the fallback)."""

    def __init__(self, gm: fx.GraphModule):
        self.graph = copy.deepcopy(gm.graph)
        self.name = type(gm).__name__
        self.attrs = {}
        for node in self.graph.find_nodes(op="get_attr"):
            value = operator.attrgetter(node.target)(gm)
            self.attrs[node.target] = _Pristine(value) if isinstance(value, fx.GraphModule) else value

    def module(self) -> fx.GraphModule:
        attrs = {k: v.module() if isinstance(v, _Pristine) else v for k, v in self.attrs.items()}
        return fx.GraphModule(attrs, self.graph, class_name=self.name)


@functools.lru_cache(maxsize=1)
def _eager_output_code_class():
    """An Inductor ``OutputCode`` that runs a boxed Python function: what Inductor's backward
    compiler must return.  It has no FX-graph-cache key, so AOTAutograd's cache does not save it."""
    from torch._inductor.output_code import OutputCode

    @dataclasses.dataclass
    class EagerOutputCode(OutputCode):
        fn: Any = None

        def __post_init__(self) -> None:
            self._boxed_call = True

        def __call__(self, inputs):
            return self.fn(inputs)

        def post_compile(self, example_inputs, constants, graph_kwargs) -> None:
            pass

        def set_triton_bundle(self, triton_bundle) -> None:
            pass

        def prepare_for_serialization(self) -> None:
            pass

    return EagerOutputCode


def _eager_output_code(fn):
    return _eager_output_code_class()(fn=fn)


def _rebuild(config: Dict[str, Any]) -> RewriteBackend:
    return RewriteBackend(**config)


def _rule_paths(rules) -> Optional[List[str]]:
    """The rule files a backend was built from, for rebuilding it; accepts one path or a list."""
    if rules is None:
        return None
    if isinstance(rules, RuleSet):
        return sorted(rules.loaded.sources)
    if isinstance(rules, (str, os.PathLike)):
        return [os.fspath(rules)]
    return [os.fspath(p) for p in rules]


def _cache_hits() -> int:
    from torch._dynamo.utils import counters

    return counters["inductor"]["fxgraph_cache_hit"]


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


def make_backend(rules=None, base: str = "inductor", strict: bool = False, cache: bool = True,
                 legality: bool = True, keep_graphs: bool = False, max_reports: int = MAX_REPORTS,
                 measure_copies: bool = False, snapshots: bool = False, fallback: str = "reference") -> RewriteBackend:
    """A backend over ``rules`` (a rule file or folder, or a list of them; None = the shipped
    rules; [] = none).

    ``strict`` lints the whole graph after every rewrite; ``cache=False`` keeps Inductor's FX
    graph cache out so that every graph is rewritten (and reported) in this process;
    ``legality=False`` turns the independent legality check off (and with it every rewrite that
    adds or removes a write); ``keep_graphs`` keeps the rewritten graphs in ``graphs``;
    ``measure_copies`` fills each post-grad report's ``copies``, the comparison with what stock
    Inductor's reinplacing leaves (it costs a simulation of that pass per graph, so a compile
    pays for it only when asked; ``REWRITE_LOG=info`` asks too); ``snapshots`` fills each report's
    ``before`` and ``after``, the graph as plain data before and after the rules (``rewrite
    explain`` draws them; ``REWRITE_LOG=info`` asks too); ``fallback`` is what a graph whose
    compile fails past the Dynamo stage gets (an Inductor lowering or pass error, a stop of the
    engine's nets): ``"reference"`` runs Dynamo's graph eagerly, op by op, no Inductor and no rules
    after the Dynamo stage, with a warning and a report whose ``fallback`` names the error;
    ``"aot_eager"``, its first name, means the same (it no longer traces the graph with
    aot_eager: ``RewriteBackend._fall_back``); ``"error"`` raises.  (The forward or inference
    graph, compiled in this call; a backward graph that AOTAutograd compiles lazily at the first
    ``backward()`` still raises.)"""
    return RewriteBackend(rules, base=base, strict=strict, cache=cache, legality=legality,
                          keep_graphs=keep_graphs, max_reports=max_reports, measure_copies=measure_copies,
                          snapshots=snapshots, fallback=fallback)


@functools.lru_cache(maxsize=1)
def _default_backend() -> RewriteBackend:
    return make_backend(None, base="inductor")


def rewrite_backend(gm: fx.GraphModule, example_inputs, **kwargs):
    """The ``torch_dynamo_backends`` entry point: Inductor with the shipped rules (``mode`` and
    ``options`` as for ``backend="inductor"``)."""
    return _default_backend()(gm, example_inputs, **kwargs)


def inductor_pass(rules=None, reports: Optional[List[Report]] = None) -> RulePass:
    """The post-grad rules as a pass for plain Inductor::

        torch._inductor.config.post_grad_custom_post_pass = rewrite.backend.inductor_pass()

    Only the post-grad rules run this way; dependencies of higher-order ops need the Dynamo
    graph, which only the ``rewrite`` backend sees."""
    rule_set = rules if isinstance(rules, RuleSet) else RuleSet.load(rules)

    class _ListSink:
        def add(self, report, kind, gm):
            if reports is not None:
                reports.append(report)

    return RulePass(rule_set, _ListSink())


class _CallableModule(types.ModuleType):
    """``rewrite.backend(rules=[...], base="eager")`` builds a backend; the module's names stay
    importable as usual."""

    def __call__(self, rules=None, base: str = "inductor", strict: bool = False, cache: bool = True,
                 legality: bool = True, keep_graphs: bool = False, max_reports: int = MAX_REPORTS,
                 measure_copies: bool = False, snapshots: bool = False, fallback: str = "reference") -> RewriteBackend:
        return make_backend(rules, base=base, strict=strict, cache=cache, legality=legality,
                            keep_graphs=keep_graphs, max_reports=max_reports, measure_copies=measure_copies,
                            snapshots=snapshots, fallback=fallback)


sys.modules[__name__].__class__ = _CallableModule
