"""``rewrite fmt [--check] PATH...``: rewrite rule files in the canonical layout, keeping comments."""
from __future__ import annotations

import sys
from pathlib import Path


def add_parser(subparsers):
    p = subparsers.add_parser("fmt", help="format rule files in place",
                              description="Format rule files (or folders of *.rules files) in place.")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    p.add_argument("paths", nargs="+", metavar="PATH")
    return p


def run(args) -> int:
    from rewrite.lang.diagnostics import RulesError, format_diagnostic
    from rewrite.lang.loader import expand
    from rewrite.lang.printer import format_source

    files, diags = expand(args.paths)
    status = 0
    for diag in diags:
        print(format_diagnostic(diag, {}), file=sys.stderr)
        status = 2
    changed = []
    for path in files:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"{path}: error: cannot read: {exc}", file=sys.stderr)
            status = 2
            continue
        try:
            formatted = format_source(text, path)
        except RulesError as exc:
            for diag in exc.diagnostics:
                print(format_diagnostic(diag, {path: text}), file=sys.stderr)
            status = 2
            continue
        if formatted != text:
            changed.append(path)
            if not args.check:
                Path(path).write_text(formatted, encoding="utf-8")
    for path in changed:
        print(f"would reformat {path}" if args.check else f"reformatted {path}")
    if status:
        return status
    return 1 if args.check and changed else 0
