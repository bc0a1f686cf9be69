"""How ``rewrite check`` copes with large and hostile rule input (issue #10).

    python benchmarks/check_scale.py                      # everything; about 10 minutes on 2 cores
    python benchmarks/check_scale.py --only startup one_root
    python benchmarks/check_scale.py --fuzz-files 500     # a shorter fuzz run

Each measurement but the fuzz runs ``python -m rewrite check FILE`` in a fresh process (start-up
included) on generated input (:mod:`check_inputs`) and reports wall time, exit status and how
much it printed:

* ``startup``: the shipped rules, with an empty op-table/parser cache (first run) and a warm one;
* ``one_root``: 1,000 rules with one root op and identical patterns (every pair overlaps);
* ``unknown_ops``: 1,000 opsets naming ops that do not exist;
* ``errors``: 2,000 syntax errors spread over 0.9 MB of valid rules;
* ``big``: a rule file at the size cap (1 MiB) of rules that check clean;
* ``over``: a 20 MB rule file, over the cap: refused at its start, unread.

(``benchmarks/rule_load.py`` measures the shipped rules and the 1 MiB file more closely: pinned
to one core, several runs, phase by phase.)

``fuzz`` checks 5,000 seeded mutations of the shipped rules and the malformed corpus (byte flips,
deletions, duplications, token swaps and insertions, deep nesting, hostile includes and
characters) in two worker processes, each calling ``rewrite check`` and ``rewrite fmt --check``
in-process, and records exit statuses (only 0 and 2, and 0/1/2 for fmt, are allowed), tracebacks
or internal errors (none allowed), and the time per file; 50 of the files are also checked in
fresh processes.  Writes the current page benchmarks/results/check_scale.{md,json} (a new run
replaces it and adds its row to the page's history).  Nothing is asserted; the goals are reported
as met or not.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(Path(__file__).parent)]  # this checkout's rewrite, not an installed one
import check_inputs as gen  # noqa: E402
from rewrite.lang.loader import MAX_FILE_BYTES  # noqa: E402

from results_page import RESULTS, publish, run_info, text_block  # noqa: E402

TITLE = "`rewrite check` on large and hostile rule input"
GOALS = {"one_root": 5.0, "big": 3.0, "over": 1.0}
PER_FILE_GOAL = 2.0
ALL = ("startup", "one_root", "unknown_ops", "errors", "big", "over", "fuzz")


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def check_cli(path, cache: str, timeout: float = 900, cpu: Optional[list] = None):
    """``(wall seconds, exit status, output)`` of ``python -m rewrite check PATH``; the process's
    CPU seconds are appended to ``cpu`` (the machine may be shared: CPU time is the steadier)."""
    env = dict(os.environ, REWRITE_CACHE_DIR=cache)
    t0, c0 = time.perf_counter(), _child_cpu()
    proc = subprocess.run([sys.executable, "-m", "rewrite", "check", str(path)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=timeout)
    seconds = time.perf_counter() - t0
    if cpu is not None:
        cpu.append(_child_cpu() - c0)
    output = proc.stdout + proc.stderr
    return seconds, proc.returncode, output


def summary_line(output: str) -> str:
    return next((line for line in output.splitlines() if line.startswith("checked ")), "?")


def measure_file(name: str, text: str, tmp: Path, cache: str, lines: list, figures: dict) -> float:
    path = tmp / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    cpu: list = []
    seconds, code, output = check_cli(path, cache, cpu=cpu)
    traceback = "Traceback" in output or "internal error" in output
    figures[name] = {"mb": round(len(text) / 1e6, 2), "seconds": round(seconds, 2), "cpu_seconds": round(cpu[0], 2),
                     "exit": code, "lines_printed": output.count(chr(10)), "traceback": traceback}
    lines.append(f"  {name:<12} {len(text) / 1e6:7.2f} MB  {seconds:8.2f} s (cpu {cpu[0]:6.2f} s)  exit {code}  "
                 f"{output.count(chr(10)):6d} lines printed{'  TRACEBACK' if traceback else ''}  | {summary_line(output)}")
    print(lines[-1], flush=True)
    return seconds


# --------------------------------------------------------------------------- fuzz


def _alarm(signum, frame):
    raise TimeoutError


def _fuzz_one(path: str):
    from rewrite.cli import main

    signal.signal(signal.SIGALRM, _alarm)
    out = []
    for argv in (["check", path], ["fmt", "--check", path]):
        buf = io.StringIO()
        t0 = time.perf_counter()
        signal.alarm(30)
        try:
            with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
                code = main(argv)
        except TimeoutError:
            code = "timeout"
        except BaseException as exc:  # noqa: BLE001 - what escapes main is the finding
            import traceback

            code = f"raised {type(exc).__name__}"
            buf.write(traceback.format_exc())
        finally:
            signal.alarm(0)
        text = buf.getvalue()
        out.append((code, time.perf_counter() - t0, "Traceback" in text or "internal error" in text,
                    text[-300:] if code not in (0, 1, 2) else ""))
    return path, out


def fuzz(count: int, tmp: Path, cache: str, lines: list, figures: dict) -> None:
    folder = tmp / "fuzz"
    folder.mkdir()
    for seed in gen.seed_files():  # what the mutated files may include
        (folder / seed.name).write_bytes(seed.read_bytes())
    (folder / "helpers").mkdir()
    (folder / "helpers" / "cycle_b.rules").write_text('include "../include_cycle.rules"\n')
    os.mkfifo(folder / "fifo.rules")
    for name, target in (("zero.rules", "/dev/zero"), ("environ.rules", "/proc/self/environ"),
                         ("passwd.rules", "/etc/passwd")):
        os.symlink(target, folder / name)
    paths = []
    for i, text in enumerate(gen.mutated_files(count, seed=10)):
        path = folder / f"m{i:05d}.rules"
        path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
        paths.append(str(path))
    os.environ["REWRITE_CACHE_DIR"] = cache
    t0 = time.perf_counter()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        results = pool.map(_fuzz_one, paths, chunksize=20)
    wall = time.perf_counter() - t0
    check_codes, fmt_codes, bad, slowest = {}, {}, [], (0.0, "")
    times = []
    for path, ((c_code, c_time, c_tb, c_tail), (f_code, f_time, f_tb, f_tail)) in results:
        check_codes[c_code] = check_codes.get(c_code, 0) + 1
        fmt_codes[f_code] = fmt_codes.get(f_code, 0) + 1
        times.append(c_time)
        slowest = max(slowest, (c_time, path))
        if c_code not in (0, 2) or c_tb or f_code not in (0, 1, 2) or f_tb:
            bad.append(f"{path}: check {c_code}{' traceback' if c_tb else ''}, fmt {f_code}"
                       f"{' traceback' if f_tb else ''} {c_tail or f_tail}")
    sub = [check_cli(p, cache, timeout=60) for p in paths[:50]]
    sub_bad = [p for p, (_, code, output) in zip(paths, sub) if code not in (0, 2) or "Traceback" in output]
    lines += [f"  fuzz: {count} mutated files in {wall:.0f} s (2 workers, in-process)",
              f"    rewrite check exit statuses: {dict(sorted(check_codes.items(), key=str))}",
              f"    rewrite fmt --check exit statuses: {dict(sorted(fmt_codes.items(), key=str))}",
              f"    check time per file: median {statistics.median(times) * 1e3:.0f} ms, "
              f"max {slowest[0]:.2f} s ({Path(slowest[1]).name}, {os.path.getsize(slowest[1]) / 1e3:.0f} kB)",
              f"    files with another status, a traceback or an internal error: {len(bad)}",
              f"    first 50 files in fresh processes: max {max(s for s, _, _ in sub):.2f} s, "
              f"statuses {sorted({c for _, c, _ in sub})}, bad {len(sub_bad)}",
              f"    goal: only 0/2, no traceback, each file under {PER_FILE_GOAL:.0f} s: "
              f"{'met' if not bad and not sub_bad and slowest[0] < PER_FILE_GOAL else 'NOT met'}"]
    lines += [f"    {b}" for b in bad[:20]]
    figures["fuzz"] = {"files": count, "seconds": round(wall, 1), "bad": len(bad) + len(sub_bad),
                       "max_file_seconds": round(slowest[0], 2), "median_file_ms": round(statistics.median(times) * 1e3)}
    print("\n".join(lines[-7:]), flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=ALL, default=list(ALL))
    parser.add_argument("--fuzz-files", type=int, default=5000)
    parser.add_argument("--no-write", action="store_true", help="print only; leave the current page alone")
    parser.add_argument("--results", type=Path, default=RESULTS, metavar="DIR",
                        help="folder of the current page check_scale.{md,json} (default benchmarks/results)")
    args = parser.parse_args(argv)

    current = run_info(__file__, {"only": args.only, "fuzz_files": args.fuzz_files}, argv)
    figures: dict = {}
    lines = ["wall time of `python -m rewrite check FILE` in a fresh process (start-up included)", ""]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        cache = str(tmp / "cache")
        if "startup" in args.only:
            cold = check_cli(REPO / "rules", cache)[0]
            cpu: list = []
            warm = statistics.median(check_cli(REPO / "rules", cache, cpu=cpu)[0] for _ in range(5))
            code = check_cli(REPO / "rules", cache)[1]
            probe = "import sys, runpy; sys.argv = ['rewrite', 'check', 'rules']; import rewrite.cli as c; " \
                    "c.main(sys.argv[1:]); print('torch imported:', 'torch' in sys.modules)"
            torch_line = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True,
                                        env=dict(os.environ, REWRITE_CACHE_DIR=cache)).stdout.strip().splitlines()[-1]
            lines.append(f"  startup      rewrite check rules/: first run (empty cache) {cold:.2f} s, then median "
                         f"{warm:.2f} s of 5 (cpu {statistics.median(cpu):.2f} s); exit {code}; {torch_line}")
            figures["startup"] = {"cold_seconds": round(cold, 2), "warm_seconds": round(warm, 2),
                                  "warm_cpu_seconds": round(statistics.median(cpu), 2), "exit": code,
                                  "torch_imported": torch_line.endswith("True")}
            print(lines[-1], flush=True)
        else:
            check_cli(REPO / "rules", cache)  # fill the cache so that start-up is the same for all
        results = {}
        if "one_root" in args.only:
            results["one_root"] = measure_file("one_root", gen.one_root_rules(1000), tmp, cache, lines, figures)
        if "unknown_ops" in args.only:
            measure_file("unknown_ops", gen.unknown_ops_file(1000), tmp, cache, lines, figures)
        if "errors" in args.only:
            measure_file("errors", gen.errors_file(2000, 900_000), tmp, cache, lines, figures)
        if "big" in args.only:
            results["big"] = measure_file("big", gen.clean_file(MAX_FILE_BYTES), tmp, cache, lines, figures)
        if "over" in args.only:
            results["over"] = measure_file("over", gen.valid_file(20_000_000), tmp, cache, lines, figures)
        for name, seconds in results.items():
            lines.append(f"  goal {name}: under {GOALS[name]:.0f} s: {'met' if seconds < GOALS[name] else 'NOT met'} "
                         f"({seconds:.1f} s)")
        if "fuzz" in args.only:
            fuzz(args.fuzz_files, tmp, cache, lines, figures)
    if not args.no_write:
        current.update(figures=figures, text=lines)
        publish("check_scale", TITLE, current, headline(figures), lambda run: text_block(run["text"]), args.results)
    return 0


def headline(figures: dict) -> dict:
    """The history row's figures: start-up, the big inputs' seconds, the fuzz run's bad files."""
    out = {}
    if "startup" in figures:
        out["start-up s (warm)"] = figures["startup"]["warm_seconds"]
    for name in ("one_root", "unknown_ops", "errors", "big"):
        if name in figures:
            out[f"{name} s"] = figures[name]["seconds"]
    if "fuzz" in figures:
        f = figures["fuzz"]
        out["fuzz"] = f"{f['files']} files, {f['bad']} bad, max {f['max_file_seconds']} s per file"
    return out


if __name__ == "__main__":
    sys.exit(main())
