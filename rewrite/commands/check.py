"""``rewrite check PATH...``: parse and check rule files, print every diagnostic and a summary."""
from __future__ import annotations

import sys


def add_parser(subparsers):
    p = subparsers.add_parser("check", help="check rule files for errors",
                              description="Parse and check rule files (or folders of *.rules files).")
    p.add_argument("--root", action="append", default=[], metavar="FOLDER",
                   help="a folder includes may reach besides the including file's own (repeatable)")
    p.add_argument("paths", nargs="+", metavar="PATH")
    return p


def run(args) -> int:
    # cli.build_parser imports every command module: lark and the rule loader at the top would add
    # tens of milliseconds to every `rewrite` run
    from rewrite.lang.diagnostics import format_report  # lazy: CLI start-up
    from rewrite.lang.loader import collect  # lazy: CLI start-up

    got = collect(args.paths, roots=args.root)
    if got.diagnostics:
        print(format_report(got.diagnostics, got.sources), file=sys.stderr)
    items = [item for m in got.modules for item in m.items]
    n_rules = sum(type(i).__name__ == "Rule" for i in items)
    n_deps = sum(type(i).__name__ == "Dependency" for i in items)
    n_err = len(got.errors)
    n_warn = len(got.diagnostics) - n_err
    files = len(got.sources)
    print(f"checked {files} file{'s' * (files != 1)}: {n_rules} rule{'s' * (n_rules != 1)}, "
          f"{n_deps} dependenc{'ies' if n_deps != 1 else 'y'}, {n_err} error{'s' * (n_err != 1)}, "
          f"{n_warn} warning{'s' * (n_warn != 1)}")
    return 2 if n_err else 0
