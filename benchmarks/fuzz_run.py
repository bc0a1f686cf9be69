"""The long fuzz run: `rewrite fuzz` on both bases, its current page in benchmarks/results/.

    python benchmarks/fuzz_run.py                       # 300 programs, both bases, -j 2 (about 25 minutes on 2 cores)
    python benchmarks/fuzz_run.py --n 5000 -j 16        # the release run
    python benchmarks/fuzz_run.py --n 5000 --start 3200 # programs 3200..4999: one split of a long run
    python benchmarks/fuzz_run.py --merge A/summary.json B/summary.json   # publish the splits as one run

Writes the current page benchmarks/results/fuzz_run.{md,json}: commit, machine, counts per class
and base, programs/s and seconds per backend, the programs where stock Inductor alone fails
grouped by symptom, and every failing program with its class, symptom and the rules that fired on
it under rewrite (the minimized ones with their minimized source).  A new run replaces the page
and appends its row to the page's history table.

Everything bulky goes to the run's scratch folder (default bench_out/fuzz_<date>_<commit>/,
ignored by git), which the page names: the minimized failures as corpus cases (cases/) and the
full `rewrite fuzz --json` summary with every failing program's source (summary.json).  A case
worth keeping is copied by hand into tests/corpus/, where it is a test.  A run with --start is one
split of a longer run: it writes its scratch folder only, and --merge publishes the splits'
summaries as one run (one seed, one commit, disjoint programs).  Nothing is asserted.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))   # this checkout's rewrite package
from results_page import RESULTS, SCRATCH, publish, run_info, shown_path  # noqa: E402

NAME = "fuzz_run"
TITLE = "differential fuzzing of mutation programs: eager, stock Inductor and rewrite"
CLASS_ORDER = ("ours", "both", "stock", "ok", "skipped", "invalid", "error")
OUTCOME_CHARS = 160            # an outcome's text kept on the page (the scratch summary has all of it)


class MergeError(Exception):
    """Split summaries that are not parts of one run."""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=None,
                    help="first program index (program i depends only on the seed and i, so a long run can be "
                         "split: --start 1500 --n 5000 runs programs 1500..4999); a run with --start (0 included) "
                         "writes its scratch folder only, --merge publishes the splits")
    ap.add_argument("--also", default="",
                    help="with --start: earlier program indices to run as well, comma-separated (programs of an "
                         "earlier split to re-run on the code of this one)")
    ap.add_argument("--base", choices=("eager", "inductor", "both"), default="both")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--max-minimize", type=int, default=24)
    ap.add_argument("--scratch", type=Path, default=None, metavar="DIR",
                    help="the run's minimized cases and full summary (default bench_out/fuzz_<date>_<commit>/)")
    ap.add_argument("--results", type=Path, default=RESULTS, metavar="DIR",
                    help="folder of the current page fuzz_run.{md,json} (default benchmarks/results)")
    ap.add_argument("--merge", nargs="+", type=Path, metavar="SUMMARY",
                    help="publish these summary.json files of the splits of one run as that run; runs nothing")
    ap.add_argument("--note", default="", help="a short note for the run's row in the history table")
    ap.add_argument("--warm-cache", action="store_true",
                    help="keep Inductor's on-disk caches (compiled kernels, FX graphs) from earlier runs; by default "
                         "the run gets a fresh TORCHINDUCTOR_CACHE_DIR, so compile times are those of new programs")
    args = ap.parse_args(argv)
    if args.merge:
        try:
            summaries = [read_summary(path) for path in args.merge]
            publish_run(summaries, args.results, args.note)
        except (OSError, ValueError, KeyError, MergeError) as exc:
            print(f"fuzz_run: cannot merge {' '.join(map(str, args.merge))}: {exc}", file=sys.stderr)
            return 2
        return 0

    summary = run(args, argv)
    if args.start is not None:
        print(f"split written to {summary['run']['scratch']}; publish the whole run with "
              f"--merge <each split's summary.json>", file=sys.stderr)
    else:
        publish_run([summary], args.results, args.note)
    return 0


def read_summary(path: Path) -> dict:
    """A split's summary.json, or a gzipped copy of it (``.json.gz``): the splits of a run that
    spans sessions are kept in benchmarks/results/fuzz_splits/, since a session's scratch folder
    does not outlive its machine."""
    data = path.read_bytes()
    return json.loads(gzip.decompress(data) if path.suffix == ".gz" else data)


def run(args, argv) -> dict:
    """Run the programs; write the cases and the full summary (with this run's command, commit,
    machine and scratch folder under "run") to the scratch folder; return the summary."""
    if not args.warm_cache:
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="rewrite-fuzz-inductor-")
    from rewrite.fuzz.session import FuzzConfig, run_fuzz
    from rewrite.fuzz.summary import to_json

    info = run_info(__file__, {}, argv)
    start = args.start or 0
    scratch = args.scratch or SCRATCH / f"fuzz_{info['date'][:10]}_{info['commit']}_p{start}-{args.n - 1}"
    bases = ("eager", "inductor") if args.base == "both" else (args.base,)
    command = f"rewrite fuzz --seed {args.seed} --n {args.n} --base {args.base}"
    only = None
    if args.start is not None:
        also = sorted({int(i) for i in args.also.split(",") if i.strip()} - set(range(start, args.n)))
        only = also + list(range(start, args.n))
        command += f" (programs {start}..{args.n - 1}" + (f" and {len(also)} earlier ones" if also else "") + ")"
    config = FuzzConfig(n=args.n, seed=args.seed, bases=bases, jobs=args.jobs, max_minimize=args.max_minimize,
                        out=str(scratch / "cases"), command=command, only=only)
    total = len(only) if only else args.n
    done = [0]

    def progress(result):
        done[0] += 1
        if done[0] % 25 == 0 or result.cls in ("ours", "both", "stock"):
            print(f"[{done[0]}/{total}] p{result.index}: {result.cls}", file=sys.stderr, flush=True)

    result = run_fuzz(config, on_result=progress)
    summary = to_json(result)
    for f in summary["failures"]:
        if "case" in f:
            f["case"] = shown_path(f["case"])
    summary["run"] = dict(info, command=f"{command} (-j {args.jobs})", jobs=args.jobs, max_minimize=args.max_minimize,
                          scratch=shown_path(scratch),
                          cache="warm (earlier runs' kernels and FX graphs)" if args.warm_cache
                          else "fresh (empty TORCHINDUCTOR_CACHE_DIR)")
    scratch.mkdir(parents=True, exist_ok=True)
    (scratch / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"summary and cases written to {scratch}", file=sys.stderr)
    return summary


# --------------------------------------------------------------------------- the page


def publish_run(summaries: List[dict], folder: Path, note: str = "") -> Path:
    current = merge(summaries)
    return publish(NAME, TITLE, current, headline(current), report, folder, note)


def program_indices(summary: dict) -> List[int]:
    config = summary["config"]
    return list(config["only"]) if config.get("only") else list(range(config["n"]))


def span(indices: List[int]) -> str:
    """``[3200, ..., 3599]`` -> ``3200..3599`` (a split's programs; earlier re-runs counted apart)."""
    present, top = set(indices), max(indices)
    low = top
    while low - 1 in present:
        low -= 1
    rest = len(indices) - (top - low + 1)
    return f"{low}..{top}" + (f" and {rest} earlier" if rest else "")


def merge(summaries: List[dict]) -> dict:
    """One current run from the summaries of its splits (a whole run is one split): counts,
    seconds and coverage summed, failures trimmed for the page and in program order."""
    first = summaries[0]
    for key in ("seed", "bases", "features", "dynamic", "rules"):
        values = {json.dumps(s["config"].get(key)) for s in summaries}
        if len(values) > 1:
            raise MergeError(f"the splits differ in {key}: {', '.join(sorted(values))}")
    commits = {s["run"]["commit"] for s in summaries}
    if len(commits) > 1:
        raise MergeError(f"the splits ran on different code: {', '.join(sorted(commits))}")
    seen: set = set()
    for s in summaries:
        indices = set(program_indices(s))
        if indices & seen:
            raise MergeError(f"programs run twice, e.g. p{min(indices & seen)}")
        seen |= indices
    runs = [s["run"] for s in summaries]
    config = first["config"]
    seconds = sum(s["programs_seconds"] for s in summaries)
    current = {
        "date": min(r["date"] for r in runs), "commit": first["run"]["commit"], "machine": first["run"]["machine"],
        "torch": first["run"]["torch"],
        "command": f"rewrite fuzz --seed {config['seed']} --n {max(seen) + 1} --base "
                   f"{'both' if len(config['bases']) == 2 else config['bases'][0]} (-j {first['run']['jobs']})",
        "settings": {"seed": config["seed"], "programs": span(sorted(seen)), "bases": ", ".join(config["bases"]), "jobs": first["run"]["jobs"],
                     "dynamic": config["dynamic"], "features": config["features"] or "all",
                     "Inductor caches": first["run"]["cache"]},
        "programs": sum(s["programs"] for s in summaries),
        "programs_seconds": round(seconds, 2),
        "seconds": round(sum(s["seconds"] for s in summaries), 2),
        "programs_per_second": round(sum(s["programs"] for s in summaries) / seconds, 3) if seconds else 0.0,
        "counts": _sum_counts([s["counts"] for s in summaries]),
        "backend_seconds": _merge_backend_seconds([s["backend_seconds"] for s in summaries]),
        "splits": [{"programs": span(program_indices(s)), "date": s["run"]["date"], "command": s["run"]["command"],
                    "programs_per_second": s["programs_per_second"], "seconds": s["seconds"],
                    "counts": s["counts"]["all"], "minimized": sum("minimized" in f for f in s["failures"]),
                    "scratch": s["run"]["scratch"]} for s in sorted(summaries, key=lambda s: min(program_indices(s)))],
        "failures": sorted((trim(f) for s in summaries for f in s["failures"]), key=lambda f: f["index"]),
        "errors": [e for s in summaries for e in s["errors"]],
        "float32_rounding": _merge_indices([s.get("float32_rounding") or {} for s in summaries]),
        "coverage": _merge_coverage([s.get("coverage") or [] for s in summaries]),
    }
    return current


def _merge_indices(parts: List[Dict[str, List[int]]]) -> Dict[str, List[int]]:
    """key -> program indices, over the splits."""
    out: Dict[str, List[int]] = {}
    for part in parts:
        for key, indices in part.items():
            out[key] = sorted(out.get(key, []) + list(indices))
    return out


def _sum_counts(counts: List[dict]) -> dict:
    out: Dict[str, Dict[str, int]] = {}
    for c in counts:
        for base, classes in c.items():
            for cls, n in classes.items():
                out.setdefault(base, {})[cls] = out.get(base, {}).get(cls, 0) + n
    return out


def _merge_backend_seconds(tables: List[dict]) -> dict:
    """Runs summed and means weighted; a median per split (medians do not add up)."""
    out = {}
    for name in dict.fromkeys(k for t in tables for k in t):
        rows = [t[name] for t in tables if name in t]
        runs = sum(r["runs"] for r in rows)
        out[name] = {"runs": runs, "mean_s": round(sum(r["mean_s"] * r["runs"] for r in rows) / runs, 4) if runs else 0.0,
                     "median_s": [r["median_s"] for r in rows] if len(rows) > 1 else rows[0]["median_s"]}
    return out


def _merge_coverage(tables: List[list]) -> list:
    out: Dict[str, dict] = {}
    for table in tables:
        for row in table:
            merged = out.setdefault(row["rule"], {"rule": row["rule"], "location": row["location"], "fired": 0,
                                                  "sections": {}})
            merged["fired"] += row["fired"]
            for section, counts in row["sections"].items():
                m = merged["sections"].setdefault(section, {"reached": 0, "stopped": 0})
                m["reached"] += counts["reached"]
                m["stopped"] += counts["stopped"]
    return list(out.values())


def trim(failure: dict) -> dict:
    """A failing program as the page keeps it: no source (program i of a seed is generated again
    from the seed and i; the scratch summary has it), whether it uses `cond`/`while_loop`, and the
    outcomes that differ from eager, each cut to OUTCOME_CHARS characters."""
    out = {k: v for k, v in failure.items() if k not in ("source", "outcomes", "minimized")}
    out["control_flow"] = control_flow(failure)
    out["outcomes"] = _failed(failure["outcomes"])
    if "minimized" in failure:
        m = failure["minimized"]
        out["minimized"] = {k: v for k, v in m.items() if k != "outcomes"}
        out["minimized"]["outcomes"] = _failed(m.get("outcomes", {}))
    return out


def _failed(outcomes: dict) -> dict:
    return {name: text[:OUTCOME_CHARS] for name, text in outcomes.items() if text != "matches eager"}


def control_flow(failure: dict) -> bool:
    if "control_flow" in failure:
        return failure["control_flow"]
    return "torch.cond" in failure.get("source", "") or "torch.while_loop" in failure.get("source", "")


def headline(current: dict) -> dict:
    """The history row's figures: the programs, their classes, the rate."""
    counts = current["counts"]["all"]
    out = {"programs": f"seed {current['settings']['seed']}, {current['settings']['programs']}, "
                       f"bases {current['settings']['bases']}", "ours": counts.get("ours", 0)}
    out.update((cls, counts[cls]) for cls in CLASS_ORDER[1:] if counts.get(cls))
    out["programs/s"] = current["programs_per_second"]
    return out


def report(current: dict) -> list:
    """The page's body, from the current run's JSON alone (so it can be rebuilt from it)."""
    counts = current["counts"]
    bases = [b for b in ("eager", "inductor") if b in counts]
    failures = current["failures"]
    minimized = [f for f in failures if "minimized" in f]
    lines = [f"- programs: {current['programs']} in {current['programs_seconds']:.0f} s "
             f"({current['programs_per_second']:.3f} programs/s); minimizing {len(minimized)} failures: "
             f"{current['seconds'] - current['programs_seconds']:.0f} s",
             "- scratch folder (the minimized failures as corpus cases and the full summary with every failing "
             "program's source, kept out of the tree): " + ", ".join(f"`{s['scratch']}`" for s in current["splits"]),
             "- `python benchmarks/fuzz_run.py --seed S --start I --n I+1` runs program I of seed S again"]
    if len(current["splits"]) > 1:
        lines += ["", f"## The {len(current['splits'])} splits of this run", "",
                  "| programs | started | programs/s | ours | both | stock | ok | skipped | minimized | scratch |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for s in current["splits"]:
            c = s["counts"]
            lines.append(f"| {s['programs']} | {s['date']} | {s['programs_per_second']:.3f} | "
                         + " | ".join(str(c.get(k, 0)) for k in ("ours", "both", "stock", "ok", "skipped"))
                         + f" | {s['minimized']} | `{s['scratch']}` |")
    lines += ["", "## Classes", "", "| class | " + " | ".join(bases) + " | program |", "|---|" + "---|" * (len(bases) + 1)]
    for cls in CLASS_ORDER:
        row = [str(counts.get(b, {}).get(cls, 0)) for b in bases] + [str(counts["all"].get(cls, 0))]
        if any(c != "0" for c in row):
            lines.append(f"| {cls} | " + " | ".join(row) + " |")
    lines += ["", "Seconds per program (compile + 3 calls + comparison; generation includes the eager "
              "reference and the validity checks; a run in splits has a median per split):", "",
              "| backend | runs | mean s | median s |", "|---|---|---|---|"]
    for name, s in current["backend_seconds"].items():
        median = s["median_s"]
        median = ", ".join(f"{m:.2f}" for m in median) if isinstance(median, list) else f"{median:.2f}"
        lines.append(f"| {name} | {s['runs']} | {s['mean_s']:.2f} | {median} |")
    rounded = current.get("float32_rounding") or {}
    if rounded:
        lines += ["", "Ok up to float32 rounding (missed eager by more than 1e-5 in float32, matched it within 1e-9 "
                  "when run again in float64 with the same rules fired; docs/fuzz.md): "
                  + "; ".join(f"{name}: {', '.join(f'p{i}' for i in ids)}" for name, ids in rounded.items())]
    lines += stock_by_symptom(failures)
    lines += ours_details([f for f in failures if f["class"] == "ours"])
    lines += failure_table([f for f in failures if f["class"] == "both"], "both",
                           "rewrite and stock Inductor both differ from eager; symptom of rewrite on the failing base")
    lines += failure_table([f for f in failures if f["class"] == "stock"], "stock",
                           "stock Inductor differs from eager, rewrite matches it; symptom under stock Inductor")
    lines += minimized_sources([f for f in minimized if f["class"] != "ours"])
    errors = current["errors"]
    if errors:
        lines += ["", f"## Harness errors and invalid programs ({len(errors)})", ""]
        lines += [f"- p{e['index']} {e['status']}: {e['error'].strip().splitlines()[-1][:200]}" for e in errors]
    return lines


def _mode(f: dict) -> str:
    return f["mode"] + (", dynamic" if f["dynamic"] else "") + (
        f", auto_functionalized {f['auto_functionalized']}" if f.get("auto_functionalized") else "")


def _source_block(m: dict) -> list:
    return ["    ```python"] + ["    " + line for line in m["source"].splitlines()[3:]] + ["    ```"]


def ours_details(failures: list) -> list:
    """Each program where rewrite alone is wrong, in full: every outcome, the minimized form."""
    if not failures:
        return ["", "## ours (0)", "", "No program where rewrite is wrong and stock Inductor right."]
    right = [f"p{f['index']}" for f in failures if values_right(f)]
    lines = ["", f"## ours ({len(failures)})", "",
             f"{len(failures) - len(right)} wrong or raising under rewrite; {len(right)} right through torch's "
             "reference, where rewrite's compile stopped and the judge compiled the program"
             + (f" ({', '.join(right)})" if right else "") + ".", ""]
    for f in failures:
        case = f", case `{f['case']}`" if "case" in f else ""
        lines.append(f"- p{f['index']} on base {f['base']} ({_mode(f)}, {f['statements']} statements){case}")
        lines += [f"  - {backend}: {text}" for backend, text in f["outcomes"].items()]
        lines.append(f"  - rules fired under rewrite: {', '.join(f['fired']) or 'none'}")
        if "minimized" in f:
            m = f["minimized"]
            lines += [f"  - minimized to {m['statements']} statements ({m['evaluations']} evaluations):", ""]
            lines += _source_block(m) + [""]
    return lines


def values_right(failure: dict) -> bool:
    """An "ours" program whose values rewrite got right: its compile stopped and the graph ran
    through torch's reference (``Outcome.describe``: "matches eager (fell back ...")."""
    return failure["outcomes"].get(f"rewrite-{failure['base']}", "").startswith("matches eager")


def failure_table(failures: list, cls: str, what: str) -> list:
    """One row per program of ``cls``: program, base, mode, symptom, the rules that fired."""
    if not failures:
        return []
    lines = ["", f"## {cls} ({len(failures)})", "", f"{what[0].upper()}{what[1:]}.", "",
             "| program | base | mode | statements | symptom | rules fired under rewrite |", "|---|---|---|---|---|---|"]
    for f in failures:
        text = f["outcomes"].get("inductor" if cls == "stock" else f"rewrite-{f['base']}", "")
        symptom = outcome_symptom(text, control_flow(f))
        minimized = " (minimized below)" if "minimized" in f else ""
        lines.append(f"| p{f['index']}{minimized} | {f['base']} | {_mode(f)} | {f['statements']} | {symptom} | "
                     f"{', '.join(f['fired']) or 'none'} |")
    return lines


def minimized_sources(failures: list) -> list:
    if not failures:
        return []
    lines = ["", f"## Minimized both and stock programs ({len(failures)})", ""]
    for f in failures:
        m = f["minimized"]
        lines += [f"- p{f['index']} ({f['class']}, base {f['base']}, {_mode(f)}): minimized from {f['statements']} to "
                  f"{m['statements']} statements ({m['evaluations']} evaluations)", ""] + _source_block(m) + [""]
    return lines[:-1]


HOP_REFUSAL = re.compile(r"(cond_fn|body_fn|cond_true|cond_false|true_fn|false_fn)\w* might be modifying the input")


def outcome_symptom(text: str, with_control_flow: bool) -> str:
    """An outcome's text in a few words: wrong values (with or without control flow), torch
    refusing a mutating `cond`/`while_loop`, or the error raised with its numbers left out."""
    if not text.startswith("raised"):
        return "wrong values, " + ("with `cond`/`while_loop`" if with_control_flow else "straight-line program")
    if HOP_REFUSAL.search(text):
        return "torch refuses it: a `cond`/`while_loop` function mutates a captured tensor"
    message = re.sub(r"\d+", "N", text.split(": ", 1)[-1]).split("(")[0]
    if len(message) > 72:
        message = message[:72].rsplit(" ", 1)[0].rstrip(" ,:;.") + " ..."
    return "raises " + message.rstrip(" ,:;").replace("|", "/")


def stock_symptom(failure: dict) -> str:
    """How stock Inductor fails a program that rewrite gets right, in words."""
    return outcome_symptom(failure["outcomes"].get("inductor", ""), control_flow(failure))


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
