"""Generated rule files for ``benchmarks/check_scale.py`` and the scaled-down tests: large, broken
and mutated inputs of ``rewrite check``.  Pure text generation; nothing here imports torch."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Iterator, List

REPO = Path(__file__).resolve().parents[1]

# Root ops with schemas (positional args >= 2) for the large valid file.
ROOTS = ("aten.add.Tensor", "aten.sub.Tensor", "aten.mul.Tensor", "aten.div.Tensor", "aten.slice_scatter",
         "aten.select_scatter", "aten.index_put", "aten.copy", "aten.mm", "aten.bmm", "aten.addmm",
         "aten.where.self", "aten.clamp", "aten.pow.Tensor_Tensor", "aten.maximum", "aten.minimum")

VALID_RULE = """\
# rule {i}: a realistic rule body
rule r{i}
  match      y = {root}(x: node, other, ...)
  path       p = y ->* last through u: chain_{g}
                 when u.args[0] is current and not used_after(current, u)
  where      not is_input(x) and not used_after(x, y) and not is_view(x)
  profitable realized(x)
  safe       not saved_for_backward(x)
             and not overlaps(other, x)
             and same_layout(y, x)
  rewrite    reinplace(y); reinplace_path(p)
  priority   {priority}
"""


# A rule body that passes the checker: roots whose in-place forms Inductor compiles, and
# conditions that need no fact table.
CLEAN_ROOTS = ("aten.add.Tensor", "aten.sub.Tensor", "aten.mul.Tensor", "aten.div.Tensor", "aten.slice_scatter",
               "aten.select_scatter", "aten.index_put", "aten.copy")

CLEAN_RULE = """\
# rule {i}: a realistic rule body that checks clean
rule r{i}
  match      y = {root}(x: node, other, ...)
  path       p = y ->* last through u: chain_{g}
                 when u.args[0] is current and not used_after(current, u)
  where      not is_input(x) and not used_after(x, y) and not is_view(x)
  safe       not overlaps(other, x)
             and same_layout(y, x)
  rewrite    reinplace(y); reinplace_path(p)
  priority   {priority}
"""


def one_root_rules(n: int, root: str = "aten.add") -> str:
    """``n`` rules with one root op, identical patterns and priority: every pair overlaps."""
    return "".join(f"rule r{i}\n  match y = {root}(x, ...)\n  where is_input(x)\n  rewrite reinplace(y)\n\n"
                   for i in range(n))


def distinct_literal_rules(n: int, root: str = "aten.add") -> str:
    """``n`` rules with one root op whose patterns differ by a literal: no pair overlaps."""
    return "".join(f"rule r{i}\n  match y = {root}(x, {i})\n  where is_input(x)\n\n" for i in range(n))


def valid_file(size: int) -> str:
    """About ``size`` bytes of valid rules (distinct names, a spread of root ops and priorities)."""
    head = "".join(f"opset chain_{g} = aten.index_put | aten.slice_scatter | aten.copy\n" for g in range(16))
    parts: List[str] = [head, "\n"]
    total, i = len(head), 0
    while total < size:
        text = VALID_RULE.format(i=i, root=ROOTS[i % len(ROOTS)], g=i % 16, priority=i % 97) + "\n"
        parts.append(text)
        total += len(text)
        i += 1
    return "".join(parts)


def clean_file(size: int) -> str:
    """At most ``size`` bytes (UTF-8) of rules that ``rewrite check`` passes without an error:
    what a large, real rule file would be."""
    head = "".join(f"opset chain_{g} = aten.index_put | aten.slice_scatter | aten.copy\n" for g in range(16))
    parts: List[str] = [head, "\n"]
    total, i = len(head) + 1, 0
    while True:
        text = CLEAN_RULE.format(i=i, root=CLEAN_ROOTS[i % len(CLEAN_ROOTS)], g=i % 16, priority=i % 97) + "\n"
        if total + len(text) > size:
            return "".join(parts)
        parts.append(text)
        total += len(text)
        i += 1


def unknown_ops_file(n: int) -> str:
    return "".join(f"opset o{i} = aten.no_such_op_{i}\n" for i in range(n))


def errors_file(n_errors: int, size: int) -> str:
    """``n_errors`` broken items spread over about ``size`` bytes of valid rules."""
    valid = valid_file(size)
    chunks = valid.split("\n\n")
    step = max(1, len(chunks) // n_errors)
    out = []
    made = 0
    for k, chunk in enumerate(chunks):
        out.append(chunk)
        if k % step == 0 and made < n_errors:
            out.append(f"rule broken{made}\n  match y = aten.add(x ...)\n")
            made += 1
    while made < n_errors:
        out.append(f"rule broken{made}\n  match y = aten.add(x ...)\n")
        made += 1
    return "\n\n".join(out)


# --------------------------------------------------------------------------- mutations


def seed_files() -> List[Path]:
    """The files mutations start from: the shipped rules and the malformed corpus (regular files
    only)."""
    files = sorted((REPO / "rules").glob("*.rules")) + sorted((REPO / "tests" / "lang" / "malformed").rglob("*.rules"))
    return [f for f in files if f.is_file() and not f.is_symlink()]


def seed_texts() -> List[str]:
    return [f.read_bytes().decode("utf-8", errors="replace") for f in seed_files()]


HOSTILE = [
    'include "/proc/self/environ"\n', 'include "../../../../etc/passwd"\n', 'include "/dev/zero"\n',
    'include "a\\0b.rules"\n', 'include "fifo.rules"\n', "\ufeff", "\f", "\v", "\u2028", "\r\n", "\x00",
    "1" * 5000, "1e309", "-" + "9" * 30, '"' + "s" * 3000 + '"', "...", "->*", "->+",
]
TOKENS = ["rule", "match", "where", "safe", "rewrite", "path", "opset", "facts", "include", "dependency",
          "(", ")", "[", "]", ",", ":", "=", "|", ";", ".", "x", "_", "input", "node", "aten.add",
          "higher_order.cond", "not", "and", "or", "is", "==", "when", "through", "priority", "0", "-1"]


def _nesting(rng: random.Random) -> str:
    k = rng.choice((50, 300, 1000, 3000))
    kind = rng.randrange(5)
    if kind == 0:
        return "aten.add(" * k + "x" + ")" * k
    if kind == 1:
        return "[" * k + "]" * k
    if kind == 2:
        return "not " * k + "x"
    if kind == 3:
        return "x" + ".a" * k
    return "f(" * k + "x" + ")" * k


def mutate(text: str, rng: random.Random) -> str:
    """One to four random edits: byte flips, deletions, duplications, token swaps and insertions,
    deep nesting, hostile snippets."""
    for _ in range(rng.randint(1, 4)):
        n = len(text)
        op = rng.randrange(8)
        at = rng.randrange(n + 1)
        if op == 0 and n:
            i = rng.randrange(n)
            text = text[:i] + chr(rng.randrange(1, 0x80 if rng.random() < 0.8 else 0x3000)) + text[i + 1:]
        elif op == 1 and n:
            j = min(n, at + rng.randint(1, 40))
            text = text[:at] + text[j:]
        elif op == 2 and n:
            j = min(n, at + rng.randint(1, 400))
            text = text[:j] + text[at:j] * rng.randint(1, 3) + text[j:]
        elif op == 3:
            text = text[:at] + " " + rng.choice(TOKENS) + " " + text[at:]
        elif op == 4:
            words = text.split(" ")
            if len(words) > 2:
                a, b = rng.randrange(len(words)), rng.randrange(len(words))
                words[a], words[b] = words[b], words[a]
                text = " ".join(words)
        elif op == 5:
            text = text[:at] + _nesting(rng) + text[at:]
        elif op == 6:
            text = text[:at] + rng.choice(HOSTILE) + text[at:]
        else:
            lines = text.split("\n")
            if len(lines) > 1:
                i = rng.randrange(len(lines))
                lines.insert(rng.randrange(len(lines)), lines[i])
                text = "\n".join(lines)
    return text


def mutated_files(count: int, seed: int = 0) -> Iterator[str]:
    seeds = seed_texts()
    rng = random.Random(seed)
    for _ in range(count):
        yield mutate(rng.choice(seeds), rng)
