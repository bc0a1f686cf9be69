"""``rewrite`` command line.  Subcommands are modules in :mod:`rewrite.commands`, each with
``add_parser(subparsers)`` and ``run(args) -> int``; add one by adding its module to COMMANDS."""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import List, Optional

COMMANDS = [
    "rewrite.commands.check",
    "rewrite.commands.fmt",
    "rewrite.commands.test",
    "rewrite.commands.explain",
    "rewrite.commands.fuzz",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rewrite", description="Rule language tools for the rewrite engine.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMANDS:
        module = importlib.import_module(name)
        sub = module.add_parser(subparsers)
        sub.set_defaults(_run=module.run)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Exit status: 0 fine (warnings allowed), 1 ``fmt --check`` found unformatted files (or
    ``test``/``fuzz`` found failures), 2 errors in the rule files or on the command line."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    try:
        return args._run(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug in rewrite itself, not in the input: no traceback by default
        if os.environ.get("REWRITE_DEBUG"):
            raise
        print(f"rewrite: internal error: {type(exc).__name__}: {exc} (set REWRITE_DEBUG=1 for a traceback)",
              file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
