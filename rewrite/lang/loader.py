"""Loading rule files: the API the engine uses.

``load(paths)`` reads files and folders (a folder means its ``*.rules`` files, sorted), follows
``include``s relative to the including file, parses, checks everything together, and returns
:class:`LoadedRules` with op names resolved to torch objects.  Any error raises
:class:`RulesError` carrying every diagnostic; loading never executes anything from the files.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple, Union

from rewrite.lang import ast as A
from rewrite.lang.checker import CheckResult, check
from rewrite.lang.diagnostics import Diagnostic, RulesError, error, sort_diagnostics
from rewrite.lang.ops import OPS, OpLookupError
from rewrite.lang.parser import parse_with_diagnostics
from rewrite.vocab import Registry

PathLike = Union[str, os.PathLike]


def shipped_rules_dir() -> Path:
    """The folder of rule files shipped with the package: ``rules/`` of the source checkout this
    module lives in (so that a worktree uses its own rules), else the installed package data."""
    checkout = Path(__file__).resolve().parents[2] / "rules"
    if (checkout / "reinplace.rules").is_file():
        return checkout
    try:
        from importlib.resources import files

        folder = files("rewrite._rules")
        if isinstance(folder, Path) or hasattr(folder, "__fspath__"):
            path = Path(os.fspath(folder))
            if path.is_dir():
                return path
    except (ModuleNotFoundError, TypeError):
        pass
    return checkout


@dataclass
class LoadedRules:
    modules: List[A.Module]
    rules: List[A.Rule]
    dependencies: List[A.Dependency]
    opsets: Dict[str, Tuple[object, ...]]
    facts: Dict[str, Dict[str, FrozenSet[object]]]
    warnings: List[Diagnostic]
    sources: Dict[str, str]
    digest: str
    stages: Dict[int, Tuple[str, ...]]       # id(rule or dependency) -> the stages it runs in
    builds: Dict[int, object]                # id(A.Build) -> the op overload it calls

    def stages_of(self, item) -> Tuple[str, ...]:
        return self.stages[id(item)]

    def build_target(self, build: A.Build):
        return self.builds[id(build)]

    def resolve(self, callee: Union[str, A.Callee]) -> Tuple[object, ...]:
        """Targets an opset name or op name (``aten.add.Tensor``) stands for.  KeyError if neither."""
        dotted = callee.dotted if isinstance(callee, A.Callee) else callee
        if dotted in self.opsets:
            return self.opsets[dotted]
        try:
            return (OPS.resolve(dotted.split(".")).target,)
        except OpLookupError as exc:
            raise KeyError(dotted) from exc


def expand(paths: Iterable[PathLike]) -> Tuple[List[str], List[Diagnostic]]:
    """Files named directly, and the sorted ``*.rules`` of each folder."""
    files: List[str] = []
    diags: List[Diagnostic] = []
    for p in paths:
        p = os.fspath(p)
        if os.path.isdir(p):
            files.extend(os.path.join(p, name) for name in sorted(os.listdir(p)) if name.endswith(".rules"))
        elif os.path.isfile(p):
            files.append(p)
        else:
            diags.append(error("no such file or folder", None, path=p))
    return files, diags


class _Reader:
    """Reads and parses files depth-first through includes, each file once."""

    def __init__(self):
        self.modules: List[A.Module] = []
        self.sources: Dict[str, str] = {}
        self.diagnostics: List[Diagnostic] = []
        self._done: Dict[str, str] = {}  # real path -> display path
        self._stack: List[str] = []

    def read(self, path: str, include: Optional[A.Include] = None) -> None:
        real = os.path.realpath(path)
        if real in self._stack:
            cycle = [os.path.basename(p) for p in self._stack[self._stack.index(real):]] + [os.path.basename(real)]
            self.diagnostics.append(error(f"include cycle: {' -> '.join(cycle)}", include.span if include else None,
                                          path=path))
            return
        if real in self._done:
            return
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = "not valid UTF-8" if isinstance(exc, UnicodeDecodeError) else (exc.strerror or str(exc))
            if include is not None:
                self.diagnostics.append(error(f"cannot read included file '{include.path}': {reason}",
                                              include.span))
            else:
                self.diagnostics.append(error(f"cannot read file: {reason}", None, path=path))
            return
        self._done[real] = path
        self.sources[path] = text
        module, diags = parse_with_diagnostics(text, path)
        self.diagnostics.extend(diags)
        self._stack.append(real)
        for item in module.items:
            if isinstance(item, A.Include):
                target = os.path.normpath(os.path.join(os.path.dirname(path), item.path))
                self.read(target, item)
        self._stack.pop()
        self.modules.append(module)


@dataclass
class Collected:
    """Everything read and checked, errors included: what ``rewrite check`` reports from."""

    modules: List[A.Module]
    sources: Dict[str, str]
    diagnostics: List[Diagnostic]
    check: CheckResult

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]


def collect(paths: Union[PathLike, Sequence[PathLike]], registry: Optional[Registry] = None) -> Collected:
    """Read, parse and check without raising."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files, diags = expand(paths)
    reader = _Reader()
    for f in files:
        reader.read(f)
    result = check(reader.modules, registry)
    diags = sort_diagnostics(diags + reader.diagnostics + result.diagnostics)
    return Collected(reader.modules, reader.sources, diags, result)


def load(paths: Union[PathLike, Sequence[PathLike]], registry: Optional[Registry] = None) -> LoadedRules:
    """Load, check and resolve rule files; raises :class:`RulesError` on any error."""
    got = collect(paths, registry)
    if got.errors:
        raise RulesError(got.diagnostics, got.sources)
    items = [item for m in got.modules for item in m.items]
    return LoadedRules(
        modules=got.modules,
        rules=[i for i in items if isinstance(i, A.Rule)],
        dependencies=[i for i in items if isinstance(i, A.Dependency)],
        opsets={name: tuple(op.target for op in ops) for name, ops in got.check.opsets.items()},
        facts={table: {key: frozenset(op.target for op in ops) for key, ops in groups.items()}
               for table, groups in got.check.facts.items()},
        warnings=[d for d in got.diagnostics if not d.is_error],
        sources=got.sources,
        digest=digest(got.sources),
        stages=dict(got.check.stages),
        builds={k: op.target for k, op in got.check.builds.items()},
    )


def digest(sources: Dict[str, str]) -> str:
    """sha256 over the sources sorted by path; the file contents only, so where the files live
    does not change it."""
    h = hashlib.sha256()
    for path in sorted(sources):
        data = sources[path].encode("utf-8")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()
