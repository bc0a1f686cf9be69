"""The user's cache folder, and what ``rewrite check`` keeps in it to start fast without torch.

The folder is ``$REWRITE_CACHE_DIR``, else ``$XDG_CACHE_HOME/rewrite``, else ``~/.cache/rewrite``.
It holds the parser tables (:mod:`rewrite.lang.parser`, lark's own cache file), the op table of
the installed torch (:mod:`rewrite.lang.ops`, ``ops-<torch version>-<key>.json``), and the answers
this module gives about the ops a rule would create (``emits-...json``): whether Inductor can
compile an op, and which ops ``reinplace`` creates for a node calling an op.  Answering needs torch
and Inductor (seconds to import), so each answer is computed once per installed torch.

``<key>`` hashes torch's version, where it is installed (and when that was written) and the file
format, all found without importing torch.  Files are written atomically; a missing, unreadable or
malformed one is ignored (and written again).
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Dict, Optional

FORMAT = 2


def cache_dir() -> Path:
    if os.environ.get("REWRITE_CACHE_DIR"):
        return Path(os.environ["REWRITE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rewrite"


def private_cache_dir() -> Optional[Path]:
    """The cache folder, created if needed, if only the current user can write to it (so that
    what is read back from it was written by this user); else None."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = os.stat(folder)
    except OSError:
        return None
    getuid = getattr(os, "getuid", None)
    if getuid is not None and info.st_uid != getuid():
        return None
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) or not stat.S_ISDIR(info.st_mode):
        return None
    return folder


def cache_file(prefix: str) -> Optional[Path]:
    """Where ``prefix``'s data (``ops``, ``emits``) for the installed torch is kept; None if
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


def read_json(prefix: str):
    """The data kept under ``prefix`` if it is there and in this format (its ``format`` field),
    else None."""
    path = cache_file(prefix)
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            raw = json.load(f)
    except (OSError, ValueError):
        return None
    return raw if isinstance(raw, dict) and raw.get("format") == FORMAT else None


def write_json(prefix: str, data: dict) -> None:
    """Keep ``data`` (with this format) under ``prefix``, through a temporary file (readers never
    see half a file); failing to write (a read-only home, a full disk) only costs the next run
    time."""
    path = cache_file(prefix)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".json", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({**data, "format": FORMAT}, f, separators=(",", ":"))
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


# --------------------------------------------------------------------------- ops a rule would create

_answers: Optional[Dict[str, dict]] = None


def _load_answers() -> Dict[str, dict]:
    global _answers
    if _answers is None:
        raw = read_json("emits")
        ops = raw.get("ops") if raw is not None else None
        _answers = {str(k): v for k, v in ops.items() if isinstance(v, dict)} if isinstance(ops, dict) else {}
    return _answers


def _answer(op) -> dict:
    """``op``: a resolved :class:`rewrite.lang.ops.OpRef` (its ``target`` imports torch: only
    touched when the answer is not cached)."""
    answers = _load_answers()
    dotted = op.dotted
    if dotted not in answers:
        target = op.target
        # lazy: imported here, not at the top: torch and Inductor cost seconds, and a check whose
        # answers are cached does not need them (rewrite/lang stays torch-free).
        from rewrite.analysis.inductor.compilable import cannot_compile
        from rewrite.analysis.facts.op_facts import hidden_alias, reinplace_emits

        emitted = reinplace_emits(target)
        answers[dotted] = {
            "cannot_compile": cannot_compile(target),
            "hidden_alias": hidden_alias(target),
            "reinplace": None if any(e is None for e in emitted) else [
                [str(e).replace("::", "."), cannot_compile(e)] for e in emitted],
        }
        write_json("emits", {"ops": answers})
    return answers[dotted]


def cannot_compile(op) -> Optional[str]:
    """Why Inductor cannot compile ``op``, or None."""
    return _answer(op)["cannot_compile"]


def hidden_alias(op) -> Optional[str]:
    """Why a rewrite may not create ``op`` (its result may be its input, though its schema says
    otherwise), or None."""
    return _answer(op)["hidden_alias"]


def reinplace_emits(op):
    """``[(op name, why Inductor cannot compile it or None)]`` that ``reinplace`` creates for a
    node calling ``op``; None when some overload has no in-place form."""
    got = _answer(op)["reinplace"]
    return None if got is None else [tuple(e) for e in got]
