"""Running one zoo program on eager, stock Inductor and rewrite side by side in one process, and
measuring: correctness against eager after each of the first calls, the copies left in the final
graphs Inductor lowers, median latency with the backends interleaved, compile time and
recompiles.  Used by benchmarks/models.py (and by its DDP workers)."""
from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import re
import shutil
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

import torch
from torch._inductor.utils import fresh_cache

from common import CompileWatch, recompiles
from rewrite.backend import make_backend
from rewrite.testing.final_graphs import Copy, FinalGraph, capture_final_graphs, summarize

BACKENDS = ("eager", "inductor", "rewrite")


@dataclass
class Run:
    """One backend's instance of a program and what its calls recorded."""
    backend: str
    instance: Any = None
    rule_backend: Any = None                     # the RewriteBackend, for its reports
    error: Optional[str] = None
    graphs: List[FinalGraph] = field(default_factory=list)
    events: list = field(default_factory=list)   # CompileWatch events
    guard_failures: List[str] = field(default_factory=list)   # met during this backend's calls
    snapshots: List[Dict[str, torch.Tensor]] = field(default_factory=list)
    times: List[float] = field(default_factory=list)


def compiler(backend: str, mode: Optional[str], dynamic: Optional[bool] = None):
    """(compile function, RewriteBackend or None) for a backend name."""
    if backend == "eager":
        return (lambda fn: fn), None
    options = {"mode": mode} if mode else {}
    if dynamic is not None:
        options["dynamic"] = dynamic
    if backend == "inductor":
        return (lambda fn: torch.compile(fn, backend="inductor", **options)), None
    rules = make_backend(cache=False)   # cache=False: every graph goes through the rules and is reported
    return (lambda fn: torch.compile(fn, backend=rules, **options)), rules


def error_text(exc: BaseException) -> str:
    """``Type: first line``; for Dynamo's BackendCompilerFailed, that of the backend's own error."""
    inner = getattr(exc, "inner_exception", None)
    shown = inner if isinstance(inner, BaseException) else exc
    lines = str(shown).strip().splitlines()
    text = f"{type(shown).__name__}: {lines[0][:300] if lines else ''}"
    return text if shown is exc else f"{type(exc).__name__} ({text})"


# ---------------------------------------------------------------------------------- calling

class Recorder:
    """Calls instances, giving each backend the graphs and compile events its calls produced.

    Calls that may compile run with a fresh, empty Inductor cache (``fresh_cache``: in-memory
    code caches cleared, a new cache folder): otherwise the second backend would load the C++
    kernels the first one compiled (byte-identical code is common) and its compile time would
    look shorter."""

    def __init__(self, graphs: List[FinalGraph], watch: CompileWatch, cache_root: str):
        self.graphs, self.watch, self.cache_root = graphs, watch, cache_root

    def call(self, run: Run, i: int, may_compile: bool = True):
        if run.instance is None:
            return None
        n_graphs, n_events, marks = len(self.graphs), len(self.watch.events), guard_failure_marks()
        fresh = may_compile and run.backend != "eager"
        try:
            with (fresh_cache(dir=self.cache_root, delete=False) if fresh else contextlib.nullcontext()):
                t0 = time.perf_counter()
                out = run.instance.call(i)
                run.times.append(time.perf_counter() - t0)
            return out
        except Exception as exc:   # a backend that cannot compile or run the program
            run.error, run.instance = error_text(exc), None
            return None
        finally:
            run.graphs += self.graphs[n_graphs:]
            run.events += self.watch.events[n_events:]
            run.guard_failures += new_guard_failures(marks)


def snapshot(out, state: Dict[str, torch.Tensor]) -> Dict[str, torch.Tensor]:
    values = {}
    if isinstance(out, torch.Tensor):
        values["output"] = out
    elif isinstance(out, (tuple, list)):
        values.update({f"output[{k}]": t for k, t in enumerate(out) if isinstance(t, torch.Tensor)})
    values.update(state)
    return {k: v.detach().clone() for k, v in values.items()}


# ---------------------------------------------------------------------------------- comparing

def compare(reference: List[Dict[str, torch.Tensor]], got: List[Dict[str, torch.Tensor]], tolerance) -> Dict[str, Any]:
    """Every tensor after every checked call against eager's: max |difference|, where it is
    largest relative to its bound, and whether all are within ``tolerance`` (or equal)."""
    result = {"ok": len(got) == len(reference), "exact": len(got) == len(reference), "max_abs_diff": 0.0,
              "worst": None, "worst_ratio": 0.0, "tensors": 0, "calls": len(got), "problems": []}
    for call, (ref, mine) in enumerate(zip(reference, got), 1):
        for key in sorted(set(ref) | set(mine)):
            if key not in ref or key not in mine or ref[key].shape != mine[key].shape:
                result["ok"] = result["exact"] = False
                result["problems"].append(f"call {call}: {key} missing or of another shape")
                continue
            a, b = ref[key], mine[key]
            result["tensors"] += 1
            diff = 0.0 if torch.equal(a, b) else _max_difference(a, b)
            if diff == 0.0:   # equal, NaN where eager has NaN included
                continue
            result["exact"] = False
            bound = tolerance.bound(key, a, call) if a.is_floating_point() else 0.0
            bound = 0.0 if math.isnan(bound) else bound
            ratio = diff / bound if bound > 0 else float("inf")
            if ratio > 1:
                result["ok"] = False
                result["problems"].append(f"call {call}: {key} max |diff| {diff:.3g} > bound {bound:.3g}")
            result["max_abs_diff"] = max(result["max_abs_diff"], diff)
            if ratio > result["worst_ratio"]:
                result["worst_ratio"] = ratio
                result["worst"] = f"call {call}: {key} (|diff| {diff:.3g}, bound {bound:.3g})"
    result["problems"] = result["problems"][:10]
    return result


def _max_difference(a: torch.Tensor, b: torch.Tensor) -> float:
    """max |a - b| over the elements where they differ; NaN in both agrees, NaN in one is an
    infinite difference (so a NaN never passes a bound)."""
    a, b = a.double(), b.double()
    agree = (a == b) | (torch.isnan(a) & torch.isnan(b))
    diff = (a - b).abs().masked_fill(agree, 0.0).max().item()
    return float("inf") if math.isnan(diff) else diff


# ---------------------------------------------------------------------------------- graphs

def steady_graphs(graphs: List[FinalGraph]) -> List[FinalGraph]:
    """The graphs one call runs once compilation has settled: for every Dynamo frame, those of its
    latest compilation (forward and backward, or all the pieces DDP splits it into)."""
    latest: Dict[str, str] = {}
    for g in graphs:
        latest[_frame(g.compile_id)] = g.compile_id
    return [g for g in graphs if latest[_frame(g.compile_id)] == g.compile_id]


def _frame(compile_id: Optional[str]) -> str:
    return (compile_id or "?").split("/")[0]


def short_source(source: Optional[str]) -> str:
    """"/.../site-packages/transformers/cache_utils.py:584 in update, code: x" ->
    "transformers/cache_utils.py:584 in update: x"."""
    if not source:
        return ""
    source = re.sub(r"^.*?site-packages/", "", source)
    source = re.sub(r"^" + re.escape(os.getcwd() + os.sep), "", source)
    return source.replace(", code: ", ": ")


def copy_record(graph: FinalGraph, c: Copy, excerpt: bool) -> Dict[str, Any]:
    record = {
        "graph": f"{graph.compile_id} {graph.kind}", "node": c.node.name, "op": c.node.op, "kind": c.kind,
        "type": str(c.node.type or c.node.annotation), "bytes_read": c.bytes_read, "bytes_written": c.bytes_written,
        "source": short_source(c.source), "subgraph": c.section,
    }
    if c.kind in ("copy-back", "write-back"):
        record["fed_by"] = c.fed_by
        record["onto_itself"] = _onto_itself(c)
    if excerpt:
        record["excerpt"] = graph.excerpt(c.node)
    return record


def _onto_itself(c: Copy) -> bool:
    """``copy_(x, x)`` (the parsed graph lists an operand once)."""
    return len(set(c.node.operands[:2])) == 1


def copies_of(graphs: List[FinalGraph], excerpts: bool) -> Dict[str, Any]:
    summary = summarize(graphs)
    return {
        "count": summary.copies, "bytes": summary.copy_bytes, "traffic": summary.traffic,
        "copy_backs": summary.copy_backs, "copy_back_traffic": summary.copy_back_traffic,
        "list": [copy_record(g, c, excerpts) for g in graphs for c in g.copies()],
        # copy_(x, x): what the graph keeps of a mutation reinplaced into input x; no kernel
        "onto_itself": sum(1 for g in graphs for c in g.copy_backs() if _onto_itself(c)),
        "copy_back_list": [copy_record(g, c, c.fed_by is not None) for g in graphs for c in g.copy_backs()],
        "write_backs": [copy_record(g, c, True) for g in graphs for c in write_backs_of_copies(g)],
        "graphs": [{"compile_id": g.compile_id, "kind": g.kind, "nodes": sum(1 for _ in g.nodes()),
                    "ops": dict(sorted(g.op_counts().items()))} for g in graphs],
    }


# ---------------------------------------------------------------------------------- a program

def run_program(program, calls: int, warmup: int, check_calls: int = 3, mode: Optional[str] = None,
                backends=BACKENDS) -> Dict[str, Any]:
    """All measurements of one program (a zoo_programs.Program)."""
    total = check_calls + warmup + calls
    if total > program.max_calls:
        raise ValueError(f"{program.name}: {total} calls asked, the program supports {program.max_calls}")
    torch._dynamo.reset()
    breaks_before = Counter(torch._dynamo.utils.counters["graph_break"])
    runs = {b: Run(b) for b in backends}
    cache_root = tempfile.mkdtemp(prefix="zoo-inductor-")
    try:
        with torch._inductor.config.patch(dict(program.inductor_config)), capture_final_graphs() as graphs, \
                CompileWatch() as watch:
            prime_error = prime(program)
            call_all(program, runs, Recorder(graphs, watch, cache_root), calls, warmup, check_calls, mode)
    finally:
        shutil.rmtree(cache_root, ignore_errors=True)
    result = summarize_runs(program, runs)
    if program.inductor_config:
        result["inductor_config"] = dict(program.inductor_config)
    result["prime_error"] = prime_error
    breaks = Counter(torch._dynamo.utils.counters["graph_break"]) - breaks_before
    result["graph_breaks"] = sorted({reason.strip().splitlines()[0][:200] for reason in breaks})
    return result


def prime_process() -> None:
    """One small compile through Inductor, unmeasured: the first compilation in a process pays
    for imports, pattern-matcher set-up and toolchain checks that would otherwise be charged to
    the first backend of the first program."""
    layer = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.LayerNorm(8))
    with fresh_cache():
        torch.compile(lambda x: layer(x).softmax(-1).sum())(torch.randn(4, 8, requires_grad=True)).backward()
    torch._dynamo.reset()


def prime(program) -> Optional[str]:
    """Trace the program once through Dynamo and AOTAutograd (no code generation), unmeasured:
    the first trace of a model's code in a process pays one-time costs that would otherwise fall
    on whichever backend compiles first.  Returns the error, if any."""
    try:
        program.build(lambda fn: torch.compile(fn, backend="aot_eager")).call(0)
    except Exception as exc:
        return error_text(exc)
    return None


def call_all(program, runs: Dict[str, Run], recorder: Recorder, calls: int, warmup: int,
             check_calls: int, mode: Optional[str]) -> None:
    """Build every backend's instance, make the checked calls (snapshotting what each leaves
    behind), then the warm-up and timed calls with the backends interleaved."""
    for run in runs.values():
        compile_fn, run.rule_backend = compiler(run.backend, mode)
        try:
            run.instance = program.build(compile_fn)
        except Exception as exc:
            run.error = error_text(exc)
    for i in range(check_calls):                                      # correctness
        for run in runs.values():
            out = recorder.call(run, i)
            if run.instance is not None:
                run.snapshots.append(snapshot(out, run.instance.state()))
    first_timed = check_calls + warmup
    for i in range(check_calls, first_timed + calls):                 # warm-up, then timed rounds
        order = list(runs.values())
        k = i % len(order)
        for run in order[k:] + order[:k]:                             # rotate who goes first
            recorder.call(run, i, may_compile=i < first_timed)
        if i + 1 == first_timed:
            for run in runs.values():
                run.times.clear()


def guard_failure_marks() -> Dict[Any, int]:
    return {code: len(failures) for code, failures in torch._dynamo.utils.guard_failures.items()}


def new_guard_failures(marks: Dict[Any, int]) -> List[str]:
    """Guard failures Dynamo recorded since ``marks`` (guard_failure_marks())."""
    return [str(text) for code, failures in torch._dynamo.utils.guard_failures.items()
            for text in failures[marks.get(code, 0):]]


def recompile_reasons(run: Run) -> List[str]:
    """Why this backend recompiled: the guard failures met during its own calls on entries it
    had compiled itself (every backend's entries of a shared frame are checked in turn; the
    others fail on the backend or object identity), first line of each."""
    own = {cid for _, cid, _ in run.events}
    reasons = []
    for text in run.guard_failures:
        cid, _, reason = text.partition(": ")
        if cid in own:
            reasons.append(f"{cid}: " + re.sub(r"\s+", " ", reason.splitlines()[0])[:240])
    return list(dict.fromkeys(reasons))


def summarize_runs(program, runs: Dict[str, Run]) -> Dict[str, Any]:
    reference = runs["eager"].snapshots if "eager" in runs else None
    out = {"name": program.name, "what": program.what, "tolerance": dataclasses.asdict(program.tolerance),
           "backends": {}}
    for name, run in runs.items():
        steady = steady_graphs(run.graphs)
        out["backends"][name] = {
            "error": run.error,
            "correct": (None if reference is None or name == "eager"
                        else compare(reference, run.snapshots, program.tolerance)),
            "median_ms": statistics.median(run.times) * 1e3 if run.times and run.error is None else None,
            "timed_calls": len(run.times),
            "compile_s": sum(seconds for _, _, seconds in run.events),
            "compiles": len(run.events),
            "recompiles": recompiles(run.events),
            "recompile_reasons": recompile_reasons(run),
            "copies": copies_of(steady, excerpts=True) if name != "eager" else None,
            "watched": watched(program.watch, steady) if name != "eager" and program.watch else None,
            "graphs_compiled": len(run.graphs),
            "fired": dict(Counter(run.rule_backend.fired())) if run.rule_backend is not None else None,
            "rule_seconds": rule_seconds(run.rule_backend) if run.rule_backend is not None else None,
        }
    return out


def watched(watch, graphs: List[FinalGraph]) -> Dict[str, Dict[str, Any]]:
    """For each (label, text) of a program's ``watch``: the copies, the copy-backs of a copy and
    the write-backs of a copy into part of an input that come from a call whose source line holds
    ``text`` (the node's own line, or for a node Inductor made without one, one of its
    operands'): count, bytes written, traffic."""
    out = {}
    for label, text in watch:
        copies = [c for g in graphs for c in g.copies() if _comes_from(g, c, text)]
        backs = [c for g in graphs for c in g.copy_backs() if c.fed_by and _comes_from(g, c, text)]
        backs += [c for g in graphs for c in write_backs_of_copies(g) if _comes_from(g, c, text)]
        out[label] = {"copies": len(copies), "bytes": _total(c.bytes_written for c in copies),
                      "traffic": _total(c.traffic_bytes for c in copies),
                      "copy_backs_of_a_copy": len(backs), "copy_back_traffic": _total(c.traffic_bytes for c in backs)}
    return out


def _comes_from(graph: FinalGraph, c: Copy, text: str) -> bool:
    section = next(s for s in graph.sections if s.name == c.section)
    if c.node.source:
        return text in c.node.source
    return any(text in (section.by_name[o].source or "") for o in c.node.operands if o in section.by_name)


def write_backs_of_copies(graph: FinalGraph) -> List[Copy]:
    """``copy_`` into a view of a graph input (a part of it) of a value one of the graph's copies
    made: the copy's way back into the input.  final_graphs counts neither (a partial write into
    an input is in place), so a graph that copies part of an input out and back in would look
    free; these are counted here, traffic = bytes of the value read + bytes of the part written."""
    made = {(c.section, c.node.name) for c in graph.copies()}
    out = []
    for section, node in graph.nodes():
        if node.packet != "aten.copy_" or len(node.operands) < 2:
            continue
        dst, src = node.operands[:2]
        if section.is_input(dst) or dst not in section.by_name or src not in section.by_name:
            continue
        if section.root(dst).op != "placeholder" or (section.name, section.root(src).name) not in made:
            continue
        part, value = node.type or section.by_name[dst].type, section.by_name[src].type
        out.append(Copy(node, "write-back", section.name, value.nbytes if value else None,
                        part.nbytes if part else None, section.source_of(node), fed_by=section.root(src).name))
    return out


def _total(values) -> Optional[int]:
    values = list(values)
    return None if any(v is None for v in values) else sum(values)


# ---------------------------------------------------------------------------------- recompile sweeps

def run_sweep(name: str, make, points: int, calls_per_point: int, tolerance, mode: Optional[str] = None,
              backends=BACKENDS, dynamic: Optional[bool] = True) -> Dict[str, Any]:
    """``make(compile)`` -> call(point, j); every backend makes the same calls, compiled with
    ``dynamic`` (None: torch.compile's default, automatic dynamic shapes), each on a fresh Dynamo
    so that no backend inherits another's recompile budget.  Reports compilations, recompiles
    (and Dynamo's reasons) and agreement with eager."""
    out = {"name": name, "dynamic": dynamic, "points": points, "calls_per_point": calls_per_point, "backends": {}}
    reference = None
    for backend in backends:
        torch._dynamo.reset()
        compile_fn, _ = compiler(backend, mode, dynamic=dynamic)
        run, outputs, watch, marks = Run(backend), [], CompileWatch(), guard_failure_marks()
        cache_root = tempfile.mkdtemp(prefix="zoo-inductor-")
        try:
            with watch, fresh_cache(dir=cache_root, delete=False):
                call = make(compile_fn)
                for p in range(points):
                    for j in range(calls_per_point):
                        outputs.append({"output": call(p, j).detach().clone()})
        except Exception as exc:
            run.error = error_text(exc)
        finally:
            run.events, run.guard_failures = watch.events, new_guard_failures(marks)
            shutil.rmtree(cache_root, ignore_errors=True)
        reference = outputs if backend == "eager" else reference
        out["backends"][backend] = {
            "error": run.error,
            "correct": compare(reference, outputs, tolerance) if reference is not None and backend != "eager" else None,
            "compiles": len(run.events), "recompiles": recompiles(run.events),
            "recompile_reasons": recompile_reasons(run), "compile_s": sum(s for _, _, s in run.events),
        }
    return out


def rule_seconds(backend) -> Dict[str, float]:
    """Time the rules took over every graph the backend rewrote, split as ``Report.seconds``
    splits it: the whole pass, and in it the legality check, the ownership of Inductor's
    reinplacing and the measuring of copies."""
    out: Dict[str, float] = {}
    for report in backend.reports:
        for key, value in report.seconds.items():
            out[key] = round(out.get(key, 0.0) + value, 3)
    return out

