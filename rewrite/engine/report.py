"""What one application of a rule set to one graph did: every candidate, where it stopped and
why, what fired, and the graph before and after (as data, for diffs and pictures).  This is the
data behind the why-not trace, ``rewrite explain`` and the corpus expectations."""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import torch
import torch.fx as fx

from rewrite.analysis.facts import op_facts
from rewrite.analysis.facts.fake import fake_value
from rewrite.analysis.facts.op_facts import op_display_name
from rewrite.stages import STEPS

log = logging.getLogger("rewrite")
trace_log = logging.getLogger("rewrite.trace")


def _log_from_environment() -> None:
    """``REWRITE_LOG=info`` prints fired rules to stderr; ``REWRITE_LOG=trace`` adds every
    rejected candidate with the predicate that stopped it."""
    level = os.environ.get("REWRITE_LOG", "").lower()
    if level in ("info", "trace", "debug") and not log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.DEBUG if level in ("trace", "debug") else logging.INFO)


_log_from_environment()


# --------------------------------------------------------------------------- graphs as data


@dataclass(frozen=True)
class NodeInfo:
    name: str
    op: str                      # placeholder, call_function, get_attr, output...
    target: str                  # "aten.slice_scatter", "getitem", the placeholder's name
    inputs: Tuple[str, ...]      # names of the nodes it reads
    writes: Tuple[str, ...]      # names of the nodes whose memory it writes
    value: str                   # "f32[8, 4]" or ""


@dataclass
class GraphSnapshot:
    """A graph as plain data: enough to diff, draw and explain without the graph itself."""

    nodes: List[NodeInfo] = field(default_factory=list)

    @classmethod
    def of(cls, graph: fx.Graph) -> "GraphSnapshot":
        out = []
        for n in graph.nodes:
            target = op_display_name(n.target) if n.op == "call_function" else str(n.target)
            written = tuple(w.name for w in op_facts.written_nodes(n)) if n.op == "call_function" else ()
            out.append(NodeInfo(n.name, n.op, target, tuple(i.name for i in n.all_input_nodes), written,
                                _value(n)))
        return cls(out)

    def text(self) -> str:
        """One line per node: ``name: f32[8] = aten.add(x, y)``."""
        lines = []
        for n in self.nodes:
            if n.op == "placeholder":
                lines.append(f"{n.name}: {n.value} = input")
            elif n.op == "output":
                lines.append(f"return ({', '.join(n.inputs)})")
            else:
                head = f"{n.name}: {n.value}" if n.value else n.name
                lines.append(f"{head} = {n.target}({', '.join(n.inputs)})")
        return "\n".join(lines)

    def names(self) -> List[str]:
        return [n.name for n in self.nodes]


def _value(n: fx.Node) -> str:
    val = fake_value(n)
    if val is None:
        return ""
    dtype = str(val.dtype).replace("torch.", "")
    short = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int64": "i64",
             "int32": "i32", "bool": "b8", "int8": "i8", "uint8": "u8"}.get(dtype, dtype)
    return f"{short}[{', '.join(str(s) for s in val.shape)}]"


# --------------------------------------------------------------------------- candidates


@dataclass
class Candidate:
    rule: str
    location: str            # "rules/reinplace.rules:7" (file:line of the rule)
    node: str                # name of the root node the rule was tried on
    graph: str               # which graph: "forward", "backward", "inference", "dynamo", a subgraph name
    stopped_at: Optional[str]  # one of STEPS, or None when the rule fired
    reason: str = ""         # stopped: why, e.g. "alias_used_between(arg0_1, slice_scatter, copy_) is true (index_select reads arg0_1)"
    reached: Tuple[str, ...] = ()  # steps whose check ran (for coverage)
    before: Tuple[str, ...] = ()   # fired: names of the nodes the rewrite removed
    after: Tuple[str, ...] = ()    # fired: names of the nodes it created
    bytes_removed: object = 0      # fired: bytes of copies it removed minus copies it added (estimate)

    @property
    def fired(self) -> bool:
        return self.stopped_at is None

    def line(self) -> str:
        head = f"{self.rule} @ {self.location} on {self.node} [{self.graph}]"
        if self.fired:
            why = f" ({self.reason})" if self.reason else ""
            return f"{head}: fired; removed {', '.join(self.before) or '-'}; added {', '.join(self.after) or '-'}{why}"
        return f"{head}: rejected by {self.stopped_at}: {self.reason}"


@dataclass
class Report:
    graph: str                                  # "inference", "forward", "backward", "dynamo"
    candidates: List[Candidate] = field(default_factory=list)
    before: Optional[GraphSnapshot] = None      # the graph before the pass
    after: Optional[GraphSnapshot] = None       # and after
    ops_before: Dict[str, int] = field(default_factory=dict)  # op ("aten.slice_scatter.default") -> count
    ops_after: Dict[str, int] = field(default_factory=dict)
    bytes_removed: object = 0                   # estimated copy traffic removed per call, relative to
    #                                             the functional graph the pass received
    copies: Optional["CopyComparison"] = None   # against what stock Inductor's final graph would copy;
    #   measured only when asked (make_backend(measure_copies=True), rewrite explain, REWRITE_LOG=info)
    copies_after: List = field(default_factory=list)   # rewrite.analysis.inductor.copies.Copy left after the pass
    iterations: int = 0
    warnings: List[str] = field(default_factory=list)
    repairs: List[str] = field(default_factory=list)   # what the engine's nets repaired of the passes
    #                                                    before ours (``nets.repair_earlier_passes``)
    cache_hit: bool = False                     # served from Inductor's FX graph cache: not rewritten
    #: dependencies that said ``fallback reference`` and could not be applied: on the Inductor
    #: base the graph runs with aot_eager (``fallback`` then says so)
    left_to_reference: List[str] = field(default_factory=list)
    fallback: Optional[str] = None              # the compile failed with this error: the graph runs
    #                                             with torch's reference (``make_backend(fallback=...)``)
    fallback_runs: str = "with aot_eager"       # how it runs: "with aot_eager", or eagerly as Dynamo
    #                                             captured it (``backend.RUNS_EAGERLY``)
    seconds: Dict[str, float] = field(default_factory=dict)   # "total" and the parts: "legality" (the
    #   check under every rewrite), "ownership" (simulating Inductor's reinplacing after the rules),
    #   "copy_measure" (the copies stock Inductor would leave, for ``copies``: only when asked)

    @property
    def fired(self) -> List[Candidate]:
        return [c for c in self.candidates if c.fired]

    @property
    def rejected(self) -> List[Candidate]:
        return [c for c in self.candidates if not c.fired]

    def fired_rules(self) -> List[str]:
        return [c.rule for c in self.fired]

    @property
    def graph_before(self) -> str:
        return self.before.text() if self.before is not None else ""

    @property
    def graph_after(self) -> str:
        return self.after.text() if self.after is not None else ""

    def summary(self) -> str:
        if self.cache_hit:
            return f"[{self.graph}] served from Inductor's FX graph cache: the rules did not run on it"
        if self.fallback:
            return f"[{self.graph}] compiling failed ({self.fallback}): the graph runs {self.fallback_runs}"
        lines = [f"[{self.graph}] {len(self.fired)} fired, {len(self.rejected)} rejected"]
        if self.copies is not None:
            lines.append("  " + self.copies.describe())
        lines += ["  " + c.line() for c in self.candidates]
        lines += ["  repaired: " + r for r in self.repairs]
        lines += ["  warning: " + w for w in self.warnings]
        return "\n".join(lines)


@dataclass
class CopyComparison:
    """Copies left in the final graph under the rules versus under stock Inductor."""

    stock_bytes: object
    ours_bytes: object
    stock_copies: int
    ours_copies: int
    stock_wrong: Optional[List[str]] = field(default_factory=list)   # stock Inductor's unsafe decisions
    #   (None: not judged, because no rule needed that judgement on this graph)

    @property
    def saved(self):
        return self.stock_bytes - self.ours_bytes

    def describe(self) -> str:
        wrong = f", and its result would be wrong ({'; '.join(self.stock_wrong)})" if self.stock_wrong else ""
        return (f"copies per call: stock Inductor {self.stock_copies} ({_bytes(self.stock_bytes)}{wrong}), "
                f"with the rules {self.ours_copies} ({_bytes(self.ours_bytes)})")


def _bytes(n) -> str:
    if not isinstance(n, int):
        return f"{n} bytes"
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


__all__ = ["Candidate", "CopyComparison", "GraphSnapshot", "NodeInfo", "Report", "STEPS", "log", "trace_log"]


def count_ops(graph: fx.Graph) -> Dict[str, int]:
    """Calls per op, keyed by the overload's full name (``aten.add.Tensor``) where there is one
    (``rewrite.testing.checks.op_count`` sums the overloads of a packet)."""
    counts: Dict[str, int] = {}
    for n in graph.nodes:
        if n.op == "call_function":
            key = str(n.target) if isinstance(n.target, torch._ops.OpOverload) else op_display_name(n.target)
        elif n.op == "call_method":
            key = f"Tensor.{n.target}"
        else:
            continue
        counts[key] = counts.get(key, 0) + 1
    return counts


def warn(report: "Report", message: str, level: int = logging.WARNING) -> None:
    """Note ``message`` in the report and log it: at WARNING where the user has something to do
    (a rule set that cycles or takes too long), lower where the engine handled it."""
    report.warnings.append(message)
    log.log(level, "%s", message)
