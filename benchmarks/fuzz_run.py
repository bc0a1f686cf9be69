"""The long fuzz run: `rewrite fuzz` on both bases, results written to benchmarks/results/.

    python benchmarks/fuzz_run.py                       # 300 programs, both bases, -j 2 (about 25 minutes on 2 cores)
    python benchmarks/fuzz_run.py --n 5000 -j 16        # the release run

Writes benchmarks/results/fuzz_<date>.md (machine, counts per class and base, programs/s and
seconds per backend, every failing program with its minimized form) and fuzz_<date>.json (the
full `rewrite fuzz --json` summary).  Minimized failures are also written as corpus cases to
--out (default: benchmarks/results/fuzz_<date>_cases/).  Nothing is asserted.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))   # this checkout's rewrite package
from common import stamp, write_results  # noqa: E402

from rewrite.fuzz.session import FuzzConfig, run_fuzz  # noqa: E402
from rewrite.fuzz.summary import to_json  # noqa: E402

RESULTS = Path(__file__).parent / "results"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0,
                    help="first program index (program i depends only on the seed and i, so a long run can be "
                         "split: --start 1500 --n 5000 runs programs 1500..4999)")
    ap.add_argument("--also", default="",
                    help="with --start: earlier program indices to run as well, comma-separated (programs of an "
                         "earlier split to re-run on the code of this one)")
    ap.add_argument("--base", choices=("eager", "inductor", "both"), default="both")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--max-minimize", type=int, default=24)
    ap.add_argument("--out", default=None, help="corpus cases of the failures (default next to the results)")
    ap.add_argument("--name", default=None, help="results file stem (default fuzz_<date>)")
    ap.add_argument("--warm-cache", action="store_true",
                    help="keep Inductor's on-disk caches (compiled kernels, FX graphs) from earlier runs; by default "
                         "the run gets a fresh TORCHINDUCTOR_CACHE_DIR, so compile times are those of new programs")
    args = ap.parse_args()
    if not args.warm_cache:
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="rewrite-fuzz-inductor-")

    date = datetime.date.today().isoformat()
    name = args.name or f"fuzz_{date}"
    out = Path(args.out) if args.out else Path(os.path.relpath(RESULTS / f"{name}_cases"))
    bases = ("eager", "inductor") if args.base == "both" else (args.base,)
    command = f"rewrite fuzz --seed {args.seed} --n {args.n} --base {args.base}"
    only = None
    if args.start:
        also = sorted({int(i) for i in args.also.split(",") if i.strip()} - set(range(args.start, args.n)))
        only = also + list(range(args.start, args.n))
        command += f" (programs {args.start}..{args.n - 1}" + (f" and {len(also)} earlier ones" if also else "") + ")"
    config = FuzzConfig(n=args.n, seed=args.seed, bases=bases, jobs=args.jobs, max_minimize=args.max_minimize,
                        out=str(out), command=command, only=only)
    total = len(only) if only else args.n
    done = [0]

    def progress(result):
        done[0] += 1
        if done[0] % 25 == 0 or result.cls in ("ours", "both", "stock"):
            print(f"[{done[0]}/{total}] p{result.index}: {result.cls}", file=sys.stderr, flush=True)

    started = stamp()
    run = run_fuzz(config, on_result=progress)
    summary = to_json(run)
    (RESULTS / f"{name}.json").parent.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(summary, indent=2) + "\n")
    cache = "warm (earlier runs' kernels and FX graphs)" if args.warm_cache else "fresh (empty TORCHINDUCTOR_CACHE_DIR)"
    write_results(RESULTS / f"{name}.md", report(summary, command, args.jobs, started, cache))
    return 0


def report(summary: dict, command: str, jobs: int, started: str, cache: str = "") -> list:
    """The results page, from the JSON summary alone (so it can be rebuilt from it)."""
    counts = summary["counts"]
    bases = summary["config"]["bases"]
    n = summary["programs"]
    lines = [f"# `{command}` (-j {jobs})", "", f"- date: {started}", f"- machine: {summary['machine']}",
             f"- programs: {n} in {summary['programs_seconds']:.0f} s ({summary['programs_per_second']:.3f} programs/s); "
             f"minimizing {sum('minimized' in f for f in summary['failures'])} failures: "
             f"{summary['seconds'] - summary['programs_seconds']:.0f} s"]
    if cache:
        lines.append(f"- Inductor caches: {cache}")
    lines += ["",
             "| class | " + " | ".join(bases) + " | program |", "|---|" + "---|" * (len(bases) + 1)]
    for cls in ("ours", "both", "stock", "ok", "skipped", "invalid", "error"):
        row = [str(counts.get(b, {}).get(cls, 0)) for b in bases] + [str(counts["all"].get(cls, 0))]
        if any(c != "0" for c in row):
            lines.append(f"| {cls} | " + " | ".join(row) + " |")
    lines += ["", "Seconds per program (compile + 3 calls + comparison; generation includes the eager "
              "reference and the validity checks):", "", "| backend | runs | mean s | median s |", "|---|---|---|---|"]
    for name, s in summary["backend_seconds"].items():
        lines.append(f"| {name} | {s['runs']} | {s['mean_s']:.2f} | {s['median_s']:.2f} |")
    lines += stock_by_symptom(summary["failures"])
    root = Path(__file__).resolve().parent.parent
    for cls in ("ours", "both", "stock"):
        failures = [f for f in summary["failures"] if f["class"] == cls]
        if not failures:
            continue
        lines += ["", f"## {cls} ({len(failures)})", ""]
        for f in failures:
            case = f", case `{os.path.relpath(f['case'], root)}`" if "case" in f else ""
            lines.append(f"- p{f['index']} on base {f['base']} ({f['mode']}{', dynamic' if f['dynamic'] else ''}, "
                         f"{f['statements']} statements){case}")
            for backend, text in f["outcomes"].items():
                lines.append(f"  - {backend}: {text[:240]}")
            if cls == "stock":
                lines.append(f"  - rules fired under rewrite: {', '.join(f['fired']) or 'none'}")
            if "minimized" in f:
                m = f["minimized"]
                lines += [f"  - minimized to {m['statements']} statements ({m['evaluations']} evaluations):", "",
                          "    ```python"] + ["    " + line for line in m["source"].splitlines()[3:]] + ["    ```", ""]
    errors = summary["errors"]
    if errors:
        lines += ["", f"## harness errors and invalid programs ({len(errors)})", ""]
        lines += [f"- p{e['index']} {e['status']}: {e['error'].strip().splitlines()[-1][:200]}" for e in errors]
    return lines


HOP_REFUSAL = re.compile(r"(cond_fn|body_fn|cond_true|cond_false|true_fn|false_fn)\w* might be modifying the input")


def stock_symptom(failure: dict) -> str:
    """How stock Inductor fails a program that rewrite gets right, in words."""
    text = failure["outcomes"].get("inductor", "")
    if not text.startswith("raised"):
        control_flow = "torch.cond" in failure["source"] or "torch.while_loop" in failure["source"]
        return "wrong values, " + ("with `cond`/`while_loop`" if control_flow else "straight-line program")
    if HOP_REFUSAL.search(text):
        return "torch refuses it: a `cond`/`while_loop` function mutates a captured tensor"
    message = re.sub(r"\d+", "N", text.split(": ", 1)[-1]).split("(")[0]
    if len(message) > 72:
        message = message[:72].rsplit(" ", 1)[0].rstrip(" ,:;.") + " ..."
    return "raises " + message.rstrip(" ,:;")


def stock_by_symptom(failures: list) -> list:
    """The stock-only programs grouped by symptom, with the rules that fired on them under rewrite
    (a rule that fired is not proof that it is the repair: rewrite also keeps Inductor's own
    reinplacing away from what the rules leave functional)."""
    stock = [f for f in failures if f["class"] == "stock"]
    if not stock:
        return []
    groups: dict = {}
    for f in stock:
        groups.setdefault(stock_symptom(f), []).append(f)
    lines = ["", f"Stock Inductor alone fails {len(stock)} programs (rewrite right), by symptom, with the "
             "rules that fired on them under rewrite (programs per rule):", "",
             "| symptom under stock Inductor | programs | rules fired under rewrite |", "|---|---|---|"]
    for symptom, group in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        rules: dict = {}
        for f in group:
            for rule in f["fired"] or ["(none)"]:
                rules[rule] = rules.get(rule, 0) + 1
        cell = ", ".join(f"`{r}` {n}" for r, n in sorted(rules.items(), key=lambda kv: -kv[1]))
        lines.append(f"| {symptom} | {len(group)} | {cell} |")
    return lines


if __name__ == "__main__":
    sys.exit(main())
