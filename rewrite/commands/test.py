"""`rewrite test`: run the rule test corpus."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

DEFAULT_CORPUS = Path("tests") / "corpus"


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "test", help="run the rule test corpus",
        description="Run corpus cases (tests/corpus/<rules-stem>/<case>.py): each case is compiled "
                    "with the rules and checked against its EXPECT block (see docs/corpus.md).")
    p.add_argument("paths", nargs="*", metavar="PATH", help="case files or directories (default: tests/corpus)")
    p.add_argument("--inductor", action="store_true",
                   help="end to end through Inductor (compiles C++; seconds per case) instead of the eager base")
    p.add_argument("--coverage", action="store_true", help="report which rule sections the cases reach and stop at")
    p.add_argument("--strict", action="store_true", help="with --coverage: exit 1 when a rule is uncovered")
    p.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: min(2, cpus))")
    p.add_argument("-k", dest="keyword", default=None, metavar="SUBSTR", help="only cases whose id contains SUBSTR")
    p.add_argument("--rules", action="append", default=None, metavar="FILE",
                   help="rule file to use instead of the shipped rules (repeatable)")
    p.add_argument("--slow", type=float, default=None, metavar="SECONDS",
                   help="mark cases taking at least this long as slow (default: 5)")
    p.add_argument("--device", default=None, metavar="DEVICE",
                   help="run the cases on this device (e.g. cuda); sets REWRITE_TEST_DEVICE for the workers")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    return p


def run(args) -> int:
    # cli.build_parser imports every command module: torch at the top would load on `rewrite check` too
    from rewrite.testing.case import discover  # lazy: CLI start-up
    from rewrite.testing.parallel import default_jobs, run_cases  # lazy: imports torch
    from rewrite.testing.console import Progress, print_run  # lazy: imports torch

    if args.device:
        import os

        from rewrite.testing.runner import DEVICE_VARIABLE  # lazy: imports torch (CLI start-up)

        os.environ[DEVICE_VARIABLE] = args.device   # inherited by the worker processes
    paths = args.paths or [DEFAULT_CORPUS]
    try:
        files = discover(paths)
    except FileNotFoundError as exc:
        print(f"rewrite test: {exc}", file=sys.stderr)
        return 2
    if args.keyword:
        files = [f for f in files if args.keyword in f"{f.parent.name}/{f.stem}"]
    if not files:
        print("rewrite test: no cases selected", file=sys.stderr)
        return 2
    if args.strict and not args.coverage:
        print("rewrite test: --strict only applies with --coverage", file=sys.stderr)
        return 2
    jobs = args.jobs if args.jobs is not None else default_jobs()
    progress = None if args.quiet else Progress(len(files))
    results = run_cases(files, base="inductor" if args.inductor else "eager", rules=args.rules,
                        jobs=jobs, on_result=progress.update if progress else None)
    return print_run(results, coverage=args.coverage, strict=args.strict, rules=args.rules,
                     slow=args.slow)
