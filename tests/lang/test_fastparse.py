"""The hand-written fast path parses exactly like the LALR grammar: for every item it either
gives up or produces the same AST with the same spans (and so the same diagnostics downstream)."""
import dataclasses
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from rewrite.lang import fastparse
from rewrite.lang.parser import RESERVED, parse_number, parse_string, parse_with_diagnostics, scan
from rewrite.lang.printer import pretty

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import check_inputs as gen  # noqa: E402
from test_roundtrip import modules  # noqa: E402


def spans(node, out):
    if dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            if f.name == "span":
                out.append(value)
            else:
                spans(value, out)
    elif isinstance(node, tuple):
        for value in node:
            spans(value, out)
    return out


def assert_same(text: str) -> None:
    slow, slow_diags = parse_with_diagnostics(text, "f.rules", fast=False)
    fast, fast_diags = parse_with_diagnostics(text, "f.rules")
    assert fast == slow, text
    assert spans(fast, []) == spans(slow, []), text
    assert [(d.message, d.span, d.hint) for d in fast_diags] == [(d.message, d.span, d.hint) for d in slow_diags]


def fast_items(text: str) -> int:
    """How many items of ``text`` the fast path accepts."""
    starts = list(scan(text).item_starts) + [len(text)]
    from rewrite.lang.lines import line_table
    lines = line_table(text)
    return sum(fastparse.parse_item(text, b, e, *lines.position(b), "f", RESERVED, parse_number, parse_string)
               is not None for b, e in zip(starts, starts[1:]))


def test_shipped_and_malformed_files():
    files = sorted((ROOT / "rules").glob("*.rules")) + sorted((ROOT / "tests" / "lang" / "malformed").glob("*.rules"))
    for path in files:
        assert_same(path.read_bytes().decode("utf-8", errors="replace"))


def test_the_fast_path_takes_every_shipped_item():
    for path in sorted((ROOT / "rules").glob("*.rules")):
        text = path.read_text()
        assert fast_items(text) == len(scan(text).item_starts), path


def test_mutated_files():
    for text in gen.mutated_files(300, seed=5):
        assert_same(text)


def test_contextual_keywords():
    for text in ["rule r\n  match y = where.x(_, input=1, where=2, match=3)\n",
                 "rule r\n  match y = _(x)\n", "rule r\n  match y = aten.add(inputs, nodes, anything, constant)\n",
                 "rule r\n  match y = aten.add(True.x(y))\n", "rule r\n  match y = aten.add(x)\n  where Truex(y)\n",
                 "rule r\n  match y = aten.add(x)\n  where x.where.after and (x).y[0] is not (None)\n",
                 "rule r\n  match y = aten.add(x)\n  where ((x)) == [(1), 'a', ()]\n",
                 "rule r\n  match y = aten.add(x)\n  rewrite a(); b(x);\n  priority -3\n",
                 "rule r\n  match y = aten.add(x)\n  rewrite a(); path(x)\n",
                 "facts t\n  input: aten.x | y\n  node: z\n  rule: w\n",
                 "dependency d\n  on w = a.b(c, ...)\n  mutates c[i] when f(c[i])\n  order g(c[i]) afterwards w\n  via t(w)\n",
                 "dependency d\n  on w = a.b(c, ...)\n  mutates c[i] when f(c[i])\n  order g(c[i]) after w\n  via t(w)\n"
                 "  fallback compiler\n",
                 "dependency d\n  on w = a.b(c, ...)\n  mutates c[i] when f(c[i])\n  order g(c[i]) after w\n  via t(w)\n"
                 "  fallback\n",
                 "rule r\n  match y = aten.add(x, ...)\n  where x.args[1] == 1.5e3 and not not x\n"]:
        assert_same(text)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(modules)
def test_random_modules(module):
    text = pretty(module)
    assert_same(text)
    assert_same(text.replace("\n  ", " ").replace("(", " ( ").replace(",", " ,"))
