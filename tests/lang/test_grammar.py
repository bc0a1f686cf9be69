"""grammar/rules.lark is the one source of the syntax: the Python table of the language's words
says what the grammar says (and docs/language.md lists the same reserved words), and the LR loop
that parses items with lark's tables accepts exactly what lark's own parser accepts."""
import re
import sys
from pathlib import Path

from rewrite.lang import parser, syntax
from rewrite.lang.diagnostics import line_table

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import check_inputs as gen  # noqa: E402

LARK = syntax.lark_parser()


def keyword_of(rule_name: str) -> str:
    """The keyword a grammar rule starts with (``match_sec`` -> ``match``)."""
    [first] = {r.expansion[0].name for r in LARK.rules if r.origin.name == rule_name}
    return LARK.get_terminal(first).pattern.value


def sections(item: str) -> tuple:
    longest = max((r.expansion for r in LARK.rules if r.origin.name == item), key=len)
    return tuple(keyword_of(s.name) for s in longest if s.name.endswith("_sec"))


def words_of(terminal: str) -> tuple:
    """The words a word-class terminal (``KIND: /(input|const|...)(?!...)/``) matches."""
    return tuple(re.match(r"\(([\w|]+)\)", LARK.get_terminal(terminal).pattern.value).group(1).split("|"))


def test_the_words_are_the_grammars():
    assert syntax.TOP_KEYWORDS == tuple(keyword_of(r.expansion[0].name) for r in LARK.rules if r.origin.name == "item")
    assert syntax.RULE_SECTIONS == sections("rule")
    assert syntax.DEPENDENCY_SECTIONS == sections("dependency")
    assert syntax.KINDS == words_of("KIND")
    literal_words = {t.pattern.value for t in LARK.terminals
                     if t.pattern.type == "str" and re.fullmatch(r"[A-Za-z_]\w*", t.pattern.value)}
    grammar_words = literal_words | set(words_of("KIND") + words_of("CONST_WORD") + words_of("ORDER_REL"))
    assert syntax.RESERVED == grammar_words
    assert set(syntax.OPERATOR_WORDS) == grammar_words - set(
        syntax.TOP_KEYWORDS + syntax.RULE_SECTIONS + syntax.DEPENDENCY_SECTIONS + syntax.KINDS + ("_",))


def test_the_docs_list_the_reserved_words():
    text = (ROOT / "docs" / "language.md").read_text()
    listed = re.search(r"Keywords are reserved and cannot be names: `([^`]*)`", text).group(1).split()
    assert sorted(listed) == sorted(syntax.RESERVED) and len(listed) == len(set(listed))


def items(text: str):
    starts = list(parser.scan(text).item_starts) + [len(text)]
    lines = line_table(text)
    for begin, end in zip(starts, starts[1:]):
        yield (begin, end) + lines.position(begin)


def lark_accepts(chunk: str) -> bool:
    try:
        tree = LARK.parse(chunk, start="item")
    except Exception:  # noqa: BLE001 - any lark error is a rejection
        return False
    return parser._too_deep(tree) is None


TRICKY = [
    "rule r\n  match y = aten.add(x) wherex\n",                  # lark reads 'where x': a keyword as a prefix
    "rule r\n  match y = aten.add(x)\n  where is_input(x)priority 1\n",
    "rule r match y = aten.add(x) where x.a<1andy",
    "rule r\n  match y = where.x(_, input=1, where=2, match=3)\n",
    "rule r\n  match y = aten.add(inputs, nodes, anything, constant)\n",
    "rule r\n  match y = aten.add(x)\n  where x.where.after and (x).y[0] is not (None)\n",
    "rule r\n  match y = aten.add(x)\n  where ((x)) == [(1), 'a', ()]\n",
    "rule r\n  match y = aten.add(x, ...)\n  where x.args[1] == 1.5e3 and not not x\n",
    "rule r\n  match y = aten.add(x, .5, -.5e3, 1., 'a\\'b')\n",
    "rule r\n  match y = aten.add(x...)\n", "rule r\n  match y = aten.add(x,,)\n",
    "facts t\n  input: aten.x | y\n  node: z\n  rule: w\n",
    "dependency d\n  on w = a.b(c, ...)\n  mutates c[i] when f(c[i])\n  order g(c[i]) afterwards w\n  via t(w)\n",
    "dependency d\n  on w = a.b(c, ...)\n  mutates c[i] when f(c[i])\n  order g(c[i]) after w\n  via t(w)\n"
    "  fallback compiler\n",
    "rule r\n  match y = aten.add(x)\n  where " + "not " * syntax.MAX_NESTING + "x\n",
    "rule r\n  match y = aten.add(x)\n  where " + "not " * (syntax.MAX_NESTING - 1) + "x.a\n",
    "rule r\n  match y = aten.add(" + "[" * 70 + "]" * 70 + ")\n",
]


def corpus():
    files = sorted((ROOT / "rules").glob("*.rules")) + sorted((ROOT / "tests" / "lang" / "malformed").rglob("*.rules"))
    return TRICKY + [f.read_bytes().decode("utf-8", errors="replace") for f in files] + \
        list(gen.mutated_files(300, seed=3))


def test_the_loop_accepts_what_lark_accepts():
    accepted = rejected = 0
    for text in corpus():
        text = parser.strip_bom(text)
        loop = syntax.ItemParser("f.rules")
        for begin, end, line, col in items(text):
            item = loop.parse(text, begin, end, line, col)
            assert (item is not None) == lark_accepts(text[begin:end]), text[begin:end]
            if item is not None:   # the item's span is lark's: from its keyword to its last token
                tree = LARK.parse(text[begin:end], start="item")
                end_line = line + tree.meta.end_line - 1
                end_col = tree.meta.end_column + (col - 1 if tree.meta.end_line == 1 else 0)
                assert (item.span.line, item.span.col, item.span.end_line, item.span.end_col) == \
                    (line, col, end_line, end_col)
            accepted += item is not None
            rejected += item is None
    assert accepted > 200 and rejected > 200, (accepted, rejected)
