"""The op table of the installed torch (:func:`rewrite.lang.ops.build_table`) kept as JSON in the
user's cache folder, so that checking rule files need not import torch (seconds) once the table
has been built.

The file is ``<cache>/ops-<torch version>-<key>.json`` (``<cache>``:
:func:`rewrite.lang.user_cache.cache_dir`); ``<key>`` hashes torch's version, where it
is installed (and when that was written) and this file's format, all found without importing
torch.  The file is written atomically; a missing, unreadable or malformed one is ignored (the
table is then built from torch and written again).
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import tempfile
from pathlib import Path
from typing import Optional

from rewrite.lang.schema import Arg
from rewrite.lang.user_cache import cache_dir

FORMAT = 2


def cache_file(prefix: str = "ops") -> Optional[Path]:
    """Where the table (or another ``prefix``'s data) of the installed torch is kept; None if
    torch cannot be identified."""
    try:
        version = importlib.metadata.version("torch")
        spec = importlib.util.find_spec("torch")
    except (importlib.metadata.PackageNotFoundError, ImportError, ValueError):
        return None
    origin = (spec.origin or "") if spec is not None else ""
    try:
        stamp = os.stat(origin).st_mtime_ns if origin else 0
    except OSError:
        stamp = 0
    key = hashlib.sha256(f"{FORMAT}|{version}|{origin}|{stamp}".encode()).hexdigest()[:16]
    safe_version = "".join(c if c.isalnum() or c in ".+-_" else "_" for c in version)
    return cache_dir() / f"{prefix}-{safe_version}-{key}.json"


def read():
    """The cached table, or None."""
    path = cache_file()
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            raw = json.load(f)
        return _validated(raw)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _validated(raw):
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ValueError("not an op table")
    table = {}
    for ns, ops in raw["ops"].items():
        table[str(ns)] = {str(name): {str(overload): tuple(Arg(str(a), str(t), bool(k), bool(d), bool(w))
                                                           for a, t, k, d, w in args)
                                      for overload, args in overloads.items()}
                          for name, overloads in ops.items()}
    return table


def write(table) -> None:
    """Store ``table``; failing to (a read-only home, a full disk) only costs the next run time."""
    path = cache_file()
    if path is None:
        return
    data = {"format": FORMAT,
            "ops": {ns: {name: {ov: [[a.name, a.type, a.kwarg_only, a.has_default, a.writes] for a in args]
                                for ov, args in overloads.items()}
                         for name, overloads in ops.items()} for ns, ops in table.items()}}
    write_json_atomically(path, data)


def write_json_atomically(path, data) -> None:
    """Write ``data`` to ``path`` through a temporary file (readers never see half a file);
    failing to write only costs the next run time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".json", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, separators=(",", ":"))
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass
