"""Loading rule files: the API the engine uses.

``load(paths)`` reads files and folders (a folder means its ``*.rules`` files, sorted), follows
``include``s relative to the including file, parses, checks everything together, and returns
:class:`LoadedRules` with op names resolved to torch objects.  Any problem with the files or paths
raises :class:`RulesError` carrying every diagnostic, and nothing else is raised for them; loading
never executes anything from the files.

Rule files are untrusted input.  An include may only name a ``.rules`` file under the including
file's folder or under a rule root (the folders of the files given to ``load``/``collect``,
``roots=[...]`` and the shipped rules folder), after resolving symbolic links; files are read only
if they are regular files within the size caps (:func:`read_rules_text`: checked before a file is
opened for reading, and opened so that nothing can block), and a file refused before it was parsed
is never quoted in a diagnostic.  The bounds are listed in docs/language.md, "Limits".
"""
from __future__ import annotations

import gc
import hashlib
import os
import stat
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple, Union

from rewrite.lang import ast as A
from rewrite.lang.checker import CheckResult, check
from rewrite.lang.diagnostics import Diagnostic, RulesError, error, sort_diagnostics
from rewrite.lang.ops import OPS, OpLookupError
from rewrite.lang.parser import parse_with_diagnostics, quoted, strip_bom
from rewrite.vocab import Registry

PathLike = Union[str, os.PathLike]

# Bounds on what one load reads (docs/language.md, "Limits", says why).
MAX_FILE_BYTES = 2 ** 20            # one rule file: 1 MiB
MAX_TOTAL_BYTES = 64 * 2 ** 20      # all files of one load, includes included
MAX_FILES = 1000                    # files of one load, includes included
MAX_INCLUDE_DEPTH = 32              # include chain length


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
        try:
            p = os.fspath(p)
        except TypeError:
            diags.append(error(f"not a path: {repr(p)[:60]}", None, path="<arguments>"))
            continue
        if isinstance(p, bytes):
            p = os.fsdecode(p)
        if "\0" in p:
            diags.append(error("the path contains a NUL character", None, path=quoted(p)))
        elif os.path.isdir(p):
            try:
                names = sorted(os.listdir(p))
            except OSError as exc:
                diags.append(error(f"cannot list folder: {exc.strerror or exc}", None, path=p))
                continue
            files.extend(os.path.join(p, name) for name in names if name.endswith(".rules"))
        elif os.path.lexists(p):
            files.append(p)
        else:
            diags.append(error("no such file or folder", None, path=p))
    return files, diags


# --------------------------------------------------------------------------- reading one file


class SourceError(Exception):
    """A file that cannot be used as a rule file.  ``position`` is the (line, col) of the problem
    inside the file, when there is one (invalid UTF-8); ``whole_file``: the problem is the file as
    a whole (its size), so a diagnostic points at its start."""

    def __init__(self, reason: str, position: Optional[Tuple[int, int]] = None, hint: Optional[str] = None,
                 whole_file: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.position = position
        self.hint = hint
        self.whole_file = whole_file

    @property
    def located(self) -> Optional[Tuple[int, int]]:
        """Where a diagnostic about the file itself points: the problem's position, the file's
        start for a problem with the whole file, else nowhere in it."""
        return self.position or ((1, 1) if self.whole_file else None)


def _too_large(size: int, limit: int) -> SourceError:
    shown = f"{limit // 2 ** 20} MiB ({limit} bytes)" if limit % 2 ** 20 == 0 else f"{limit} bytes"
    return SourceError(f"file too large ({size} bytes; the limit is {limit})", whole_file=True,
                       hint=f"a rule file may be at most {shown}; rule files are a few KiB, so this one is "
                            f"generated or not a rule file: split it into files that include each other")


_NOT_REGULAR = "rule files must be regular files"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_rules_text(path: str, limit: int) -> str:
    """The text of the rule file at ``path`` (at most ``limit`` bytes), without a byte order mark."""
    if "\0" in path:
        raise SourceError("the path contains a NUL character")
    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:
        raise SourceError(getattr(exc, "strerror", None) or str(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise SourceError(f"not a regular file ({_kind(info.st_mode)})", hint=_NOT_REGULAR)
    if info.st_size > limit:
        raise _too_large(info.st_size, limit)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise SourceError(exc.strerror or str(exc)) from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):  # replaced between the stat and the open
            raise SourceError(f"not a regular file ({_kind(opened.st_mode)})", hint=_NOT_REGULAR)
        size = opened.st_size
        if size > limit:
            raise _too_large(size, limit)
        chunks, got = [], 0
        while got <= size:  # one byte more than stat says, to notice a file that grows or lies
            chunk = os.read(fd, size + 1 - got)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as exc:
        raise SourceError(exc.strerror or str(exc)) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) != size:
        raise SourceError("the file changed size while being read (or is not an ordinary file on disk)")
    return decode(data)


def decode(data: bytes) -> str:
    try:
        return strip_bom(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        col = len(data[line_start:exc.start].decode("utf-8", errors="replace")) + 1
        raise SourceError(f"not valid UTF-8 (byte 0x{data[exc.start]:02x})", (line, col)) from None


# --------------------------------------------------------------------------- includes


def _under(real: str, folder: str) -> bool:
    try:
        return os.path.commonpath([real, folder]) == folder
    except ValueError:
        return False


class _Reader:
    """Reads and parses files depth-first through includes, each file once, within the limits."""

    def __init__(self, roots: Sequence[str] = ()):
        self.modules: List[A.Module] = []
        self.sources: Dict[str, str] = {}
        self.diagnostics: List[Diagnostic] = []
        self.roots = [os.path.realpath(r) for r in roots]
        self._done: Dict[str, str] = {}  # real path -> display path
        self._stack: List[str] = []
        self._bytes = 0

    def _problem(self, message: str, include: Optional[A.Include], path: str, hint: Optional[str] = None) -> None:
        self.diagnostics.append(error(message, include.span if include else None, hint=hint, path=path))

    def read(self, path: str, include: Optional[A.Include] = None) -> None:
        real = os.path.realpath(path)
        if real in self._stack:
            cycle = [os.path.basename(p) for p in self._stack[self._stack.index(real):]] + [os.path.basename(real)]
            self._problem(f"include cycle: {' -> '.join(cycle)}", include, path)
            return
        if real in self._done:
            return
        if len(self._done) >= MAX_FILES:
            self._problem(f"too many rule files: more than {MAX_FILES}", include, path,
                          hint=f"one load reads at most {MAX_FILES} files, includes included")
            return
        try:
            text = read_rules_text(path, MAX_FILE_BYTES)
        except SourceError as exc:
            if include is not None:
                where = f" (line {exc.position[0]}, column {exc.position[1]})" if exc.position else ""
                self._problem(f"cannot read included file {quoted(include.path, 200)}: {exc.reason}{where}",
                              include, path, hint=exc.hint)
            else:
                span = A.Span(path, *exc.located) if exc.located else None
                self.diagnostics.append(error(f"cannot read file: {exc.reason}", span, hint=exc.hint, path=path))
            return
        self._bytes += len(text)
        if self._bytes > MAX_TOTAL_BYTES:
            self._problem(f"rule files too large in total: more than {MAX_TOTAL_BYTES} bytes", include, path,
                          hint=f"one load reads at most {MAX_TOTAL_BYTES} bytes of rule files, includes included")
            return
        self._done[real] = path
        self.sources[path] = text
        module, diags = parse_with_diagnostics(text, path)
        self.diagnostics.extend(diags)
        self._stack.append(real)
        for item in module.items:
            if isinstance(item, A.Include):
                target = self._include_target(path, real, item)
                if target is not None:
                    self.read(target, item)
        self._stack.pop()
        self.modules.append(module)

    def _include_target(self, path: str, real: str, item: A.Include) -> Optional[str]:
        """The path an include names, or None (reported) if it may not be read."""
        name = item.path
        shown = quoted(name, 200)
        if "\0" in name:
            self._problem(f"include path {shown} contains a NUL character", item, path)
            return None
        if not name.endswith(".rules"):
            self._problem(f"include of {shown}: an included file must be a .rules file", item, path)
            return None
        if len(self._stack) >= MAX_INCLUDE_DEPTH:
            self._problem(f"includes nested too deep: more than {MAX_INCLUDE_DEPTH} files", item, path,
                          hint=f"an include chain may be at most {MAX_INCLUDE_DEPTH} files long")
            return None
        target = os.path.normpath(os.path.join(os.path.dirname(path), name))
        target_real = os.path.realpath(target)
        folder = os.path.dirname(real)
        if not any(_under(target_real, allowed) for allowed in [folder] + self.roots):
            self._problem(f"include of {shown} leaves the allowed folders", item, path,
                          hint="an include names a file under the including file's folder or under a rule root "
                               "(load(..., roots=[...]); rewrite check --root FOLDER)")
            return None
        return target


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


def read_files(paths: Union[PathLike, Sequence[PathLike]],
         roots: Sequence[PathLike] = ()) -> Tuple[List[A.Module], Dict[str, str], List[Diagnostic]]:
    """Read and parse (no checking) the files and what they include: ``(modules, sources,
    diagnostics)``.  Includes may reach files under the including file's folder and the rule
    roots: the folders of the files named (directly or through a folder) in ``paths``, ``roots``,
    and the shipped rules folder."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    files, diags = expand(paths)
    allowed = [shipped_rules_dir()] + sorted({os.path.dirname(os.path.abspath(f)) for f in files})
    for p in list(roots):
        try:
            p = os.fsdecode(os.fspath(p))
        except TypeError:
            continue
        if "\0" not in p and os.path.isdir(p):
            allowed.append(p)
    reader = _Reader(allowed)
    for f in files:
        reader.read(f)
    return reader.modules, reader.sources, diags + reader.diagnostics


def collect(paths: Union[PathLike, Sequence[PathLike]], registry: Optional[Registry] = None,
            roots: Sequence[PathLike] = ()) -> Collected:
    """Read, parse and check without raising (see :func:`read_files` for what includes may reach)."""
    with _gc_paused():
        modules, sources, diags = read_files(paths, roots)
        result = check(modules, registry)
    return Collected(modules, sources, sort_diagnostics(diags + result.diagnostics), result)


@contextmanager
def _gc_paused():
    """Parsing allocates millions of objects and frees none of them in cycles; the cyclic
    collector would walk every live one again and again (half the time of a large file)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def load(paths: Union[PathLike, Sequence[PathLike]], registry: Optional[Registry] = None,
         roots: Sequence[PathLike] = ()) -> LoadedRules:
    """Load, check and resolve rule files; raises :class:`RulesError` on any error in the files
    or paths, and nothing else for them."""
    got = collect(paths, registry, roots)
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
