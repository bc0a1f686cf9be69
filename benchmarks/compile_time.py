"""What the rules cost at compile time, next to stock Inductor's own compile time.

    python benchmarks/compile_time.py                      # about 40 minutes on 2 shared cores
    python benchmarks/compile_time.py --baseline main      # also the rules of another commit, interleaved
                                                           # (repeatable)
    python benchmarks/compile_time.py --rounds 3 --programs "llama train step x8"

Compile time.  Every run is a fresh Python process (one torch thread; Inductor's FX graph cache
and AOTAutograd's cache off; an empty Inductor cache folder of its own; ``compile_threads=1``,
so the C++ compiler runs as the process's children and its CPU time is counted).  It builds the
program and times its first call, which compiles everything (the forward, the backward on its
first use, the optimizer step): the compile seconds torch's compile callbacks see (wall), and the
CPU seconds of the process and its children, which the other load on a shared machine disturbs
less.  The backends are stock Inductor (``backend="inductor"``) and the rewrite backend with the
shipped rules (``make_backend()``, what ``backend="rewrite"`` is), and with ``--baseline REF`` the
rewrite backend of other commits (their ``rewrite/`` and ``rules/`` exported with ``git archive``).
They take turns within each round, in an order that rotates from round to round; the figures
are medians over the rounds.  A rewrite run also sums its reports' ``seconds``: the rule pass
(``total``) and its parts.

Rule pass alone.  The shipped rules on the synthetic post-grad graphs of
``benchmarks/engine_scaling.py`` (``--sizes``, about 1k and 10k nodes): ``RuleSet.apply`` on deep
copies, the median over repeats and the reports' split, in a fresh process per tree.

Programs (``benchmarks/zoo_programs.py``, random weights, no download):

* ``llama train step x8``: LlamaForCausalLM with 8 layers (the zoo's configuration otherwise),
  causal-LM loss, backward, AdamW (foreach): the figure issue 24 asks for, the rule pass at most
  1% of stock Inductor's compile time and the rewrite backend at most 1.02x stock's;
* ``llama train step``, ``decode static cache``: the zoo's programs (2 layers).

Writes ``benchmarks/results/compile_time.md`` and ``.json`` (the commit and the machine inside).
Nothing is asserted; the goals are reported, not enforced.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
PROGRAMS = ("llama train step x8", "llama train step", "decode static cache")
BACKENDS = ("inductor", "rewrite")
GOALS = {"share": 0.01, "ratio": 1.02}     # issue 24, on "llama train step x8"
PARTS = ("legality", "ownership", "earlier_passes", "copy_measure")


# ---------------------------------------------------------------------------------- child runs

def _child_environment(tmp: str) -> None:
    os.environ.update(TORCHINDUCTOR_CACHE_DIR=tmp, TORCHINDUCTOR_FX_GRAPH_CACHE="0",
                      TORCHINDUCTOR_AUTOGRAD_CACHE="0", TORCHINDUCTOR_COMPILE_THREADS="1",
                      HF_HUB_OFFLINE="1")


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _count_rule_cpu(RuleSet) -> list:
    """Wrap ``RuleSet.apply`` (every stage goes through it, in every tree) to sum the CPU time
    of the thread that runs it: the rule pass, less disturbed by other load than its wall time."""
    spent = [0.0]
    real = RuleSet.apply

    def apply(self, *args, **kwargs):
        t0 = time.thread_time()
        try:
            return real(self, *args, **kwargs)
        finally:
            spent[0] += time.thread_time() - t0

    RuleSet.apply = apply
    return spent


def child_compile(program: str, backend: str) -> dict:
    """One compile of ``program`` with ``backend``, in this (fresh) process."""
    import torch

    sys.path.insert(0, str(HERE))
    import zoo_programs as Z
    from common import CompileWatch

    torch.set_num_threads(1)
    if program == "llama train step x8":
        build = lambda compile: Z.llama_train(compile, layers=8)   # noqa: E731
    else:
        build = Z.zoo()[program].build
    rules = None
    if backend == "inductor":
        compile_fn = lambda fn: torch.compile(fn, backend="inductor")   # noqa: E731
    else:
        from rewrite.backend import make_backend
        from rewrite.engine.ruleset import RuleSet

        rule_cpu = _count_rule_cpu(RuleSet)
        rules = make_backend()
        compile_fn = lambda fn: torch.compile(fn, backend=rules)   # noqa: E731
    instance = build(compile_fn)
    with CompileWatch() as watch:
        cpu0, wall0 = _cpu_seconds(), time.perf_counter()
        instance.call(0)
        cpu, wall = _cpu_seconds() - cpu0, time.perf_counter() - wall0
    out = {"compile_s": sum(s for _, _, s in watch.events), "first_call_s": wall, "cpu_s": cpu,
           "compiles": len(watch.events)}
    if rules is not None:
        seconds: dict = {}
        for report in rules.reports:
            for key, value in report.seconds.items():
                seconds[key] = seconds.get(key, 0.0) + value
        out.update(rule_seconds=seconds, rule_cpu_s=rule_cpu[0], reports=len(rules.reports),
                   fired=len(rules.fired()))
    return out


def child_scaling(sizes, repeats: int) -> dict:
    """The rule pass on engine_scaling's graphs, in this (fresh) process, with ``RuleSet.apply``'s
    defaults of the tree it runs on (what a compile with that tree pays)."""
    import torch

    sys.path.insert(0, str(HERE))
    import engine_scaling as E
    from rewrite.engine.ruleset import RuleSet

    torch.set_num_threads(1)
    rule_set, template = RuleSet.load(), E.trace_layer()
    per_layer = sum(1 for n in template.graph.nodes if n.op not in ("placeholder", "output"))
    out = {}
    for target in sizes:
        gm = E.build(max(1, round((target - 5) / per_layer)), template)
        seconds: dict = {}

        walls: list = []

        def run(copy_gm):
            t0, c0 = time.perf_counter(), time.process_time()
            report = rule_set.apply(copy_gm, graph_kind="inference")
            walls.append(time.perf_counter() - t0)
            seconds.clear()
            seconds.update(report.seconds)
            return time.process_time() - c0, len(report.fired)

        median, runs, fired, _ = E.measure(gm, run, repeats, budget_s=120.0)
        out[str(target)] = {"nodes": len(gm.graph.nodes), "cpu_ms": median * 1e3,
                            "wall_ms": statistics.median(walls) * 1e3, "runs": runs, "fired": fired,
                            "seconds": dict(seconds)}
    return out


# ---------------------------------------------------------------------------------- the parent

def export_tree(ref: str) -> Path:
    """``rewrite/`` and ``rules/`` of commit ``ref``, in a temporary folder."""
    where = Path(tempfile.mkdtemp(prefix="compile-time-baseline-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "rewrite", "rules"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where


def run_child(tree: Path, args, timeout: float) -> dict:
    """Run this script as a child on ``tree``'s rewrite; its last output line is JSON."""
    tmp = tempfile.mkdtemp(prefix="compile-time-")
    env = dict(os.environ, PYTHONPATH=str(tree))
    try:
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", *args], env=env,
                              capture_output=True, text=True, timeout=timeout, cwd=tmp)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"error": (done.stderr.strip().splitlines() or ["no output"])[-1][:300]}
    return json.loads(lines[-1])


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True).stdout.strip()


def median_of(runs, key, part=None):
    values = [(r.get("rule_seconds", {}).get(part, 0.0) if part else r[key]) for r in runs if "error" not in r]
    return statistics.median(values) if values else None


def summarize(runs_by_backend: dict) -> dict:
    out = {}
    for backend, runs in runs_by_backend.items():
        ok = [r for r in runs if "error" not in r]
        row = {"runs": len(ok), "errors": [r["error"] for r in runs if "error" in r]}
        if ok:
            row.update(compile_s=median_of(ok, "compile_s"), cpu_s=median_of(ok, "cpu_s"),
                       compile_s_all=[round(r["compile_s"], 2) for r in ok])
            if "rule_seconds" in ok[0]:
                row["rule_s"] = median_of(ok, None, "total")
                row["rule_cpu_s"] = median_of(ok, "rule_cpu_s")
                row["parts"] = {p: median_of(ok, None, p) for p in PARTS}
                row["fired"] = ok[0].get("fired")
        out[backend] = row
    return out


def fmt(x, digits=2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


TITLE = "compile time, the rules next to stock Inductor"


def render(result: dict) -> list:
    """The page's body (``results_page`` adds date, commit, machine and the history)."""
    baselines = "".join(f"rewrite@{ref} is commit {commit}; " for ref, commit in result.get("baselines", {}).items())
    lines = [f"{baselines}Each run is a fresh process (one torch thread, Inductor's FX graph and AOTAutograd caches off, an "
             "empty cache folder, compile_threads=1); the backends take turns within each round in a rotating "
             f"order; medians over {result['rounds']} rounds.  compile s: torch's compile callbacks (wall); "
             "CPU s: the process and its children (the C++ compiler) over the first call, which compiles "
             "everything; rule pass CPU: the thread CPU time spent in `RuleSet.apply` over the compile (every "
             "stage); rule pass (wall) and its parts: the reports' `seconds` summed over the graphs.  "
             "The machine may be shared: compare within a row, and prefer the CPU column.", ""]
    head = ["program", "backend", "runs", "compile s", "CPU s", "vs stock (compile / CPU)", "rule pass CPU s",
            "rule pass CPU / stock CPU", "rule pass s (wall)", "legality", "ownership", "earlier passes",
            "copy measure"]
    lines += ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for program, rows in result["programs"].items():
        stock = rows.get("inductor", {})
        for backend, row in rows.items():
            if not row.get("runs"):
                lines.append(f"| {program} | {backend} | 0 | failed: {'; '.join(row.get('errors', []))[:200]} |"
                             + " |" * (len(head) - 4))
                continue
            ratio = "-" if backend == "inductor" or not stock.get("runs") else \
                f"{row['compile_s'] / stock['compile_s']:.3f} / {row['cpu_s'] / stock['cpu_s']:.3f}"
            share = "-" if "rule_cpu_s" not in row or not stock.get("runs") else \
                f"{row['rule_cpu_s'] / stock['cpu_s']:.2%}"
            parts = [fmt(row.get("parts", {}).get(p), 3) if "parts" in row else "-" for p in PARTS]
            lines.append("| " + " | ".join([program, backend, str(row["runs"]), fmt(row["compile_s"]), fmt(row["cpu_s"]),
                                            ratio, fmt(row.get("rule_cpu_s"), 3), share, fmt(row.get("rule_s"), 3),
                                            *parts]) + " |")
    target = result["programs"].get("llama train step x8")
    if target and target.get("inductor", {}).get("runs") and target.get("rewrite", {}).get("runs"):
        stock, ours = target["inductor"], target["rewrite"]
        share, ratio, cpu_ratio = ours["rule_cpu_s"] / stock["cpu_s"], ours["compile_s"] / stock["compile_s"], \
            ours["cpu_s"] / stock["cpu_s"]
        lines += ["", "Issue 24's goals on the Llama training step with 8 layers: rule pass "
                  f"{share:.2%} of stock's compile CPU time (goal <= {GOALS['share']:.0%}: "
                  f"{'met' if share <= GOALS['share'] else 'NOT met'}); rewrite compiles in {ratio:.3f}x stock's "
                  f"time, {cpu_ratio:.3f}x its CPU time (goal <= {GOALS['ratio']}: "
                  f"{'met' if max(ratio, cpu_ratio) <= GOALS['ratio'] else 'NOT met' if min(ratio, cpu_ratio) > GOALS['ratio'] else 'met on one measure, not the other'})."]
    if result.get("scaling"):
        lines += ["", "## The rule pass alone (engine_scaling.py's graphs)", "",
                  "| tree | nodes | runs | pass CPU ms | pass wall ms | legality | ownership | earlier passes | copy measure |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for tree, sizes in result["scaling"].items():
            if "error" in sizes:
                lines.append(f"| {tree} | failed: {sizes['error']} | | | | | | | |")
                continue
            for row in sizes.values():
                total = row["seconds"].get("total") or 1.0
                lines.append("| " + " | ".join([tree, str(row["nodes"]), str(row["runs"]), fmt(row["cpu_ms"], 1),
                                                fmt(row["wall_ms"], 1)]
                                                + [f"{row['seconds'].get(p, 0.0) / total:.0%}" for p in PARTS]) + " |")
        lines += ["", "Medians over the runs (CPU: the process's); the parts are shares of the pass's wall time "
                  "in its last run."]
    return lines


def headline(result: dict) -> dict:
    """The Llama training step with 8 layers: the rule pass's share and rewrite's compile ratio."""
    target = result["programs"].get("llama train step x8") or {}
    stock, ours = target.get("inductor", {}), target.get("rewrite", {})
    if not (stock.get("runs") and ours.get("runs")):
        return {"llama x8": "not run"}
    return {"rule pass CPU / stock CPU": f"{ours['rule_cpu_s'] / stock['cpu_s']:.2%}",
            "compile vs stock": f"{ours['compile_s'] / stock['compile_s']:.3f}",
            "CPU vs stock": f"{ours['cpu_s'] / stock['cpu_s']:.3f}"}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--programs", nargs="+", default=list(PROGRAMS), choices=PROGRAMS)
    p.add_argument("--rounds", type=int, default=5, help="runs of each backend per program")
    p.add_argument("--baseline", action="append", default=[],
                   help="also run the rewrite backend of this commit (git ref; repeatable)")
    p.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000], help="engine_scaling graph sizes")
    p.add_argument("--repeats", type=int, default=5, help="rule-pass runs per scaling graph")
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds before a run is given up")
    p.add_argument("--no-write", action="store_true", help="print only; leave the current page alone")
    p.add_argument("--results", type=Path, default=RESULTS, metavar="DIR",
                   help="folder of the current page compile_time.{md,json} (default benchmarks/results)")
    p.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = p.parse_args(argv)

    if args.child:
        tmp = os.getcwd()
        _child_environment(tmp)
        kind, *rest = args.child
        out = child_compile(*rest) if kind == "compile" else child_scaling([int(s) for s in rest[1:]], int(rest[0]))
        print(json.dumps(out))
        return 0

    sys.path.insert(0, str(HERE))
    from results_page import publish, run_info

    trees = {"rewrite": ROOT}
    for ref in args.baseline:
        trees[f"rewrite@{ref}"] = export_tree(ref)
    backends = ["inductor", *trees]
    runs = {program: {b: [] for b in backends} for program in args.programs}
    for r in range(args.rounds):
        for program in args.programs:
            order = backends[r % len(backends):] + backends[:r % len(backends)]
            for backend in order:
                tree = trees.get(backend, ROOT)
                out = run_child(tree, ["compile", program, "inductor" if backend == "inductor" else "rewrite"],
                                args.timeout)
                runs[program][backend].append(out)
                print(f"round {r + 1}/{args.rounds} {program} [{backend}]: "
                      + (out.get("error") or f"compile {out['compile_s']:.1f} s, CPU {out['cpu_s']:.1f} s"
                         + (f", rule pass {out['rule_cpu_s']:.3f} s CPU" if "rule_cpu_s" in out else "")),
                      flush=True)
    scaling = {}
    if args.sizes:
        for name, tree in trees.items():
            scaling[name] = run_child(tree, ["scaling", str(args.repeats), *map(str, args.sizes)], args.timeout)
            print(f"scaling [{name}]: {scaling[name]}", flush=True)
    result = run_info(__file__, {"programs": args.programs, "rounds": args.rounds, "sizes": args.sizes,
                                 "repeats": args.repeats}, argv)
    result.update(rounds=args.rounds, baselines={ref: git("rev-parse", "--short", ref) for ref in args.baseline},
                  programs={program: summarize(by) for program, by in runs.items()}, runs=runs, scaling=scaling)
    print("\n".join(render(result)))
    if not args.no_write:
        publish("compile_time", TITLE, result, headline(result), render, folder=args.results)
    for tree in trees.values():
        if tree != ROOT:
            shutil.rmtree(tree, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
