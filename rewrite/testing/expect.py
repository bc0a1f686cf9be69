"""One line of a case's ``EXPECT`` block, parsed.

Grammar (one expectation per line, ``#`` starts a comment)::

    fires: RULE [count=N] [in GRAPH]
    copies: <= N bytes [in GRAPH]
    rejects: RULE at STAGE [in GRAPH] [because TEXT]
    not fires: RULE [in GRAPH]
    absent: OP [in GRAPH]
    present: OP [count=N | count>=N] [in GRAPH]
    matches_eager [exact] [atol=X] [rtol=Y]
    eager_raises: ExceptionName
    compile_raises: ExceptionName [because TEXT]
    warns: TEXT
    inductor
    slow

Any line but ``inductor`` and ``slow`` may end ``on inductor`` or ``on eager``: it then holds on
that base only (``fires: materialize_copy_back_source on inductor``: a repair of a lowering hazard,
which the eager base, running the graph op by op, does not have).

GRAPH is ``inference``, ``forward``, ``backward``, ``dynamo``, ``post`` (the main post-grad graph:
inference or forward) or ``any``.  ``absent``/``present`` default to ``post``; ``fires``,
``rejects`` and ``not fires`` default to ``any``.  A case fails on any warning of the ``rewrite``
loggers while it compiles and runs, unless a ``warns`` line's TEXT is part of it.
"""
from __future__ import annotations

import dataclasses
import difflib
import re
from dataclasses import dataclass
from typing import Optional

from rewrite.stages import STEPS as STAGES

GRAPHS = ("inference", "forward", "backward", "dynamo", "post", "any")
KINDS = ("fires", "rejects", "not fires", "absent", "present", "copies", "matches_eager", "eager_raises",
         "compile_raises", "warns", "inductor", "slow")
_NAMED = ("fires", "rejects", "not fires", "absent", "present", "eager_raises", "compile_raises")
_EXCEPTIONS = ("eager_raises", "compile_raises")
# Float tolerances of `matches_eager` unless the line overrides them (tighter than
# torch.testing's float32 defaults).
DEFAULT_RTOL = 1e-6
DEFAULT_ATOL = 1e-6


class ExpectationError(ValueError):
    pass


@dataclass(frozen=True)
class Expectation:
    kind: str                     # fires, rejects, not_fires, absent, present, matches_eager, eager_raises, inductor, slow
    subject: str = ""             # rule name, op name or exception name
    stage: Optional[str] = None   # rejects: the stage it must stop at
    graph: str = "any"
    count: Optional[int] = None
    at_least: bool = False        # count>=N rather than count=N
    exact: bool = False
    rtol: float = DEFAULT_RTOL
    atol: float = DEFAULT_ATOL
    because: str = ""
    text: str = ""
    base: Optional[str] = None    # the base the line holds on (None: both)

    def short(self) -> str:
        if self.kind == "fires":
            return f"fire {self.subject}" + (f" x{self.count}" if self.count is not None else "")
        if self.kind == "rejects":
            return f"reject {self.subject}@{self.stage}"
        if self.kind == "not_fires":
            return f"no-fire {self.subject}"
        return self.text

    def graph_matches(self, graph: str) -> bool:
        if self.graph == "any":
            return True
        if self.graph == "post":
            return graph in ("inference", "forward")
        return graph == self.graph


_NAME = r"[A-Za-z_][\w.]*"


BASES = ("inductor", "eager")


def parse_expect_line(line: str) -> Expectation:
    text = line.strip()
    body, base = _split_base(text)
    expectation = _parse_body(body, text)
    if base is not None and expectation.kind in ("inductor", "slow"):
        raise ExpectationError(f"`{expectation.kind}` takes no base: it says how the case runs")
    return dataclasses.replace(expectation, base=base) if base is not None else expectation


def _split_base(text: str):
    """``text`` without a trailing ``on inductor`` / ``on eager``, and that base (or None)."""
    for name in BASES:
        if text.endswith(f" on {name}"):
            return text[:-len(f" on {name}")].rstrip(), name
    return text, None


def _parse_body(text: str, whole: str) -> Expectation:
    head, sep, rest = text.partition(":")
    head = head.strip()
    if not sep:
        head, _, rest = text.partition(" ")
        return _parse_flag(head, rest.strip(), whole)
    if head == "copies":
        return _parse_copies(rest.strip(), whole)
    if head == "warns":
        if not rest.strip():
            raise ExpectationError("`warns:` needs the text the warning must contain")
        return Expectation(kind="warns", subject=rest.strip(), text=whole)
    if head not in _NAMED:
        raise ExpectationError(_unknown(head))
    rest = rest.strip()
    if not rest:
        raise ExpectationError(f"`{head}:` needs a {'exception' if head in _EXCEPTIONS else 'rule' if 'fire' in head or head == 'rejects' else 'op'} name")
    rest, because = _split_because(rest) if head in ("rejects", "compile_raises") else (rest, "")
    words = rest.split()
    subject, options = words[0], words[1:]
    if not re.fullmatch(_NAME, subject):
        raise ExpectationError(f"{subject!r} is not a name")
    graph = "post" if head in ("absent", "present") else "any"
    stage = None
    count = None
    at_least = False
    i = 0
    while i < len(options):
        word = options[i]
        if word == "in" and head not in _EXCEPTIONS:
            if i + 1 >= len(options):
                raise ExpectationError("`in` needs a graph name: " + ", ".join(GRAPHS))
            graph = options[i + 1]
            if graph not in GRAPHS:
                raise ExpectationError(f"unknown graph {graph!r}; expected one of {', '.join(GRAPHS)}")
            i += 2
        elif word == "at" and head == "rejects":
            if i + 1 >= len(options):
                raise ExpectationError("`at` needs a stage: " + ", ".join(STAGES))
            stage = options[i + 1]
            if stage not in STAGES:
                raise ExpectationError(f"unknown stage {stage!r}; expected one of {', '.join(STAGES)}")
            i += 2
        elif word.startswith("count") and head in ("present", "fires"):
            m = re.fullmatch(r"count(>=|=)(\d+)", word)
            if not m:
                raise ExpectationError(f"bad count {word!r}; write count=N or count>=N")
            at_least, count = m.group(1) == ">=", int(m.group(2))
            i += 1
        else:
            raise ExpectationError(f"unexpected {word!r} after `{head}: {subject}`")
    if head == "rejects" and stage is None:
        raise ExpectationError(f"`rejects: {subject}` needs `at STAGE` (one of {', '.join(STAGES)})")
    kind = "not_fires" if head == "not fires" else head
    return Expectation(kind=kind, subject=subject, stage=stage, graph=graph, count=count,
                       at_least=at_least, because=because, text=whole)


def _parse_copies(rest: str, text: str) -> Expectation:
    """``copies: <= N bytes [in GRAPH]``: the copies left after the rules (see
    rewrite.analysis.inductor.copies) write at most N bytes per call."""
    m = re.fullmatch(r"<=\s*(\d+)\s*bytes(?:\s+in\s+(\w+))?", rest)
    if not m:
        raise ExpectationError("write `copies: <= N bytes [in GRAPH]`")
    graph = m.group(2) or "post"
    if graph not in GRAPHS:
        raise ExpectationError(f"unknown graph {graph!r}; expected one of {', '.join(GRAPHS)}")
    return Expectation(kind="copies", subject="copies", graph=graph, count=int(m.group(1)), text=text)


def _split_because(rest: str):
    before, sep, after = rest.partition(" because ")
    if sep and not after.strip():
        raise ExpectationError("`because` needs some text the rejection reason must contain")
    return before.strip(), after.strip()


def _parse_flag(head: str, rest: str, text: str) -> Expectation:
    if head == "matches_eager":
        exact = False
        rtol, atol = DEFAULT_RTOL, DEFAULT_ATOL
        for word in rest.split():
            if word == "exact":
                exact = True
            elif re.fullmatch(r"(atol|rtol)=[0-9.eE+-]+", word):
                key, value = word.split("=")
                try:
                    number = float(value)
                except ValueError:
                    raise ExpectationError(f"bad number in {word!r}") from None
                rtol, atol = (number, atol) if key == "rtol" else (rtol, number)
            else:
                raise ExpectationError(f"unexpected {word!r} after matches_eager (allowed: exact, atol=X, rtol=X)")
        return Expectation(kind="matches_eager", exact=exact, rtol=rtol, atol=atol, text=text)
    if head in ("inductor", "slow"):
        if rest:
            raise ExpectationError(f"`{head}` takes nothing after it, got {rest!r}")
        return Expectation(kind=head, text=text)
    if text.startswith("not fires"):
        head = "not fires"
    if head in _NAMED:
        raise ExpectationError(f"`{head}` needs a colon: `{head}: NAME`")
    raise ExpectationError(_unknown(head))


def _unknown(head: str) -> str:
    close = difflib.get_close_matches(head, KINDS, n=1, cutoff=0.6)
    hint = f" (did you mean `{close[0]}`?)" if close else ""
    return f"unknown expectation {head!r}{hint}; expected one of: {', '.join(KINDS)}"
