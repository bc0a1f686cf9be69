"""`rewrite explain FILE.py::FUNCTION`: what the rules did to one function's graphs, and why."""
from __future__ import annotations

import argparse
import sys


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "explain", help="show each graph before/after the rules and every candidate",
        description="Compile FUNCTION from FILE.py with the rules and print every graph the rules "
                    "ran on (Dynamo, post-grad) before and after, every candidate with its rule, "
                    "source line, the steps it reached, where it stopped and why, and the estimated "
                    "clone/copy traffic removed.  Inputs come from `<FUNCTION>_inputs()` or `inputs()` "
                    "in the same file.  --html also writes a page with pictures of the graphs.")
    p.add_argument("target", metavar="FILE.py::FUNCTION", help="FUNCTION defaults to `fn`")
    p.add_argument("--inductor", action="store_true", help="run through Inductor instead of the eager base")
    p.add_argument("--html", metavar="OUT.html", help="also write a self-contained HTML page: the graphs drawn before/after, "
                                                         "in-place writes, a legend, the candidate table")
    p.add_argument("--rules", action="append", default=None, metavar="FILE",
                   help="rule file to use instead of the shipped rules (repeatable)")
    return p


def run(args) -> int:
    from rewrite.explain.target import TargetError, explain_target  # lazy: imports torch (CLI start-up)

    try:
        text, html = explain_target(args.target, base="inductor" if args.inductor else "eager",
                                    rules=args.rules, html=bool(args.html))
    except TargetError as exc:
        print(f"rewrite explain: {exc}", file=sys.stderr)
        return 2
    print(text)
    if args.html:
        try:
            with open(args.html, "w") as f:
                f.write(html)
        except OSError as exc:
            print(f"rewrite explain: cannot write {args.html}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(f"wrote {args.html}", file=sys.stderr)
    return 0
