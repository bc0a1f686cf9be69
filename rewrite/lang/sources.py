"""Reading one rule file safely: a regular file, not larger than a cap, opened so that nothing can
block (a FIFO or device named as a rule file is refused before it is opened for reading), decoded
as UTF-8 with a located error.  Failures are :class:`SourceError` with a reason that never quotes
the file's content."""
from __future__ import annotations

import os
import stat
from typing import Optional, Tuple

from rewrite.lang.parser import strip_bom


class SourceError(Exception):
    """A file that cannot be used as a rule file.  ``position`` is the (line, col) of the problem
    inside the file, when there is one (invalid UTF-8)."""

    def __init__(self, reason: str, position: Optional[Tuple[int, int]] = None):
        super().__init__(reason)
        self.reason = reason
        self.position = position


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
        raise SourceError(f"not a regular file ({_kind(info.st_mode)})")
    if info.st_size > limit:
        raise SourceError(f"file too large ({info.st_size} bytes; the limit is {limit})")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise SourceError(exc.strerror or str(exc)) from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):  # replaced between the stat and the open
            raise SourceError(f"not a regular file ({_kind(opened.st_mode)})")
        size = opened.st_size
        if size > limit:
            raise SourceError(f"file too large ({size} bytes; the limit is {limit})")
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
