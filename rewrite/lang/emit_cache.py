"""What the checker needs to know about the ops a rule would create: whether Inductor can
compile an op, and which ops ``reinplace`` creates for a node calling an op.  Answering needs
torch and Inductor (seconds to import); answers are kept in a small JSON file next to the op table
(:mod:`rewrite.lang.op_cache`), so that ``rewrite check`` of the same rules needs neither again.
"""
from __future__ import annotations

import json
from typing import Dict, Optional

from rewrite.lang.op_cache import cache_file, write_json_atomically

FORMAT = 2
_answers: Optional[Dict[str, dict]] = None


def _load() -> Dict[str, dict]:
    global _answers
    if _answers is None:
        _answers = {}
        path = cache_file("emits")
        if path is not None:
            try:
                with open(path, encoding="utf-8") as f:
                    raw = json.load(f)
                if isinstance(raw, dict) and raw.get("format") == FORMAT and isinstance(raw.get("ops"), dict):
                    _answers = {str(k): v for k, v in raw["ops"].items() if isinstance(v, dict)}
            except (OSError, ValueError):
                pass
    return _answers


def _store() -> None:
    path = cache_file("emits")
    if path is None:
        return
    write_json_atomically(path, {"format": FORMAT, "ops": _answers})


def _answer(op) -> dict:
    """``op``: a resolved :class:`rewrite.lang.ops.OpRef` (its ``target`` imports torch: only
    touched when the answer is not cached)."""
    answers = _load()
    dotted = op.dotted
    if dotted not in answers:
        target = op.target
        # lazy: imported here, not at the top: torch and Inductor cost seconds, and a check whose
        # answers are cached does not need them (rewrite/lang stays torch-free).
        from rewrite.analysis.inductor_ops import cannot_compile
        from rewrite.analysis.op_families import reinplace_emits  # lazy: imports torch, as above

        emitted = reinplace_emits(target)
        from rewrite.analysis.op_families import hidden_alias  # lazy: imports torch, as above

        answers[dotted] = {
            "cannot_compile": cannot_compile(target),
            "hidden_alias": hidden_alias(target),
            "reinplace": None if any(e is None for e in emitted) else [
                [str(e).replace("::", "."), cannot_compile(e)] for e in emitted],
        }
        _store()
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
