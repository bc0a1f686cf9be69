"""Corpus case files: static parsing of the settings and the ``EXPECT`` block.

A case is a small Python file (see ``docs/corpus.md``)::

    EXPECT = '''
    fires: reinplace_update_into_input
    absent: aten.slice_scatter
    matches_eager
    '''
    MODE = "inference"      # or "training"
    CALLS = 3
    DYNAMIC = False

    def fn(x, d): ...
    def inputs(): return (torch.randn(8), torch.randn(6))

The settings are read with :mod:`ast` without running the file, so a malformed case is reported
with its file and line before anything is compiled, and collectors can decide what to do with a
case (e.g. also run it through Inductor) without importing torch.
"""
from __future__ import annotations

import ast
import difflib
import importlib.util
import itertools
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from rewrite.testing.expect import Expectation, ExpectationError, parse_expect_line

MODES = ("inference", "training")
SETTINGS = {"EXPECT": str, "MODE": str, "CALLS": int, "DYNAMIC": bool, "AUTO_FUNCTIONALIZED": str}
AUTO_FUNCTIONALIZED = ("v1", "v2")   # rewrite.testing.execute.auto_functionalized
DEFAULTS = {"MODE": "inference", "CALLS": 3, "DYNAMIC": False}
MIN_CALLS = 3


class CaseFormatError(ValueError):
    """A case file does not follow the corpus format.  ``str()`` is ``file:line: message``."""

    def __init__(self, path, line: int, message: str):
        self.path = str(path)
        self.line = line
        self.message = message
        super().__init__(f"{self.path}:{line}: {message}")


@dataclass
class Case:
    path: Path
    case_id: str                      # "<rule-file-stem>/<case>" (directory/file stem)
    expectations: List[Expectation]
    mode: str = "inference"
    calls: int = 3
    dynamic: object = False           # True, False or "both" (every expectation holds in each)
    doc: str = ""
    function: str = "fn"
    inputs_function: str = "inputs"
    has_reference: bool = False
    auto_functionalized: Optional[str] = None   # "v1"/"v2": compiled under that version; None: torch's

    # ------------------------------------------------------------------ queries on expectations

    def of_kind(self, *kinds: str, base: Optional[str] = None) -> List[Expectation]:
        """The expectations of ``kinds``; with ``base``, those that hold on that base."""
        return [e for e in self.expectations if e.kind in kinds and (base is None or e.base in (None, base))]

    def on_base(self, base: str) -> List[Expectation]:
        """Every expectation that holds on ``base``."""
        return [e for e in self.expectations if e.base in (None, base)]

    def has(self, kind: str) -> bool:
        return any(e.kind == kind for e in self.expectations)

    @property
    def dynamic_modes(self) -> List[bool]:
        """The ``dynamic=`` values the case is compiled with, one run each."""
        return [False, True] if self.dynamic == "both" else [bool(self.dynamic)]

    @property
    def inductor(self) -> bool:
        """Also run end to end through Inductor (pytest ``inductor`` marker)."""
        return self.has("inductor")

    @property
    def slow(self) -> bool:
        return self.has("slow") or self.inductor

    @property
    def rules(self) -> List[str]:
        """The rule names the expectations talk about, in order of first mention."""
        seen: Dict[str, None] = {}
        for e in self.of_kind("fires", "rejects", "not_fires"):
            seen.setdefault(e.subject, None)
        return list(seen)

    @property
    def stem(self) -> str:
        """The rule file this case exercises (its directory name)."""
        return self.path.parent.name

    def describe_expected(self) -> str:
        return "; ".join(e.short() for e in self.of_kind("fires", "rejects", "not_fires")) or "-"

    # ------------------------------------------------------------------ loading the code

    def load(self) -> Tuple[Callable, Callable, Optional[Callable]]:
        """Execute the file and return ``(fn, inputs, reference_or_None)``."""
        module = load_module(self.path)
        fn = getattr(module, self.function)
        make_inputs = getattr(module, self.inputs_function)
        reference = getattr(module, "reference", None) if self.has_reference else None
        return fn, make_inputs, reference


_module_counter = itertools.count()


def load_module(path: Path):
    """Import a file under a fresh module name (a case may be loaded several times per process;
    every load gets new code objects so Dynamo's caches never mix two runs)."""
    path = Path(path)
    name = f"_rewrite_case_{re.sub(r'[^0-9A-Za-z_]', '_', path.stem)}_{next(_module_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise CaseFormatError(path, 1, "cannot be imported as a Python file")
    module = importlib.util.module_from_spec(spec)
    # Registered like an imported module: Dynamo looks a function's module up by name (eager
    # torch.cond/while_loop compile their functions), and fails on one sys.modules lacks.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def case_id_for(path: Path) -> str:
    path = Path(path)
    return f"{path.parent.name}/{path.stem}"


def parse_case(path, source: Optional[str] = None) -> Case:
    """Read a case file's settings and expectations without running it."""
    path = Path(path)
    if source is None:
        source = path.read_text()
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as exc:
        raise CaseFormatError(path, exc.lineno or 1, f"not valid Python: {exc.msg}") from None

    values: Dict[str, Any] = {}
    lines: Dict[str, int] = {}
    functions: Dict[str, int] = {}                 # top-level functions and other top-level names
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions[node.name] = node.lineno
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    functions.setdefault(target.id, node.lineno)   # `fn = composed` names a function too
                    _read_setting(path, target.id, node.value, node.lineno, values, lines)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            _read_setting(path, node.target.id, node.value, node.lineno, values, lines)

    if "EXPECT" not in values:
        raise CaseFormatError(path, 1, "no EXPECT = \"\"\"...\"\"\" block (see docs/corpus.md)")
    for required in ("fn", "inputs"):
        if required not in functions:
            raise CaseFormatError(path, 1, f"no top-level function `{required}` (a case defines "
                                           f"`fn(...)` and `inputs()` returning fresh inputs)")

    mode = values.get("MODE", DEFAULTS["MODE"])
    if mode not in MODES:
        raise CaseFormatError(path, lines["MODE"], f"MODE must be one of {', '.join(map(repr, MODES))}, not {mode!r}")
    calls = values.get("CALLS", DEFAULTS["CALLS"])
    version = values.get("AUTO_FUNCTIONALIZED")
    if version is not None and version not in AUTO_FUNCTIONALIZED:
        raise CaseFormatError(path, lines["AUTO_FUNCTIONALIZED"], f"AUTO_FUNCTIONALIZED must be one of "
                                                                  f"{', '.join(map(repr, AUTO_FUNCTIONALIZED))}, not {version!r}")
    if calls < MIN_CALLS:
        raise CaseFormatError(path, lines["CALLS"], f"CALLS must be at least {MIN_CALLS}, not {calls} (state a "
                                                    f"compiled program carries across calls shows from the third)")

    expectations = _parse_expect_block(path, values["EXPECT"], lines["EXPECT"], source)
    kinds = {e.kind for e in expectations}
    if not kinds & {"matches_eager", "eager_raises", "compile_raises"}:
        raise CaseFormatError(path, lines["EXPECT"], "every case must say `matches_eager` (or "
                                                     "`eager_raises: Error` when eager cannot run it, or "
                                                     "`compile_raises: Error` when the compiler must refuse it)")
    if "inductor" not in kinds and any(e.base == "inductor" for e in expectations):
        raise CaseFormatError(path, lines["EXPECT"], "a line ends `on inductor`, but the case does not run on "
                                                     "Inductor: add the `inductor` line, or the line would never "
                                                     "be checked")
    if {"matches_eager", "compile_raises"} <= kinds:
        raise CaseFormatError(path, lines["EXPECT"], "`compile_raises` and `matches_eager` exclude each other")
    if "reference" in functions and "matches_eager" not in kinds:
        raise CaseFormatError(path, functions["reference"],
                              "`reference` is only used by `matches_eager`, which EXPECT lacks")
    return Case(path=path, case_id=case_id_for(path), expectations=expectations, mode=mode,
                calls=calls, dynamic=values.get("DYNAMIC", DEFAULTS["DYNAMIC"]), auto_functionalized=version,
                doc=ast.get_docstring(tree) or "", has_reference="reference" in functions)


def _read_setting(path, name, value_node, lineno, values, lines):
    if name in SETTINGS:
        try:
            value = ast.literal_eval(value_node)
        except ValueError:
            raise CaseFormatError(path, lineno, f"{name} must be a literal {SETTINGS[name].__name__}") from None
        expected = SETTINGS[name]
        if name == "DYNAMIC" and value == "both":
            pass
        elif type(value) is not expected:
            raise CaseFormatError(path, lineno, f"{name} must be a {expected.__name__}, "
                                                f"not {type(value).__name__} {value!r}")
        values[name] = value
        lines[name] = lineno
    elif name.isupper():
        close = difflib.get_close_matches(name, SETTINGS, n=1, cutoff=0.75)
        if close:
            raise CaseFormatError(path, lineno, f"unknown setting {name} (did you mean {close[0]}?)")


def _parse_expect_block(path, text: str, assign_line: int, source: str) -> List[Expectation]:
    # The string starts on the assignment's line (right after the opening quotes), so line k of
    # the text is line assign_line + k of the file.
    first = assign_line
    out: List[Expectation] = []
    for offset, raw in enumerate(text.splitlines()):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            out.append(parse_expect_line(line))
        except ExpectationError as exc:
            raise CaseFormatError(path, first + offset, f"EXPECT: {exc}") from None
    if not out:
        raise CaseFormatError(path, assign_line, "EXPECT is empty")
    return out


def discover(paths: List[Path], root: Optional[Path] = None) -> List[Path]:
    """Case files under the given files/directories, sorted.  Files whose name starts with ``_``
    (helpers) are skipped."""
    found: List[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found += [f for f in sorted(p.rglob("*.py")) if is_case_file(f)]
        elif p.is_file():
            found.append(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or directory")
    seen = set()
    return [f for f in found if not (f.resolve() in seen or seen.add(f.resolve()))]


def is_case_file(path: Path) -> bool:
    path = Path(path)
    return (path.suffix == ".py" and not path.name.startswith("_") and not path.name.startswith("test_")
            and "__pycache__" not in path.parts)
