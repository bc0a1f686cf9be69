"""How long loading rule files takes: the shipped rules, a rule file at the 1 MiB size cap, and
one over it (issue 24: ``rewrite check`` of a 1 MiB rule file in at most 3 s on one core).

    python benchmarks/rule_load.py              # about a minute
    python benchmarks/rule_load.py --runs 9 --no-write

``rewrite check`` runs in fresh processes pinned to one core (start-up included; the op-table and
parser caches warm), and wall and CPU time are the median of ``--runs``.  The goal is judged on CPU
time, the time the check takes on a core of its own: on a shared machine the wall time also counts
the other work on that core.  In-process, with the same pinning: reading, parsing
and checking the shipped rules (``collect``, what every ``rewrite check`` and backend start pays
for them), and the 1 MiB file parsed by the parser (lark's tables driven by
:class:`rewrite.lang.syntax.ItemParser`) next to lark's own ``Lark.parse`` of the same items.  The
1 MiB file is :func:`check_inputs.clean_file`: realistic rules that check without an error.
Writes the current page ``results/rule_load.md`` + ``.json`` (commit, machine, load average) and
appends a row to its history.
"""
from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(Path(__file__).parent)]  # this checkout's rewrite, not an installed one
import check_inputs as gen  # noqa: E402
from results_page import RESULTS, cpu_machine as machine, publish, run_info  # noqa: E402

GOAL_SECONDS = 3.0
CORE = max(os.sched_getaffinity(0))


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def check_once(path, cache: str):
    """``(wall s, cpu s, exit status, first line of stderr, summary line)`` of one ``rewrite check``."""
    env = dict(os.environ, REWRITE_CACHE_DIR=cache)
    t0, c0 = time.perf_counter(), _child_cpu()
    proc = subprocess.run([sys.executable, "-m", "rewrite", "check", str(path)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600,
                          preexec_fn=lambda: os.sched_setaffinity(0, {CORE}))
    wall, cpu = time.perf_counter() - t0, _child_cpu() - c0
    first = proc.stderr.splitlines()[0].replace(str(Path(path).parent) + os.sep, "") if proc.stderr else ""
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    return wall, cpu, proc.returncode, first, summary


def check_runs(name: str, path: Path, size: int, cache: str, runs: int) -> dict:
    got = [check_once(path, cache) for _ in range(runs)]
    row = {"name": name, "bytes": size, "runs": runs,
           "wall_s": round(statistics.median(g[0] for g in got), 3),
           "cpu_s": round(statistics.median(g[1] for g in got), 3),
           "wall_s_all": [round(g[0], 3) for g in got], "exit": sorted({g[2] for g in got}),
           "first_error_line": got[0][3] if got[0][2] else "", "summary": got[0][4]}
    print(f"  {name:<10} {row['bytes'] / 2 ** 20:6.2f} MiB  wall {row['wall_s']:6.2f} s  cpu {row['cpu_s']:6.2f} s  "
          f"exit {row['exit']}  {row['summary'] or row['first_error_line'][:100]}", flush=True)
    return row


def in_process(big: Path, runs: int) -> dict:
    """Phase times in this process (pinned to one core, collector paused as the loader does)."""
    os.sched_setaffinity(0, {CORE})
    from rewrite.lang import parser, syntax
    from rewrite.lang.diagnostics import line_table
    from rewrite.lang.loader import collect, shipped_rules_dir

    syntax.ItemParser("warm")  # the tables: built once per process
    collect(shipped_rules_dir())

    def cpu_median(fn):
        times = []
        for _ in range(runs):
            gc.collect()
            gc.disable()
            t0 = time.process_time()
            fn()
            times.append(time.process_time() - t0)
            gc.enable()
        return round(statistics.median(times), 4)

    text = big.read_text(encoding="utf-8")
    starts = list(parser.scan(text).item_starts) + [len(text)]
    chunks = [text[b:e] for b, e in zip(starts, starts[1:])]
    lark = syntax.lark_parser()
    lines = line_table(text)
    positions = [(b, e) + lines.position(b) for b, e in zip(starts, starts[1:])]

    def loop_only():
        items = syntax.ItemParser(str(big))
        for b, e, line, col in positions:
            items.parse(text, b, e, line, col)

    return {
        "shipped_collect_cpu_s": cpu_median(lambda: collect(shipped_rules_dir())),
        "big_scan_cpu_s": cpu_median(lambda: parser.scan(text)),
        "big_loop_cpu_s": cpu_median(loop_only),
        "big_parse_cpu_s": cpu_median(lambda: parser.parse_with_diagnostics(text, str(big))),
        "big_collect_cpu_s": cpu_median(lambda: collect(big)),
        "big_lark_parse_cpu_s": cpu_median(lambda: [lark.parse(c, start="item") for c in chunks]),
        "items": len(chunks),
    }


TITLE = "loading rule files"


def render(page: dict) -> list:
    """The page's body (``results_page`` adds date, commit, machine and the history)."""
    rows = {r["name"]: r for r in page["check"]}
    ip = page["in_process"]
    big = rows["cap"]
    lines = [
        f"Load average {page['load_average']} (the machine may be shared: CPU times are the steadier figures).",
        "",
        f"`rewrite check FILE` in a fresh process pinned to one core, start-up included, caches warm; median of "
        f"{big['runs']} runs:",
        "",
        "| input | size | wall | CPU | exit | output |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in page["check"]:
        shown = r["summary"] if not r["first_error_line"] else r["first_error_line"]
        lines.append(f"| {r['name']} | {r['bytes']:,} bytes | {r['wall_s']:.2f} s | {r['cpu_s']:.2f} s | "
                     f"{', '.join(map(str, r['exit']))} | `{shown}` |")
    lines += [
        "",
        f"Goal (issue 24): `rewrite check` of a 1 MiB rule file in at most {GOAL_SECONDS:.0f} s on one core: "
        f"**{'met' if page['goal_met'] else 'NOT met'}** with {big['cpu_s']:.2f} s of CPU time, the time it takes "
        f"on a core of its own (wall {big['wall_s']:.2f} s here, on a core shared with other work at load average "
        f"{page['load_average'].split(',')[0]}).",
        "",
        f"In-process CPU time, median of {big['runs']}, one core, collector paused:",
        "",
        "| step | CPU |",
        "| --- | --- |",
        f"| shipped rules: read, parse, check (`collect`) | {ip['shipped_collect_cpu_s'] * 1000:.0f} ms |",
        f"| 1 MiB file: cut into items (`scan`) | {ip['big_scan_cpu_s']:.2f} s |",
        f"| 1 MiB file: the LR loop over lark's tables, AST built ({ip['items']} items) | {ip['big_loop_cpu_s']:.2f} s |",
        f"| 1 MiB file: `parse_with_diagnostics` (both of the above) | {ip['big_parse_cpu_s']:.2f} s |",
        f"| 1 MiB file: `collect` (read, parse, check) | {ip['big_collect_cpu_s']:.2f} s |",
        f"| 1 MiB file: lark's own `Lark.parse` of the same items (parse tree only, no AST) | "
        f"{ip['big_lark_parse_cpu_s']:.2f} s |",
    ]
    return lines


def headline(page: dict) -> dict:
    rows = {r["name"]: r for r in page["check"]}
    return {"shipped rules CPU s": rows["shipped"]["cpu_s"], "1 MiB CPU s": rows["cap"]["cpu_s"],
            "over the cap": "refused" if rows["over"]["exit"] != [0] else "accepted",
            "goal": "met" if page["goal_met"] else "NOT met"}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-write", action="store_true", help="print only; leave the current page alone")
    parser.add_argument("--results", type=Path, default=RESULTS, metavar="DIR",
                        help="folder of the current page rule_load.{md,json} (default benchmarks/results)")
    args = parser.parse_args(argv)
    from rewrite.lang.loader import MAX_FILE_BYTES

    page = run_info(__file__, {"runs": args.runs, "core": CORE}, argv, machine=machine())
    page["load_average"] = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        cache = str(tmp / "cache")
        at_cap = tmp / "cap.rules"
        at_cap.write_text(gen.clean_file(MAX_FILE_BYTES), encoding="utf-8")
        over = tmp / "over.rules"
        over.write_text(gen.clean_file(2 * MAX_FILE_BYTES), encoding="utf-8")
        check_once(REPO / "rules", cache)  # fills the op-table and parser caches
        shipped = sum(p.stat().st_size for p in (REPO / "rules").glob("*.rules"))
        page["check"] = [check_runs("shipped", REPO / "rules", shipped, cache, args.runs),
                         check_runs("cap", at_cap, at_cap.stat().st_size, cache, args.runs),
                         check_runs("over", over, over.stat().st_size, cache, args.runs)]
        os.environ["REWRITE_CACHE_DIR"] = cache
        page["in_process"] = in_process(at_cap, args.runs)
    cap = page["check"][1]
    page["goal_seconds"] = GOAL_SECONDS
    page["goal_met"] = cap["exit"] == [0] and cap["cpu_s"] <= GOAL_SECONDS
    print("\n".join(render(page)))
    if not args.no_write:
        publish("rule_load", TITLE, page, headline(page), render, folder=args.results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
