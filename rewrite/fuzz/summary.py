"""What a fuzz run prints, and its JSON summary."""
from __future__ import annotations

import datetime
import platform
import statistics
from collections import Counter, defaultdict
from typing import Dict, List

from rewrite.fuzz.oracle import BASE_BACKENDS, CLASSES, references
from rewrite.fuzz.session import FuzzRun
from rewrite.fuzz.worker import ProgramResult

OTHER = ("invalid", "error")


def class_counts(run: FuzzRun) -> Dict[str, Dict[str, int]]:
    """base -> class -> programs, and "all" -> the programs' overall classes."""
    out: Dict[str, Counter] = {"all": Counter()}
    for r in run.results:
        out["all"][r.cls] += 1
        if r.verdict is not None:
            for base, c in r.verdict.classes.items():
                out.setdefault(base, Counter())[c] += 1
    return {k: {c: v[c] for c in CLASSES + OTHER if v[c]} for k, v in out.items()}


def backend_seconds(run: FuzzRun) -> Dict[str, dict]:
    """Per backend: runs, mean and median seconds per program (compile + 3 calls + compare)."""
    times: Dict[str, List[float]] = defaultdict(list)
    for r in run.results:
        if r.program is not None:
            times["generate+eager"].append(r.gen_seconds)
        if r.verdict is not None:
            for name, o in r.verdict.outcomes.items():
                times[name].append(o.seconds)
    return {name: {"runs": len(ts), "mean_s": round(statistics.fmean(ts), 4),
                   "median_s": round(statistics.median(ts), 4)} for name, ts in times.items()}


def aot_eager_failures(run: FuzzRun) -> Dict[str, List[int]]:
    """Programs where torch's ``aot_eager`` (no Inductor pass at all) is itself wrong or raises,
    by cause: the exception's type and first line, or the first thing that differs from eager
    (an output, an input's state, the memory an output shares).  Such programs are limits of
    torch (views of one base passed as several inputs and the like), not of the rules."""
    causes: Dict[str, List[int]] = defaultdict(list)
    for r in run.results:
        o = r.verdict.outcomes.get("aot_eager") if r.verdict is not None else None
        if o is None or not o.bad:
            continue
        if o.status == "crash":
            cause = f"raises {o.error_type}: {o.detail[:100]}"
        else:
            cause = "wrong " + o.detail.split(":", 1)[0].split("[", 1)[0]
        causes[cause].append(r.index)
    return _most_first(causes)


def _most_first(causes: Dict[str, List[int]]) -> Dict[str, List[int]]:
    """``causes`` (cause -> program indices), the cause with most programs first."""
    return dict(sorted(causes.items(), key=lambda kv: (-len(kv[1]), kv[0])))


def _cause_lines(causes: Dict[str, List[int]]) -> List[str]:
    return [f"    {len(ids)}x {cause}: {', '.join(f'p{i}' for i in ids)}" for cause, ids in causes.items()]


def fallbacks(run: FuzzRun) -> Dict[str, List[int]]:
    """Programs where a rewrite backend ran a graph with torch's reference because its compile
    failed (``make_backend(fallback="reference")``), by the error: right, but neither rewritten nor
    compiled by Inductor."""
    causes: Dict[str, List[int]] = defaultdict(list)
    for r in run.results:
        outcomes = r.verdict.outcomes if r.verdict is not None else {}
        for name in ("rewrite-eager", "rewrite-inductor"):
            o = outcomes.get(name)
            if o is not None and o.fallback:
                causes[f"{name}: {o.fallback[:100]}"].append(r.index)
    return _most_first(causes)


def float32_rounding(run: FuzzRun) -> Dict[str, List[int]]:
    """Programs where a backend missed eager in float32 and matched it in float64 with the same
    rules fired (``Outcome.rounding``), by backend: judged ok, listed so that they can be read."""
    out: Dict[str, List[int]] = defaultdict(list)
    for r in run.results:
        for name, o in (r.verdict.outcomes.items() if r.verdict is not None else ()):
            if o.rounding:
                out[name].append(r.index)
    return _most_first(out)


def rate(run: FuzzRun) -> float:
    return len(run.results) / run.programs_seconds if run.programs_seconds else 0.0


def failure_record(run: FuzzRun, r: ProgramResult) -> dict:
    v = r.verdict
    base = v.failing_base()
    rec = {
        "index": r.index, "class": v.cls, "base": base, "classes": dict(v.classes), "mode": r.program.mode,
        "dynamic": r.program.dynamic, "auto_functionalized": r.program.auto_functionalized,
        "statements": r.program.size,
        "outcomes": {name: o.describe() for name, o in v.outcomes.items()},
        "fired": sorted({rule for o in v.outcomes.values() for rule in o.fired()}),
        "source": r.program.source(),
    }
    m = run.minimized.get(r.index)
    if m is not None and not m.error:
        rec["minimized"] = {"source": m.program.source(), "statements": m.program.size,
                            "evaluations": m.evaluations, "complete": m.complete, "seconds": round(m.seconds, 2),
                            "outcomes": {name: o.describe() for name, o in m.verdict.outcomes.items()}}
    if r.index in run.cases:
        rec["case"] = str(run.cases[r.index])
    return rec


def to_json(run: FuzzRun) -> dict:
    c = run.config
    failures = [failure_record(run, r) for r in run.results if r.cls in ("ours", "both", "stock")]
    return {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "machine": machine(),
        "config": {"n": c.n, "seed": c.seed, "bases": list(c.bases), "rules": c.rules, "jobs": c.jobs,
                   "features": c.features, "dynamic": c.dynamic, "only": c.only, "steer": c.steer,
                   "aot_eager": c.aot_eager},
        "programs": len(run.results),
        "seconds": round(run.seconds, 2),
        "programs_seconds": round(run.programs_seconds, 2),
        "programs_per_second": round(rate(run), 3),
        "counts": class_counts(run),
        "aot_eager_failures": aot_eager_failures(run),
        "fallbacks": fallbacks(run),
        "float32_rounding": float32_rounding(run),
        "backend_seconds": backend_seconds(run),
        "failures": failures,
        "errors": [{"index": r.index, "status": r.status, "error": r.error} for r in run.results
                   if r.status in OTHER],
        "coverage": run.coverage.to_json() if run.coverage else None,
    }


def machine() -> str:
    import os

    import torch

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cpus, {platform.system()} {platform.release()}, python " \
           f"{platform.python_version()}, torch {torch.__version__}"


def format_run(run: FuzzRun, coverage: bool = False, verbose: bool = False) -> str:
    c = run.config
    counts = class_counts(run)
    bases = [b for b in c.bases if b in counts] or list(c.bases)
    n = len(run.results)
    lines = [f"rewrite fuzz: {n} program{'s' * (n != 1)} (seed {c.seed}, base {'+'.join(c.bases)}, "
             f"{c.jobs} job{'s' * (c.jobs != 1)}) in {run.programs_seconds:.1f} s: {rate(run):.2f} programs/s"
             + (f"; {run.seconds:.1f} s in all" if run.seconds > run.programs_seconds + 0.5 else "")]
    header = ["class"] + bases + (["program"] if len(bases) > 1 else [])
    rows = [header]
    for cls in CLASSES + OTHER:
        cells = [str(counts.get(b, {}).get(cls, 0)) for b in bases]
        if len(bases) > 1:
            cells.append(str(counts["all"].get(cls, 0)))
        if any(cell != "0" for cell in cells):
            rows.append([cls] + cells)
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines += ["  " + "  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths)))
              for row in rows]
    secs = backend_seconds(run)
    lines.append("  seconds per program: " + ", ".join(f"{name} {s['mean_s']:.2f} ({s['runs']})"
                                                         for name, s in secs.items()))
    aot = aot_eager_failures(run)
    ran = sum(1 for r in run.results if r.verdict and "aot_eager" in r.verdict.outcomes)
    lines.append(f"  aot_eager ran on {ran} program(s) (every one with --aot-eager, else where a backend failed); "
                 f"wrong or raising in {sum(map(len, aot.values()))}" + (", by cause:" if aot else ""))
    lines += _cause_lines(aot)
    fell = fallbacks(run)
    if fell:
        lines.append(f"  rewrite compiled a graph with aot_eager (its compile failed) in "
                     f"{len({i for ids in fell.values() for i in ids})} program(s), by cause:")
        lines += _cause_lines(fell)
    rounded = float32_rounding(run)
    if rounded:
        lines.append("  ok up to float32 rounding (missed eager in float32, matched it in float64 with the same "
                     "rules fired), by backend:")
        lines += _cause_lines(rounded)
    failing = run.with_class("ours", "both", "stock")
    if failing:
        lines.append("")
        lines.append(f"failing programs ({len(failing)}):")
    for r in failing:
        lines += _failure_lines(run, r, verbose)
    errors = [r for r in run.results if r.status == "error"]
    if errors:
        lines.append("")
        lines.append(f"harness errors ({len(errors)}):")
        lines += [f"  p{r.index}: {r.error.strip().splitlines()[-1] if r.error.strip() else '?'}" for r in errors]
    if coverage and run.coverage is not None:
        lines.append("")
        lines.append(run.coverage.table())
    return "\n".join(lines)


def _failure_lines(run: FuzzRun, r: ProgramResult, verbose: bool) -> List[str]:
    v = r.verdict
    base = v.failing_base()
    version = r.program.auto_functionalized
    out = [f"  p{r.index} {v.cls.upper()} on base {base} ({r.program.mode}"
           f"{', dynamic' if r.program.dynamic else ''}{f', auto_functionalized {version}' if version else ''}, "
           f"{r.program.size} statements)"]
    for name in (BASE_BACKENDS[base][0],) + references(base):
        if name in v.outcomes:
            out.append(f"    {name}: {v.outcomes[name].describe()[:300]}")
    m = run.minimized.get(r.index)
    shown = None
    if m is not None and not m.error:
        where = f", written to {run.cases[r.index]}" if r.index in run.cases else ""
        out.append(f"    minimized to {m.program.size} statements in {m.evaluations} evaluations"
                   f"{'' if m.complete else ' (budget spent)'}{where}:")
        shown = m.program
    elif verbose:
        shown = r.program
    if shown is not None:
        out += ["      " + line for line in shown.fn_lines() + shown.inputs_lines()]
    return out
