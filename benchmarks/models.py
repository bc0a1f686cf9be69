"""The model zoo: real model code (transformers, torch.optim, DDP) with random weights, on eager,
stock Inductor and rewrite in one run.

    python -m pip install -e '.[models]'     # transformers, pinned
    python benchmarks/models.py              # everything, about 20 minutes on 2 cores
    python benchmarks/models.py --programs "decode static cache" --no-ddp --no-sweeps

Programs (benchmarks/zoo_programs.py, benchmarks/zoo_ddp.py): Llama decode with a static cache,
Llama chunked prefill into a static cache, Mistral decode with a sliding-window cache, a Llama training step (loss, backward, AdamW), a
ResNet + BatchNorm training step (SGD), an AdamW foreach step alone, a serving engine's decode
step over custom ops that mutate their arguments (benchmarks/zoo_serving.py; no transformers
needed) under auto_functionalized v1 and v2, and a Llama training step in DDP on 2 processes over
gloo on 127.0.0.1.  For each, per backend: correctness against eager
after each of the first 3 calls, the copies left in the final graphs Inductor lowers and their
traffic, median latency (backends interleaved), compile time, recompiles, and the rules that
fired.  Then recompile sweeps under dynamic=True.  The results go to the current page
benchmarks/results/models.{md,json} (every copy with its source line); the full JSON, with a graph
excerpt around every copy, goes to the scratch folder bench_out/ (ignored by git), named there.
A run of some programs only (``--programs``, ``--no-ddp``, ``--no-sweeps``) replaces their rows and
keeps the page's other programs and sweeps, marked with the run they come from:

    python benchmarks/models.py --programs "serving step" --no-ddp --no-sweeps   # v1 and v2, ~4 minutes
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))   # this checkout's rewrite, not an installed one

import torch  # noqa: E402

from results_page import RESULTS, SCRATCH, load, publish, run_info, short_machine, shown_path  # noqa: E402
from zoo_measure import BACKENDS, prime_process, run_program, run_sweep  # noqa: E402
from zoo_programs import (GROUPS, INFERENCE, SERVING, SERVING_VERSIONS, SWEEP_CALLS, SWEEP_POINTS,  # noqa: E402
                          static_decode_sweep, zoo)
from zoo_report import DEFINITIONS, program_details, sweep_lines, table, version_goals  # noqa: E402

TITLE = "the model zoo on eager, stock Inductor and rewrite"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_ddp(args) -> dict:
    """Both DDP workers (benchmarks/zoo_ddp.py), bounded by --ddp-timeout; rank 0's measurements,
    correctness from every rank."""
    from zoo_ddp import NAME, WORLD

    port, tmp = free_port(), Path(tempfile.mkdtemp(prefix="zoo-ddp-"))
    outs = [tmp / f"rank{r}.json" for r in range(WORLD)]
    logs = [open(tmp / f"rank{r}.log", "w") for r in range(WORLD)]
    extra = ["--calls", str(args.calls), "--warmup", str(args.warmup), "--threads", str(args.threads)]
    extra += ["--mode", args.mode] if args.mode else []
    procs = [subprocess.Popen([sys.executable, str(HERE / "zoo_ddp.py"), str(r), str(port), str(outs[r]), *extra],
                              stdout=logs[r], stderr=subprocess.STDOUT) for r in range(WORLD)]
    deadline, error = time.monotonic() + args.ddp_timeout, None
    for p in procs:
        try:
            p.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            error = f"timed out after {args.ddp_timeout} s"
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()
    for f in logs:
        f.close()
    results = [json.loads(o.read_text()) if o.exists() else None for o in outs]
    if error or any(r is None for r in results):
        tail = (tmp / "rank0.log").read_text()[-1500:]
        error = error or f"a worker exited with {[p.returncode for p in procs]}"
        return {"name": NAME, "what": "DDP", "error": f"{error}; rank 0 log tail: {tail}", "backends": {}}
    merged = results[0]
    for backend, d in merged["backends"].items():
        per_rank = [r["backends"][backend].get("correct") for r in results]
        if all(c is not None for c in per_rank):
            d["correct"] = {**per_rank[0], "ok": all(c["ok"] for c in per_rank),
                            "exact": all(c["exact"] for c in per_rank),
                            "max_abs_diff": max(c["max_abs_diff"] for c in per_rank),
                            "problems": [p for c in per_rank for p in c["problems"]][:10]}
        errors = [r["backends"][backend].get("error") for r in results]
        d["error"] = next((e for e in errors if e), None)
    return merged


def run_sweeps(args) -> list:
    return [
        run_sweep(f"decode static cache, {len(SWEEP_POINTS)} (cache, prompt) lengths",
                  static_decode_sweep, len(SWEEP_POINTS), SWEEP_CALLS, INFERENCE, mode=args.mode, dynamic=True),
    ]


def report(current: dict) -> list:
    """The page's body, from the current run's JSON alone (so it can be rebuilt from it)."""
    results, sweeps = current["programs"], current["sweeps"]
    lines = [f"transformers {current['transformers']}; total run time {current['minutes']:.1f} min"
             + (f"; full JSON with graph excerpts: `{current['scratch']}` (not in git)" if current.get("scratch") else ""),
             "", DEFINITIONS, ""]
    carried = carried_lines(current)
    if carried:
        lines += carried + [""]
    lines += [*table(results), ""]
    goals = version_goals(results, *(f"{SERVING} {v}" for v in SERVING_VERSIONS), "KV-cache write")
    if goals:
        lines += [f"## The {SERVING} under auto_functionalized v1 and v2: the goals of issue 22", "", *goals, ""]
    if sweeps:
        lines += ["## Recompile sweeps (dynamic=True)", "",
                  f"Static cache: a new cache for each (cache length, prompt length) in {list(SWEEP_POINTS)}, "
                  f"{SWEEP_CALLS} decode calls each, the cache passed as an argument."
                  + (f"  {from_run(current['sweeps_from'])}" if current.get("sweeps_from") else ""), "",
                  *sweep_lines(sweeps), ""]
    lines += ["## Per program", ""]
    for r in results:
        if r.get("error"):
            lines += [f"### {r['name']}", "", f"**failed**: {r['error']}", ""]
        else:
            details = program_details(r)
            if r.get("from_run"):
                details[3:3] = [from_run(r["from_run"]), ""]
            lines += details
    return lines[:-1] if lines[-1] == "" else lines


# ---------------------------------------------------------------------------------- partial runs

def from_run(run: dict) -> str:
    machine = f", {short_machine(run['machine'])}" if run.get("machine") else ""
    return f"*From the run of {run['date']} on `{run['commit']}`{machine} (`{run['command']}`), not re-run by this one.*"


def carried_lines(current: dict) -> list:
    """Which rows of the page an earlier run measured."""
    runs = {}
    for r in current["programs"]:
        if r.get("from_run"):
            run = r["from_run"]
            runs.setdefault((run["date"], run["commit"], run.get("machine")), []).append(r["name"])
    if current.get("sweeps_from"):
        run = current["sweeps_from"]
        runs.setdefault((run["date"], run["commit"], run.get("machine")), []).append("the recompile sweeps")
    return [f"Rows from the earlier run of {date} on `{commit}`" + (f" ({short_machine(machine)})" if machine else "")
            + f", not re-run by this one: {', '.join(names)}." for (date, commit, machine), names in runs.items()]


def merged(current: dict, old: dict, order: list) -> dict:
    """``current`` with the programs (and sweeps) of ``old``, the page's current run, that this
    run did not measure: each keeps a ``from_run`` naming the run that did.  Programs in
    ``order``'s order, those it does not name after them."""
    if not old:
        return current
    earlier = {"date": old["date"], "commit": old["commit"], "machine": old.get("machine", ""),
               "command": old.get("command", "")}
    ran = {r["name"] for r in current["programs"]}
    kept = [{**r, "from_run": r.get("from_run") or earlier} for r in old.get("programs", []) if r["name"] not in ran]
    rank = {name: i for i, name in enumerate(order)}
    programs = sorted(current["programs"] + kept, key=lambda r: rank.get(r["name"], len(rank)))
    out = {**current, "programs": programs}
    if not current["sweeps"] and old.get("sweeps"):
        out["sweeps"], out["sweeps_from"] = old["sweeps"], old.get("sweeps_from") or earlier
    if kept and old.get("notes"):
        out["notes"] = [f"From the run of {earlier['date']} (`{earlier['commit']}`): {n}" if not n.startswith("From the run")
                        else n for n in old["notes"]]
    return out


def expand(names: list, programs: dict) -> list:
    """Program names, each group name (``GROUPS``) replaced by its programs; every name checked."""
    out = []
    for name in names:
        for n in GROUPS.get(name, [name]):
            if n not in programs:
                raise SystemExit(f"benchmarks/models.py: no program {n!r}; programs: {', '.join(programs)}; "
                                 f"groups: {', '.join(GROUPS)}")
            if n not in out:
                out.append(n)
    return out


def without_excerpts(value):
    """``value`` with every copy's graph excerpt left out (they are most of the JSON's size)."""
    if isinstance(value, dict):
        return {k: without_excerpts(v) for k, v in value.items() if k != "excerpt"}
    if isinstance(value, list):
        return [without_excerpts(v) for v in value]
    return value


def headline(current: dict) -> dict:
    """The history row's figures: programs correct under rewrite, and per program the copy
    traffic and the latency of stock Inductor and rewrite."""
    measured = [r for r in current["programs"] if not r.get("from_run")]
    results = [r for r in measured if not r.get("error")]
    ok = sum(1 for r in results if (r["backends"].get("rewrite", {}).get("correct") or {}).get("ok"))
    out = {"correct under rewrite": f"{ok} of {len(measured)} programs"}
    cells_traffic, cells_ms = [], []
    for r in results:
        ind, rw = r["backends"].get("inductor", {}), r["backends"].get("rewrite", {})
        if rw.get("error") or ind.get("error"):
            cells_traffic.append(f"{r['name']} " + ("stock failed" if ind.get("error") else "rewrite failed"))
            continue
        if ind.get("copies") and rw.get("copies"):
            cells_traffic.append(f"{r['name']} {ind['copies']['traffic'] / 2 ** 20:.2f} / {rw['copies']['traffic'] / 2 ** 20:.2f}")
        if ind.get("median_ms") and rw.get("median_ms"):
            cells_ms.append(f"{r['name']} {ind['median_ms']:.2f} / {rw['median_ms']:.2f}")
    out["copy traffic MiB per call, stock / rewrite"] = ", ".join(cells_traffic) or "-"
    out["ms per call, stock / rewrite"] = ", ".join(cells_ms) or "-"
    for s in ([] if current.get("sweeps_from") else current["sweeps"]):
        b = s["backends"]
        out[f"sweep recompiles stock / rewrite ({s['name']})"] = \
            f"{b.get('inductor', {}).get('recompiles')} / {b.get('rewrite', {}).get('recompiles')}"
    return out


def _version(package: str) -> str:
    try:
        from importlib.metadata import version

        return version(package)
    except Exception:
        return "not installed"


def main(argv=None) -> int:
    programs = zoo()
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--programs", nargs="*", default=list(programs), metavar="NAME",
                   help=f"programs to run (default all: {', '.join(programs)}), or groups of them "
                        f"({', '.join(f'{g}: {len(ns)} programs' for g, ns in GROUPS.items())})")
    p.add_argument("--calls", type=int, default=20, help="timed calls per backend (median reported)")
    p.add_argument("--warmup", type=int, default=3, help="untimed calls per backend after the 3 checked ones")
    p.add_argument("--threads", type=int, default=1, help="torch threads (default 1: on small shared VMs waking "
                   "a second thread can cost milliseconds per parallel region and swamps the comparison)")
    p.add_argument("--mode", default=None, help="torch.compile mode for both compiled backends (default: none)")
    p.add_argument("--no-ddp", action="store_true", help="skip the DDP program")
    p.add_argument("--no-sweeps", action="store_true", help="skip the recompile sweeps")
    p.add_argument("--ddp-timeout", type=int, default=900, help="seconds before the DDP workers are stopped")
    p.add_argument("--results", type=Path, default=RESULTS, metavar="DIR",
                   help="folder of the current page models.{md,json} (default benchmarks/results)")
    p.add_argument("--scratch", type=Path, default=SCRATCH, metavar="DIR",
                   help="folder of the full JSON with graph excerpts (default bench_out/, ignored by git)")
    args = p.parse_args(argv)
    args.programs = expand(args.programs, programs)
    needs_transformers = (not args.no_ddp or not args.no_sweeps
                          or any("transformers" in programs[n].needs for n in args.programs))
    if needs_transformers and importlib.util.find_spec("transformers") is None:
        print("benchmarks/models.py needs transformers for these programs: python -m pip install -e '.[models]' "
              f"(the {SERVING} alone does not: --programs \"{SERVING}\" --no-ddp --no-sweeps)", file=sys.stderr)
        return 2
    torch.set_num_threads(args.threads)
    current = run_info(__file__, {"programs": args.programs, "calls": args.calls, "warmup": args.warmup,
                                  "threads": args.threads, "mode": args.mode or "default", "ddp": not args.no_ddp,
                                  "sweeps": not args.no_sweeps}, argv)
    t0 = time.monotonic()
    prime_process()
    results = []
    for name in args.programs:
        print(f"== {name}", flush=True)
        results.append(run_program(programs[name], args.calls, args.warmup, mode=args.mode))
        print("\n".join(table(results[-1:])[2:]), flush=True)
    sweeps = [] if args.no_sweeps else run_sweeps(args)
    if not args.no_ddp:
        print("== DDP", flush=True)
        results.append(run_ddp(args))
    full = args.scratch / f"models_{current['date'][:10]}_{current['commit']}.json"
    current.update(transformers=_version("transformers"), minutes=round((time.monotonic() - t0) / 60, 1),
                   scratch=shown_path(full), backends=BACKENDS, programs=results, sweeps=sweeps)
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_text(json.dumps(current, indent=1, default=str) + "\n")
    page = merged(without_excerpts(json.loads(json.dumps(current, default=str))),
                  (load("models", args.results) or {}).get("current"), list(programs))
    print("\n".join(report(page)))
    partial = any(r.get("from_run") for r in page["programs"]) or page.get("sweeps_from")
    publish("models", TITLE, page, headline(page), report, args.results,
            note=f"this run: {', '.join(args.programs) or 'no programs'}"
                 + ("" if args.no_ddp else ", DDP") + ("" if args.no_sweeps else ", sweeps")
                 + "; the other rows kept from earlier runs" if partial else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
