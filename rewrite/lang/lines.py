"""Line numbers of a source text: one table per text, lines split on ``\\n`` only.

The lexer counts lines by ``\\n`` alone, so everything that turns an offset into a line or shows a
line (spans, diagnostics, ``fmt``) goes through this table; a form feed, ``\\v`` or U+2028 inside
a line never moves a caret.  A ``\\r`` before the ``\\n`` is not part of the shown line.
"""
from __future__ import annotations

import bisect
import re
from functools import lru_cache
from typing import List, Optional, Tuple

_NEWLINE = re.compile("\n")


class LineTable:
    def __init__(self, text: str):
        self.text = text
        self.starts: List[int] = [0] + [m.end() for m in _NEWLINE.finditer(text)]

    def __len__(self) -> int:
        """Number of lines (a text ending in ``\\n`` has an empty last line)."""
        return len(self.starts)

    def position(self, offset: int) -> Tuple[int, int]:
        """1-based (line, column) of ``offset``; columns count code points."""
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1

    def line(self, n: int) -> Optional[str]:
        """Line ``n`` (1-based) without its ``\\n`` (and ``\\r``), or None past the end."""
        if not 1 <= n <= len(self.starts):
            return None
        end = self.starts[n] - 1 if n < len(self.starts) else len(self.text)
        text = self.text[self.starts[n - 1]:end]
        return text[:-1] if text.endswith("\r") else text


@lru_cache(maxsize=4)
def line_table(text: str) -> LineTable:
    """The table of ``text``, built once (a report with many diagnostics in one big file asks for
    it once per diagnostic)."""
    return LineTable(text)
