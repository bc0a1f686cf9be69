"""`rewrite fuzz`: seeded random mutation programs, eager vs. the compiled backends."""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from rewrite.fuzz.features import FEATURES, GROUPS, FeatureError, parse_features


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "fuzz", help="differential fuzzing of mutation programs (eager vs stock Inductor vs rewrite)",
        description="Generate seeded random programs that mutate tensors (views, indexed updates, "
                    "aliased inputs, training, dynamic shapes, while_loop/cond), run each under eager, "
                    "the rewrite backend and the backend it is judged against, 3 calls on the same "
                    "tensors, and classify every difference: ours (rewrite wrong, stock or aot_eager right), stock, "
                    "both.  Failures are minimized and written as corpus cases.  See docs/fuzz.md.")
    p.add_argument("--n", type=int, default=100, help="programs (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    p.add_argument("--base", choices=("eager", "inductor", "both"), default="eager",
                   help="rewrite's base: eager (fast, no C++; judged against the rules-free pipeline), "
                        "inductor (judged against stock Inductor), or both (default eager)")
    p.add_argument("--rules", nargs="+", default=None, metavar="FILE",
                   help="rule files to use instead of the shipped rules; steers generation toward "
                        "their uncovered sections and prints their coverage")
    p.add_argument("--out", metavar="DIR", help="write the (minimized) failing programs here as corpus cases")
    p.add_argument("--dynamic", choices=("never", "mixed", "always"), default="mixed",
                   help="torch.compile(dynamic=...) per program (default mixed: 30%% dynamic)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--features", default=None, metavar="LIST",
                   help="only these program features, comma-separated (see --list-features)")
    p.add_argument("--list-features", action="store_true", help="print the feature names and exit")
    p.add_argument("--only", default=None, metavar="I,J,...", help="run just these program indices (unsteered)")
    p.add_argument("--steer", action=argparse.BooleanOptionalAction, default=None,
                   help="coverage steering (default: on with --rules)")
    p.add_argument("--coverage", action="store_true", help="print the rule coverage table (always with --rules)")
    p.add_argument("--aot-eager", action="store_true", help="run torch's aot_eager backend on every program (it always runs where a backend failed: "
                        "a rewrite failure is ours where aot_eager or its judge is right); lists the programs "
                        "where aot_eager itself is wrong, by cause")
    p.add_argument("--no-minimize", dest="minimize", action="store_false", help="write failures as they are")
    p.add_argument("--max-minimize", type=int, default=12, metavar="K",
                   help="minimize at most K failing programs (one per kind of failure first; default 12)")
    p.add_argument("--minimize-evals", type=int, default=40, metavar="N",
                   help="evaluations per minimization (default 40)")
    p.add_argument("--timeout", type=float, default=600.0, metavar="SECONDS", help="per program (default 600)")
    p.add_argument("--json", metavar="FILE", help="write the JSON summary to FILE (- for stdout; the report then goes to stderr)")
    p.add_argument("-v", "--verbose", action="store_true", help="print the source of failures not minimized")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    return p


def _usage(message: str) -> int:
    print(f"rewrite fuzz: {message}", file=sys.stderr)
    return 2


def run(args) -> int:
    if args.list_features:
        for name in FEATURES:
            print(f"{name:<13} {', '.join(GROUPS[name])}")
        return 0
    if args.n < 1:
        return _usage("--n must be at least 1")
    if args.jobs < 1:
        return _usage("-j must be at least 1")
    try:
        features = parse_features(args.features)
    except FeatureError as exc:
        return _usage(str(exc))
    only = None
    if args.only:
        try:
            only = [int(x) for x in args.only.split(",") if x.strip()]
        except ValueError:
            return _usage(f"--only takes program indices like 3,17, not {args.only!r}")
    if args.rules:
        missing = [r for r in args.rules if not Path(r).exists()]
        if missing:
            return _usage(f"no such rule file: {', '.join(missing)}")
        from rewrite.lang.diagnostics import RulesError  # lazy: CLI start-up
        from rewrite.lang.loader import load  # lazy: CLI start-up

        try:
            load([Path(r) for r in args.rules])
        except RulesError as exc:
            from rewrite.lang.diagnostics import format_diagnostic  # lazy: CLI start-up

            for diag in exc.diagnostics:
                print(format_diagnostic(diag, {}), file=sys.stderr)
            return 2
    steer = args.steer if args.steer is not None else bool(args.rules)
    if steer and only:
        return _usage("--only reproduces programs of unsteered runs; add --no-steer")

    from rewrite.fuzz.session import FuzzConfig, run_fuzz  # lazy: imports torch (CLI start-up)
    from rewrite.fuzz.summary import format_run, to_json  # lazy: imports torch (CLI start-up)

    bases = ("eager", "inductor") if args.base == "both" else (args.base,)
    command = " ".join(["rewrite fuzz", f"--seed {args.seed}", f"--n {args.n}", f"--base {args.base}"]
                       + ([f"--rules {' '.join(map(shlex.quote, args.rules))}"] if args.rules else [])
                       + ([f"--features {args.features}"] if args.features else [])
                       + ([f"--dynamic {args.dynamic}"] if args.dynamic != "mixed" else []))
    config = FuzzConfig(n=args.n, seed=args.seed, bases=bases, rules=args.rules, jobs=args.jobs, features=features,
                        dynamic=args.dynamic, only=only, steer=steer, aot_eager=args.aot_eager,
                        timeout=args.timeout, minimize=args.minimize, max_minimize=args.max_minimize,
                        minimize_evaluations=args.minimize_evals, out=args.out, command=command)
    progress = None if args.quiet else _Progress(len(only) if only else args.n)
    result = run_fuzz(config, on_result=progress.update if progress else None,
                      on_minimized=progress.minimized if progress else None)
    if progress:
        progress.close()
    print(format_run(result, coverage=args.coverage or bool(args.rules), verbose=args.verbose),
          file=sys.stderr if args.json == "-" else sys.stdout)
    if args.json:
        text = json.dumps(to_json(result), indent=2)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n")
            print(f"wrote {args.json}", file=sys.stderr)
    return 1 if result.failed else 0


class _Progress:
    """One status line on stderr (redrawn on a terminal, every 25 programs otherwise)."""

    def __init__(self, total: int):
        from collections import Counter

        self.total, self.done, self.counts = total, 0, Counter()
        self.tty = sys.stderr.isatty()

    def update(self, result) -> None:
        self.done += 1
        self.counts[result.cls] += 1
        if self.tty or self.done % 25 == 0 or self.done == self.total or result.cls in ("ours", "both", "stock"):
            bad = ", ".join(f"{c} {self.counts[c]}" for c in ("ours", "both", "stock", "skipped", "invalid", "error")
                            if self.counts[c])
            line = f"[{self.done}/{self.total}] {bad or 'all ok'}"
            sys.stderr.write(("\r" + line.ljust(70)) if self.tty else line + "\n")
            sys.stderr.flush()

    def minimized(self, m) -> None:
        line = f"minimized p{m.index}: {m.program.size} statements, {m.evaluations} evaluations"
        sys.stderr.write(("\r" + line.ljust(70)) if self.tty else line + "\n")
        sys.stderr.flush()

    def close(self) -> None:
        if self.tty:
            sys.stderr.write("\n")
