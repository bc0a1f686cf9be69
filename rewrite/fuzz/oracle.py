"""Running a program under a compiled backend and comparing it with the eager reference.

Backends (names used everywhere in the fuzzer, the summary and the JSON):

* ``rewrite-eager``: ``make_backend(rules, base="eager")``;
* ``rewrite-inductor``: ``make_backend(rules, base="inductor", cache=False)`` (the FX graph
  cache off, so every graph really goes through the rules);
* ``inductor``: stock ``torch.compile(backend="inductor")`` (its FX graph cache stays on);
* ``pipeline-eager``: the eager base with no rules: AOTAutograd with Inductor's decompositions,
  joint-graph passes and partitioner, run as is.  It is what ``rewrite-eager`` is compared with
  to tell a wrong rule from a wrong pipeline;
* ``aot_eager``: torch's ``aot_eager`` backend (optional, ``--aot-eager``).

Every compiled run uses ``fullgraph=True``, fresh Dynamo and fake-tensor caches and fresh code
objects, and calls the function ``CALLS`` times on the same tensors, like the eager reference.
A custom-op program is compiled and run under its ``auto_functionalized`` version (v1 or v2),
which every one of these backends honours: each functionalizes through AOTAutograd.

Who is wrong: the class of a program on one base, from the outcomes of the rewrite backend,
the backend it is judged against (stock Inductor; on the eager base, the rules-free eager
pipeline) and torch's reference pipeline ``aot_eager`` (AOTAutograd without any of Inductor's
passes), where they ran.

* ``ours``: rewrite is wrong or crashes, and its judge or torch's ``aot_eager`` is right (where
  either is right, rewrite must be right: issue 23);
* ``stock``: the judge is wrong or crashes, rewrite is right;
* ``both``: rewrite is wrong or crashes and so is every backend it is compared with that ran
  (a limit of torch: a crash they share is not ours);
* ``ok``: rewrite and the judge match eager;
* ``skipped``: Dynamo cannot compile the program (under ``fullgraph=True``).

Rounding: a program whose float math is inexact (``sin``, ``exp``...) is compared with eager
within ``FLOAT_TOLERANCE``.  A compiler may sum in another order, and a transcendental of a
large running sum turns the last bit of the sum into a visible difference.  A backend that
misses by more, but stays within ``ROUNDING_BOUND``, is run again on the same program in float64
(:func:`rewrite.fuzz.program.widened`) against eager in float64; where :func:`float32_rounding`
finds the difference is float32 rounding (the same path as eager, an error of eager's order,
a match in float64 with the same candidates fired), the outcome is ``ok`` with the evidence in
``Outcome.rounding``.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Mapping, Optional, Sequence

import torch

from rewrite.backend import make_backend
from rewrite.engine.report import Candidate
from rewrite.engine.ruleset import RuleSet
from rewrite.fuzz.program import Program
from rewrite.fuzz.reference import CALLS, float64_default, load, run_eager
from rewrite.testing.execute import Run, auto_functionalized, fresh_inputs, run_calls
from rewrite.testing.state import Snapshot, compare

BACKENDS = ("rewrite-eager", "pipeline-eager", "rewrite-inductor", "inductor", "aot_eager")
REWRITE_BACKENDS = ("rewrite-eager", "rewrite-inductor")
FLOAT_TOLERANCE = 1e-5   # rtol and atol for programs with inexact float math (exact ones: equal)
ROUNDING_BOUND = 1e-3    # a miss of an inexact program within this (absolute) is run again in float64 ...
WIDE_TOLERANCE = 1e-9    # ... and is float32 rounding where float64 matches eager within this ...
ROUNDING_FACTOR = 10     # ... and float32 is off float64 eager by at most this times eager's own error (+1e-5)

STATUSES = ("ok", "wrong", "crash", "unsupported")


@dataclass
class Outcome:
    backend: str
    status: str                      # ok | wrong | crash | unsupported (Dynamo cannot compile it)
    detail: str = ""                 # the first difference, or the exception's first line
    error_type: str = ""
    call: int = 0                    # the call that differed or raised (1-based; 0: none)
    seconds: float = 0.0
    candidates: List[Candidate] = field(default_factory=list)   # rewrite backends: every candidate
    fallback: str = ""               # rewrite backends: a graph whose compile failed fell back (the error)
    rounding: str = ""               # ok only in float64: the float32 difference (see the module docstring)

    @property
    def bad(self) -> bool:
        return self.status in ("wrong", "crash")

    def fired(self) -> List[str]:
        return sorted({c.rule for c in self.candidates if c.fired})

    def describe(self) -> str:
        if self.status == "ok":
            return ("matches eager" + (f" (fell back to torch's reference: {self.fallback[:200]})" if self.fallback else "")
                    + (f" up to float32 rounding ({self.rounding})" if self.rounding else ""))
        if self.status == "wrong":
            return f"differs from eager on call {self.call}: {self.detail}"
        if self.status == "crash":
            return f"raised on call {self.call}: {self.error_type}: {self.detail}"
        return f"cannot be compiled ({self.error_type}: {self.detail})"


class BackendFactory:
    """Backends for one process: the rule sets are loaded once."""

    def __init__(self, rules: Optional[Sequence[str]] = None):
        self.rule_set = RuleSet.load(list(rules) if rules else None)
        self.no_rules = RuleSet.load([])

    def make(self, name: str):
        if name == "rewrite-eager":
            return make_backend(self.rule_set, base="eager", cache=False)
        if name == "rewrite-inductor":
            return make_backend(self.rule_set, base="inductor", cache=False)
        if name == "pipeline-eager":
            return make_backend(self.no_rules, base="eager", cache=False)
        if name in ("inductor", "aot_eager"):
            return name
        raise ValueError(f"unknown backend {name!r}; expected one of {', '.join(BACKENDS)}")


def run_backend(program: Program, name: str, reference: Run, factory: BackendFactory, wide: bool = False) -> Outcome:
    """``program`` compiled with backend ``name``, called ``CALLS`` times, compared with the
    eager ``reference`` after every call (outputs, every input and view base, grads).  ``wide``:
    the program in float64, ``reference`` its float64 eager run."""
    start = time.perf_counter()
    fresh_compiler_state()
    with float64_default(wide):
        fn, make_inputs = load(program, wide=wide)
        backend = factory.make(name)
        compiled = torch.compile(fn, backend=backend, fullgraph=True, dynamic=program.dynamic)
        with auto_functionalized(program.auto_functionalized):   # compiling happens on the first call
            run = run_calls(compiled, fresh_inputs(make_inputs), program.mode, CALLS)
    outcome = judge(name, run, reference, program.exact and not wide,
                    WIDE_TOLERANCE if wide else FLOAT_TOLERANCE)
    reports = getattr(backend, "reports", [])
    outcome.candidates = [c for r in reports for c in r.candidates]
    outcome.fallback = "; ".join(r.fallback for r in reports if r.fallback)
    torch._dynamo.reset()
    outcome.seconds = time.perf_counter() - start      # (the float64 run below is not the backend's time)
    if not wide and outcome.status == "wrong":
        outcome.rounding = float32_rounding(program, name, run, reference, outcome, factory)
        if outcome.rounding:
            outcome.status, outcome.call = "ok", 0
    return outcome


def float32_rounding(program: Program, name: str, run: Run, reference: Run, outcome: Outcome,
                     factory: BackendFactory) -> str:
    """Why ``outcome`` (wrong) is float32 rounding, or "" where it may not be.  The program's float
    math is inexact; every value is within ROUNDING_BOUND of eager (absolute); eager in float32 and
    in float64 agree as closely (the same path through the program: every value that is not a
    float equal); the backend in float32 is off the float64 truth by at most ROUNDING_FACTOR times
    eager's own float32 error, plus FLOAT_TOLERANCE (a lost write is not rounding, even where
    ``sin`` amplifies it); and in float64 the backend matches eager within WIDE_TOLERANCE with the
    same candidates fired at the same nodes and nothing falling back."""
    if program.exact or outcome.fallback or len(run.snapshots) != len(reference.snapshots):
        return ""
    if any(compare(want, got, exact=False, rtol=0, atol=ROUNDING_BOUND)
           for want, got in zip(reference.snapshots, run.snapshots)):
        return ""
    truth = run_eager(program, wide=True)
    if truth.error is not None or len(truth.snapshots) != len(reference.snapshots):
        return ""
    worst = 0.0
    for ours, eager, wide in zip(run.snapshots, reference.snapshots, truth.snapshots):
        eager_error, ours_error = float_errors(eager, wide), float_errors(ours, wide)
        if eager_error is None or ours_error is None:
            return ""
        for e, o in zip(eager_error, ours_error):
            if e > ROUNDING_BOUND or o > ROUNDING_FACTOR * e + FLOAT_TOLERANCE:
                return ""
            worst = max(worst, o - e)
    again = run_backend(program, name, truth, factory, wide=True)
    if again.status != "ok" or again.fallback or fired_at(again) != fired_at(outcome):
        return ""
    return (f"float32 {outcome.detail[:160]}; off float64 eager by at most {worst:.2g} more than float32 eager "
            f"is; in float64 within {WIDE_TOLERANCE:g} of eager, the same rules fired at the same nodes")


def float_errors(narrow: Snapshot, wide: Snapshot) -> Optional[List[float]]:
    """Per item, the largest absolute difference between a float32 run's value and the float64
    run's; None where the two runs differ otherwise (structure, shapes, a value that is no float
    tensor: the float64 run took another path)."""
    if [label for label, _ in narrow.items] != [label for label, _ in wide.items]:
        return None
    out: List[float] = []
    for (_, a), (_, b) in zip(narrow.items, wide.items):
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.shape == b.shape \
                and a.is_floating_point() and b.is_floating_point():
            out.append(float((a.double() - b).abs().max()) if a.numel() else 0.0)
        elif isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            if a.shape != b.shape or a.dtype != b.dtype or not torch.equal(a, b):
                return None
            out.append(0.0)
        elif a != b:
            return None
        else:
            out.append(0.0)
    return out


def fired_at(outcome: Outcome) -> Counter:
    """The candidates that fired: rule, graph and node, with their count."""
    return Counter((c.rule, c.graph, c.node) for c in outcome.candidates if c.fired)


def fresh_compiler_state() -> None:
    """Forget what earlier compiles in this process left behind, so that a program's verdict does
    not depend on the programs (or backends) run before it: Dynamo's caches, and the fake-tensor
    dispatch cache, which is global and survives ``torch._dynamo.reset()`` (with it warm from a
    stock compile of the same program, a rewritten ``cond`` that crashes in a fresh process
    compiles fine)."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    torch._dynamo.reset()
    FakeTensorMode.cache_clear()


def judge(name: str, run: Run, reference: Run, exact: bool, tolerance: float = FLOAT_TOLERANCE) -> Outcome:
    if run.error is not None:
        status = "unsupported" if cannot_compile(run.error) else "crash"
        return Outcome(name, status, detail=first_line(run.error), error_type=type(innermost(run.error)).__name__,
                       call=run.failed_call + 1)
    for call, (want, got) in enumerate(zip(reference.snapshots, run.snapshots), 1):
        problems = compare(want, got, exact=exact, rtol=tolerance, atol=tolerance)
        if problems:
            return Outcome(name, "wrong", detail="; ".join(problems)[:600], call=call)
    return Outcome(name, "ok")


def cannot_compile(error: BaseException) -> bool:
    """Dynamo refused to trace the program (a graph break under ``fullgraph=True``, an
    unsupported higher-order op use...), as opposed to a backend or the compiled code failing."""
    from torch._dynamo import exc

    if isinstance(error, (exc.BackendCompilerFailed, exc.InternalTorchDynamoError)):
        return False
    return isinstance(error, (exc.Unsupported, exc.UserError, exc.UncapturedHigherOrderOpError,
                              exc.CondOpArgsMismatchError, exc.TorchRuntimeError))


def innermost(error: BaseException) -> BaseException:
    """A backend's own exception inside Dynamo's ``BackendCompilerFailed``."""
    from torch._dynamo import exc

    if isinstance(error, exc.BackendCompilerFailed) and getattr(error, "inner_exception", None) is not None:
        return error.inner_exception
    return error


def first_line(error: BaseException) -> str:
    inner = innermost(error)
    lines = [line for line in str(inner).strip().splitlines() if line.strip()]
    return lines[0][:400] if lines else type(inner).__name__


@dataclass
class Verdict:
    """Every backend run for one program, and its class on each base."""

    outcomes: Dict[str, Outcome] = field(default_factory=dict)
    classes: Dict[str, str] = field(default_factory=dict)     # base -> class (rewrite.fuzz.oracle)

    @property
    def cls(self) -> str:
        return overall(self.classes.values())

    def failing_base(self) -> Optional[str]:
        """The base whose class gives the program's class (eager first)."""
        for base, c in self.classes.items():
            if c == self.cls:
                return base
        return None


def evaluate(program: Program, reference: Run, bases: Sequence[str], factory: BackendFactory,
             aot_eager: bool = False) -> Verdict:
    """Run ``program`` on each base: the rewrite backend, then the backend it is judged against.
    On the eager base the rules-free pipeline only runs when rewrite is wrong (to tell a wrong
    rule from a wrong pipeline); stock Inductor always runs, so its own wrong results are listed.
    Where rewrite or its judge is wrong, torch's ``aot_eager`` runs too (always with
    ``aot_eager``): a rewrite failure is ours where it or stock Inductor is right.  A program
    Dynamo cannot trace is skipped on every base at the first sign."""
    verdict = Verdict()
    for base in bases:
        ours, judge_with = BASE_BACKENDS[base]
        rw = verdict.outcomes[ours] = run_backend(program, ours, reference, factory)
        if base != "eager" or rw.status != "ok" or rw.fallback:
            verdict.outcomes[judge_with] = run_backend(program, judge_with, reference, factory)
        if classify(verdict.outcomes, base) == "skipped":
            verdict.classes = {other: "skipped" for other in bases}
            return verdict
    if "aot_eager" not in verdict.outcomes and (aot_eager or any(o.bad for o in verdict.outcomes.values())):
        verdict.outcomes["aot_eager"] = run_backend(program, "aot_eager", reference, factory)
    verdict.classes = {base: classify(verdict.outcomes, base) for base in bases}
    return verdict


# -- who is wrong ------------------------------------------------------------
CLASSES = ("ours", "both", "stock", "ok", "skipped")   # worst first
#: base -> (the rewrite backend, the backend it is judged against); the backends are described
#: in the module docstring
BASE_BACKENDS = {"eager": ("rewrite-eager", "pipeline-eager"), "inductor": ("rewrite-inductor", "inductor")}
#: torch's reference pipeline: where it is right, a wrong rewrite is ours whatever the judge did
#: (on the Inductor base the judge is stock Inductor, the other reference)
REFERENCES = ("aot_eager",)


def references(base: str) -> tuple:
    """The backends a rewrite failure on ``base`` is compared with: its judge, then torch's
    reference pipeline.  (Stock Inductor is no reference for the eager base: it compiles code
    where the eager base runs the graph as it is, and a graph of symbolic sizes that no eager
    run can execute is a limit of running graphs eagerly, which aot_eager shares.)"""
    return (BASE_BACKENDS[base][1],) + REFERENCES


def classify(outcomes: Mapping[str, object], base: str) -> str:
    """The class on ``base`` from ``outcomes`` (backend name -> :class:`Outcome`,
    those that ran: the judge does not run on the eager base when rewrite matched eager without
    falling back, the references only when some backend failed).  A rewrite that ran right only
    because its compile failed and the graph fell back to torch's reference is ours where the judge
    compiled the program itself, and stock where the judge failed or fell back too.  A reference
    that is right only because its own compile failed and it ran eagerly is not right: torch's
    pipeline could not compile the program (its eager run is the reference itself)."""
    rewrite = outcomes[BASE_BACKENDS[base][0]]
    judge = outcomes.get(BASE_BACKENDS[base][1])
    compared = [outcomes[name] for name in references(base) if name in outcomes]
    if rewrite.status == "unsupported" and all(o.status == "unsupported" for o in compared):
        return "skipped"
    if rewrite.status != "ok":                           # a lone "cannot compile" is a crash of ours
        right = any(o.status == "ok" and not o.fallback for o in compared)
        return "ours" if right or not compared else "both"
    if judge is not None and (judge.status != "ok" or judge.fallback):
        return "stock"
    if rewrite.fallback:        # right through the fallback, but our compile failed where the judge's did not
        return "ours"
    return "ok"


def overall(classes: Iterable[str]) -> str:
    """The program's class over several bases: the worst one (``ours`` > ``both`` > ``stock`` >
    ``ok`` > ``skipped``)."""
    seen = list(classes)
    for c in CLASSES:
        if c in seen:
            return c
    return "skipped"


def same_failure(verdict, base: str, want_class: str, want) -> bool:
    """Does ``verdict`` show the failure ``want`` (a verdict) showed on ``base``: same class, same
    kind of outcome (wrong / crash, and the same exception type) for each backend that failed?
    The minimizer keeps a smaller program only while this holds."""
    if verdict.classes.get(base) != want_class:
        return False
    for name in BASE_BACKENDS[base]:
        old = want.outcomes.get(name)
        if old is None or not old.bad:
            continue
        new = verdict.outcomes.get(name)
        if new is None or new.status != old.status or (old.status == "crash" and new.error_type != old.error_type):
            return False
    return True
