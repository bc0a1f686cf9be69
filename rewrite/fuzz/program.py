"""A generated program as data: the statements of ``fn``, the construction of its inputs, its
autograd mode and shape dynamism.  It renders to Python source (the text that is run, printed,
minimized and written out as a corpus case) and supports the edits the minimizer makes: dropping
a statement together with everything that reads what it defines, a returned value, an input.

:func:`minimize` shrinks a failing program while it keeps failing the same way (greedy delta
debugging).  The reductions are :meth:`Program.reductions` (drop a statement with everything that
depends on it, a nested statement, a returned value, an unused input or setup line; make it
static).  The first reduction that still fails is taken and the search starts over, until no
reduction fails (the result is 1-minimal for these reductions) or the budget of evaluations is
spent.  Programs already tried are remembered by source, and the predicate is deterministic, so
the result depends only on the program and the budget.
"""
from __future__ import annotations

import dataclasses
import re
import time
from dataclasses import dataclass, field
from typing import Callable, FrozenSet, Iterator, List, Optional, Sequence, Tuple

_NESTED = re.compile(r"^(\s*)\{(\d+)\}$")
INDENT = "    "


@dataclass(frozen=True)
class Stmt:
    """One statement of ``fn`` (a control-flow statement spans several lines and holds nested
    statement lists: a line ``{k}`` in ``lines`` stands for the statements of ``bodies[k]``)."""

    kind: str                                   # generator choice that made it, e.g. "mutate"
    lines: Tuple[str, ...]
    defines: Tuple[Tuple[str, str], ...] = ()   # (name, role) bound in fn's scope
    uses: FrozenSet[str] = frozenset()          # names of fn's scope it reads (own lines only)
    functional: Optional[Tuple[str, ...]] = None  # the same with every operand a write reads cloned first
    bodies: Tuple[Tuple["Stmt", ...], ...] = ()
    knobs: Tuple[str, ...] = ()                 # every generator choice behind it (coverage steering)
    inexact: bool = False                       # float results may differ in the last bits (transcendentals)

    @property
    def names(self) -> Tuple[str, ...]:
        return tuple(name for name, _ in self.defines)

    def all_uses(self) -> FrozenSet[str]:
        out = set(self.uses)
        for body in self.bodies:
            for s in body:
                out |= s.all_uses()
        return frozenset(out)

    def all_knobs(self) -> Tuple[str, ...]:
        out = list(self.knobs)
        for body in self.bodies:
            for s in body:
                out += s.all_knobs()
        return tuple(out)

    def any_inexact(self) -> bool:
        return self.inexact or any(s.any_inexact() for body in self.bodies for s in body)

    def count(self) -> int:
        """Statements, nested ones included."""
        return 1 + sum(s.count() for body in self.bodies for s in body)

    def render(self, functional: bool = False) -> List[str]:
        out: List[str] = []
        own = self.functional if functional and self.functional is not None else self.lines
        for line in own:
            m = _NESTED.match(line)
            if m is None:
                out.append(line)
                continue
            indent, k = m.group(1), int(m.group(2))
            for s in self.bodies[k]:
                out += [indent + sub for sub in s.render(functional)]
        return out


@dataclass(frozen=True)
class Param:
    name: str
    expr: str          # its value in ``inputs()``
    role: str          # "data", "grad" (leaf that requires grad), "index"


@dataclass(frozen=True)
class OpDef:
    """A custom op the program defines at module level (:mod:`rewrite.fuzz.custom_ops`)."""

    name: str                  # what fn calls it by: "op1"
    qualname: str              # its registered name: "fuzz::p3_op1_4c2344ba"
    kernel: str                # the template it was made from (knob "op_kernel:<kernel>")
    lines: Tuple[str, ...]     # its definition


@dataclass(frozen=True)
class Program:
    seed: int
    index: int
    mode: str                          # "inference" or "training"
    dynamic: bool
    setup: Tuple[str, ...]             # statements of inputs() before its return (shared bases)
    params: Tuple[Param, ...]
    body: Tuple[Stmt, ...]
    returns: Tuple[str, ...]
    input_knobs: Tuple[str, ...] = ()  # generator choices behind the inputs
    ops: Tuple[OpDef, ...] = ()        # custom ops it may call (only those fn calls are defined)
    auto_functionalized: Optional[str] = None   # "v1"/"v2": compiled under that version (custom-op programs)

    # ------------------------------------------------------------------ queries

    @property
    def exact(self) -> bool:
        """Float values are integers (or halves) and only added/multiplied: compare exactly."""
        return not any(s.any_inexact() for s in self.body)

    @property
    def knobs(self) -> Tuple[str, ...]:
        out = list(self.input_knobs) + [f"mode:{self.mode}", f"dynamic:{self.dynamic}"]
        for s in self.body:
            out += s.all_knobs()
        return tuple(out)

    @property
    def size(self) -> int:
        return sum(s.count() for s in self.body)

    def label(self) -> str:
        return f"seed {self.seed} program {self.index}"

    def used_ops(self) -> List[OpDef]:
        """The custom ops ``fn`` calls (what a dropped statement called goes with it)."""
        called = _identifiers("\n".join(self.fn_lines()))
        return [op for op in self.ops if op.name in called]

    # ------------------------------------------------------------------ source

    def fn_lines(self, functional: bool = False) -> List[str]:
        out = [f"def fn({', '.join(p.name for p in self.params)}):"]
        for s in self.body:
            out += [INDENT + line for line in s.render(functional)]
        if not self.returns:
            out.append(INDENT + "return None")
        elif len(self.returns) == 1:
            out.append(INDENT + f"return {self.returns[0]}")
        else:
            out.append(INDENT + f"return {', '.join(self.returns)}")
        return out

    def inputs_lines(self) -> List[str]:
        out = ["def inputs():"]
        out += [INDENT + line for line in self.setup]
        exprs = [p.expr for p in self.params]
        out.append(INDENT + "return " + (f"({exprs[0]},)" if len(exprs) == 1 else ", ".join(exprs)))
        return out

    def op_lines(self) -> List[str]:
        """The definitions of the custom ops ``fn`` calls, each followed by two blank lines."""
        out: List[str] = []
        for op in self.used_ops():
            out += list(op.lines) + ["", ""]
        return out

    def source(self, functional: bool = False, wide: bool = False) -> str:
        """The program as a module: its custom ops, ``fn`` and ``inputs``.  ``wide``: the same
        program in float64 (run it with float64 as the default dtype, for the literals that name
        none): :func:`widened`."""
        text = "\n".join(["import torch", "", ""] + self.op_lines() + self.fn_lines(functional) + ["", ""]
                          + self.inputs_lines()) + "\n"
        return widened(text) if wide else text

    # ------------------------------------------------------------------ edits (minimizer)

    def reductions(self) -> Iterator[Tuple[str, "Program"]]:
        """Smaller variants, each with a description, most promising first: drop a statement
        (with its dependents), a nested statement, a returned value, an unused input, an unused
        setup line; make a dynamic program static."""
        for i in reversed(range(len(self.body))):
            yield f"drop statement {i + 1}", self.without_statement(i)
        for i, s in enumerate(self.body):
            for path, inner in _nested_paths(s):
                yield f"drop nested statement in statement {i + 1}", self._replace_stmt(i, _drop_nested(s, path))
        for k in range(len(self.returns)):
            yield f"drop returned {self.returns[k]}", dataclasses.replace(
                self, returns=self.returns[:k] + self.returns[k + 1:])
        used = set(self.returns)
        for s in self.body:
            used |= s.all_uses()
        for k, p in enumerate(self.params):
            if p.name not in used:
                yield f"drop input {p.name}", dataclasses.replace(self, params=self.params[:k] + self.params[k + 1:])
        for k, line in enumerate(self.setup):
            name = line.split("=", 1)[0].strip()
            if not any(re.search(rf"\b{re.escape(name)}\b", p.expr) for p in self.params) and not any(
                    re.search(rf"\b{re.escape(name)}\b", other) for j, other in enumerate(self.setup) if j != k):
                yield f"drop setup line {k + 1}", dataclasses.replace(self, setup=self.setup[:k] + self.setup[k + 1:])
        if self.dynamic:
            yield "make static", dataclasses.replace(self, dynamic=False)

    def without_statement(self, i: int) -> "Program":
        """Drop statement ``i`` and, transitively, every later statement and returned value that
        reads a name it defines."""
        gone = set(self.body[i].names)
        body: List[Stmt] = list(self.body[:i])
        for s in self.body[i + 1:]:
            if s.all_uses() & gone:
                gone |= set(s.names)
            else:
                body.append(s)
        returns = tuple(r for r in self.returns if not (_identifiers(r) & gone))
        return dataclasses.replace(self, body=tuple(body), returns=returns)

    def _replace_stmt(self, i: int, stmt: Stmt) -> "Program":
        return dataclasses.replace(self, body=self.body[:i] + (stmt,) + self.body[i + 1:])


def _identifiers(text: str) -> set:
    return set(re.findall(r"[A-Za-z_]\w*", text))


def _nested_paths(s: Stmt, prefix: Tuple[int, ...] = ()) -> Iterator[Tuple[Tuple[int, ...], Stmt]]:
    """(path, statement) of every nested statement, deepest last; a path alternates body index
    and statement index."""
    for k, body in enumerate(s.bodies):
        for j in reversed(range(len(body))):
            path = prefix + (k, j)
            yield path, body[j]
            yield from _nested_paths(body[j], path)


def _drop_nested(s: Stmt, path: Sequence[int]) -> Stmt:
    k, j = path[0], path[1]
    body = list(s.bodies[k])
    if len(path) == 2:
        del body[j]
    else:
        body[j] = _drop_nested(body[j], path[2:])
    bodies = s.bodies[:k] + (tuple(body),) + s.bodies[k + 1:]
    return dataclasses.replace(s, bodies=bodies)


# --------------------------------------------------------------------------- minimizing

DEFAULT_EVALUATIONS = 40


@dataclass
class Shrunk:
    program: Program
    evaluations: int = 0
    steps: List[str] = field(default_factory=list)   # the reductions taken, in order
    complete: bool = True                             # False: the budget ran out first


def minimize(program: Program, still_fails: Callable[[Program], bool],
             max_evaluations: int = DEFAULT_EVALUATIONS, max_seconds: Optional[float] = None) -> Shrunk:
    """The smallest variant of ``program`` found for which ``still_fails`` holds (``program``
    itself is assumed to fail)."""
    start = time.perf_counter()
    result = Shrunk(program)
    tried = {_key(program)}
    improved = True
    while improved:
        improved = False
        for description, candidate in result.program.reductions():
            key = _key(candidate)
            if key in tried:
                continue
            if result.evaluations >= max_evaluations or (
                    max_seconds is not None and time.perf_counter() - start > max_seconds):
                result.complete = False
                return result
            tried.add(key)
            result.evaluations += 1
            if still_fails(candidate):
                result.program = candidate
                result.steps.append(description)
                improved = True
                break
    return result


def _key(program: Program) -> str:
    return (f"{program.source()}\n# mode={program.mode} dynamic={program.dynamic} "
            f"auto_functionalized={program.auto_functionalized}")


#: float32 -> float64 in a program's text: its float dtypes, and the integer dtype its float tensors
#: are viewed as (``rewrite.fuzz.builder.DTYPE_VIEWS``: the same element size).
WIDENINGS = ((".float()", ".double()"), ("torch.float32", "torch.float64"),
             (".view(torch.int32)", ".view(torch.int64)"))


def widened(source: str) -> str:
    for narrow, wide in WIDENINGS:
        source = source.replace(narrow, wide)
    return source
