"""`rewrite check` stays linear in its input.  No timings: each test counts work that a quadratic
algorithm would multiply (pattern comparisons, characters handed to the parser, list elements
copied, op-table builds), on scaled-down versions of the inputs benchmarks/check_scale.py measures
at full size."""
import random
import sys
from pathlib import Path

import pytest

from rewrite.lang import ops, parser, syntax
from rewrite.lang.checker import _Checker, check
from rewrite.lang.loader import collect
from rewrite.lang.overlaps import _Finder, _Sets, args_subsume, find_overlaps
from rewrite.lang.parser import parse
from rewrite.vocab import default_registry

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import check_inputs as gen  # noqa: E402


def test_identical_rules_on_one_root_are_one_warning_without_pairwise_comparisons():
    result = check([parse(gen.one_root_rules(1000))])
    assert result.overlap_comparisons == 1  # the class of identical patterns, compared with itself once
    [warning] = result.warnings
    assert warning.message.startswith("1000 rules overlap: 'r0' (<string>:1:1), 'r1' (<string>:6:1), "
                                      "'r2' (<string>:11:1) and 997 more;")
    assert warning.span.line == 6


def test_rules_told_apart_by_literals_are_not_compared():
    result = check([parse(gen.distinct_literal_rules(500))])
    assert result.overlap_comparisons == 0 and result.warnings == []


def test_overlap_budget_ends_with_a_warning_naming_where_it_stopped():
    text = "".join(f"rule r{i}\n  match y = aten.add(x: aten.mul(a, {i}), ...)\n" for i in range(40))
    module = parse(text)
    checker = _Checker(default_registry())
    checker.run([module])
    rules = [(r, checker.pattern_ops(r.match.pattern)) for r in module.items]
    full = find_overlaps(rules, checker.pattern_ops)
    # the literal is nested, out of the index's sight: every pair is compared, both ways
    assert full.comparisons == 40 * 39 and full.warnings == []
    cut = find_overlaps(rules, checker.pattern_ops, budget=100)
    assert cut.comparisons == 100
    assert [w.message.split(";")[0] for w in cut.warnings] == ["overlap check stopped after 100 pattern comparisons"]


ROOTS = ["aten.add", "aten.add.Tensor", "aten.add.Scalar", "aten.sub", "addsub"]
ARGS = ["_", "x", "input", "node", "const", "any", "1", "2", "1.0", "True", "aten.mul(y, ...)", "aten.mul(_)",
        "aten.mul.Tensor(y, z)", "[1, _]", "[_, _]", "x: 1", "y: input", "aten.sub(...)"]


def _components(n, sets):
    roots = {}
    for i in range(n):
        roots.setdefault(sets.find(i), []).append(i)
    return sorted(roots.values())


def test_indexed_overlap_check_finds_what_comparing_every_pair_finds():
    rng = random.Random(7)
    for _ in range(150):
        lines = ["opset addsub = aten.add | aten.sub\n"]
        for i in range(rng.randint(2, 12)):
            args = [rng.choice(ARGS) for _ in range(rng.randrange(4))]
            args += ["..."] if rng.random() < 0.4 else []
            args += ["alpha=" + rng.choice("12_")] if rng.random() < 0.2 else []
            lines.append(f"rule r{i}\n  match m = {rng.choice(ROOTS)}({', '.join(args)})\n"
                         + rng.choice(["", "", "  priority 1\n"]))
        module = parse("".join(lines))
        checker = _Checker(default_registry())
        checker.run([module])
        rules = [(r, checker.pattern_ops(r.match.pattern)) for r in module.items if hasattr(r, "match")]
        brute = _Sets(len(rules))
        for j, (later, later_ops) in enumerate(rules):
            for i, (earlier, earlier_ops) in enumerate(rules[:j]):
                if later_ops and earlier_ops and later.priority == earlier.priority \
                        and ops.intersects(later_ops, earlier_ops):
                    a, b = earlier.match.pattern, later.match.pattern
                    if args_subsume(checker.pattern_ops, a, b) or args_subsume(checker.pattern_ops, b, a):
                        brute.union(i, j)
        finder = _Finder(rules, checker.pattern_ops, 10 ** 9)
        finder.run()
        assert _components(len(rules), finder.sets) == _components(len(rules), brute), "".join(lines)


def test_parsing_reads_each_character_once(monkeypatch):
    """Items are parsed as slices of the file (no padding to their position): what the LR loop is
    given adds up to the file, once, and what lark's parser is given (the broken items, for their
    messages) once more at most."""
    text = gen.valid_file(60_000) + gen.errors_file(30, 20_000)
    given = []
    loop_parse, lark = syntax.ItemParser.parse, syntax.lark_parser()

    def counting_parse(self, text, begin, end, *rest):
        given.append(("loop", end - begin))
        return loop_parse(self, text, begin, end, *rest)

    class CountingLark:
        def parse(self, chunk, start):
            given.append(("lark", len(chunk)))
            return lark.parse(chunk, start=start)

        def __getattr__(self, name):
            return getattr(lark, name)

    monkeypatch.setattr(syntax.ItemParser, "parse", counting_parse)
    monkeypatch.setattr(parser, "lark_parser", lambda: CountingLark())
    module, diags = parser.parse_with_diagnostics(text, "big.rules")
    assert len(diags) == 30
    loop = [n for kind, n in given if kind == "loop"]
    again = [n for kind, n in given if kind == "lark"]
    assert len(loop) == len(module.items) + 30 and sum(loop) <= len(text)
    assert len(again) == 30 and sum(again) <= len(text)


def test_unknown_ops_build_the_op_table_at_most_once(write, monkeypatch):
    builds = []
    real = ops.build_table
    monkeypatch.setattr(ops, "build_table", lambda: builds.append(1) or real())
    path = write("unknown.rules", gen.unknown_ops_file(300))
    got = collect(path)
    assert len(got.errors) == 300 and len(builds) <= 1


@pytest.mark.parametrize("n", [200])
def test_many_files_are_read_once_each(tmp_path, n):
    for i in range(n):
        (tmp_path / f"f{i}.rules").write_text("".join(f'include "f{j}.rules"\n' for j in range(i)))
    got = collect(tmp_path)
    assert len(got.sources) == n and got.diagnostics == []
