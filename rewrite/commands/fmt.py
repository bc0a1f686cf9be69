"""``rewrite fmt [--check] PATH...``: rewrite rule files in the canonical layout, keeping comments."""
from __future__ import annotations

import sys


def add_parser(subparsers):
    p = subparsers.add_parser("fmt", help="format rule files in place",
                              description="Format rule files (or folders of *.rules files) in place.")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    p.add_argument("paths", nargs="+", metavar="PATH")
    return p


def run(args) -> int:
    # cli.build_parser imports every command module: lark and the rule loader at the top would add
    # tens of milliseconds to every `rewrite` run
    from rewrite.lang.diagnostics import RulesError, format_diagnostic, format_report  # lazy: CLI start-up
    from rewrite.lang.loader import MAX_FILE_BYTES, SourceError, expand, read_rules_text  # lazy: CLI start-up
    from rewrite.lang.parser import BOM  # lazy: CLI start-up
    from rewrite.lang.printer import format_source  # lazy: CLI start-up

    files, diags = expand(args.paths)
    status = 0
    for diag in diags:
        print(format_diagnostic(diag, {}), file=sys.stderr)
        status = 2
    changed = []
    for path in files:
        try:
            text = read_rules_text(path, MAX_FILE_BYTES)
            with open(path, "rb") as f:
                bom = BOM if f.read(3) == BOM.encode("utf-8") else ""
        except (SourceError, OSError) as exc:
            located = getattr(exc, "located", None)
            where = f":{located[0]}:{located[1]}" if located else ""
            hint = getattr(exc, "hint", None)
            print(f"{path}{where}: error: cannot read: {getattr(exc, 'reason', None) or exc}"
                  + (f"\n  hint: {hint}" if hint else ""), file=sys.stderr)
            status = 2
            continue
        try:
            formatted = format_source(text, path)
        except RulesError as exc:
            print(format_report(exc.diagnostics, {path: text}), file=sys.stderr)
            status = 2
            continue
        if formatted != text:
            changed.append(path)
            if not args.check:
                with open(path, "w", encoding="utf-8", newline="") as f:
                    f.write(bom + formatted)
    for path in changed:
        print(f"would reformat {path}" if args.check else f"reformatted {path}")
    if status:
        return status
    return 1 if args.check and changed else 0
