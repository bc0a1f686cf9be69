"""Multi-error reporting, overlap warnings and scoping details."""
from rewrite.lang.loader import collect

RULE = "rule {name}\n  match y = {pattern}\n  where is_input(x)\n{extra}"


def test_all_errors_in_a_file_are_reported(write, cli):
    path = write("many.rules", "opset a = aten.slice_scater\n"            # 1: unknown op
                               "rule r1\n  match s = a(x, ...)\n"
                               "  where copid_back(s, x)\n"                 # 4: unknown predicate
                               "  safe reinplace(s)\n"                      # 5: action in safe
                               "rule r2\n  match s = aten.add(x ...)\n"     # 7: syntax error
                               "rule r3\n  match s = aten.add(x, ...)\n"
                               "  where used_after(z, s)\n"                 # 10: unbound
                               "rule r1\n  match t = aten.mul(...)\n")      # 11: duplicate
    code, out = cli("check", path)
    assert code == 2
    for line_col in ("1:11", "4:9", "5:8", "7:25", "10:20", "11:1"):
        assert f"{path}:{line_col}: error:" in out, out
    assert "6 errors" in out


def test_overlap_warning_names_both_locations(write, cli):
    path = write("o.rules", RULE.format(name="a", pattern="aten.add.Tensor(x, other)", extra="") + "\n"
                 + RULE.format(name="b", pattern="aten.add(x, _)", extra=""))
    code, out = cli("check", path)
    assert code == 0
    assert f"{path}:5:1: warning: rule 'b' overlaps rule 'a' ({path}:1:1)" in out
    assert "1 warning" in out


def test_subsuming_pattern_overlaps(write):
    path = write("o.rules", RULE.format(name="a", pattern="aten.add(x: node, ...)", extra="")
                 + RULE.format(name="b", pattern="aten.add(x: input, y, z)", extra=""))
    assert [d.message for d in collect(path).diagnostics if not d.is_error] == \
        ["rule 'b' overlaps rule 'a' (%s:1:1): both match the same nodes at the same priority" % path]


def test_no_overlap_for_disjoint_patterns_or_priorities(write):
    path = write("o.rules", RULE.format(name="a", pattern="aten.add(x, 1)", extra="")
                 + RULE.format(name="b", pattern="aten.add(x, 2)", extra="")
                 + RULE.format(name="c", pattern="aten.add(x, 1)", extra="  priority 5\n")
                 + RULE.format(name="d", pattern="aten.sub(x, 1)", extra=""))
    assert collect(path).diagnostics == []


def test_path_scoping(write):
    ok = ("opset iu = aten.index_put\n"
          "rule r\n  match s = aten.slice_scatter(b: input, ...)\n"
          "  path p = s ->+ last through u: iu when u.args[0] is current\n"
          "  where copied_back(last, b)\n  rewrite reinplace_path(p)\n")
    assert collect(write("ok.rules", ok)).diagnostics == []
    clash = ok.replace("through u:", "through b:").replace("u.args", "b.args")
    assert [d.message for d in collect(write("clash.rules", clash)).errors] == ["'b' is already bound"]


def test_mutates_index_variable_scope(write):
    text = ("dependency d\n  on w = higher_order.while_loop(c, body, carried, captured, ...)\n"
            "  mutates captured[i] when mutated(body, captured[i])\n"
            "  order copy_back(captured[i]) after w\n  via thread_as_carried(w)\n")
    assert collect(write("d.rules", text)).diagnostics == []
    bad = text.replace("mutates captured[i]", "mutates captured[j]")
    assert {d.message for d in collect(write("bad.rules", bad)).errors} == {"unbound variable 'i'"}


def test_dependency_fallback(write):
    text = ("dependency d\n  on w = higher_order.while_loop(c, body, carried, captured, ...)\n"
            "  mutates captured[i] when mutated(body, captured[i])\n"
            "  order copy_back(captured[i]) after w\n  via thread_as_carried(w)\n")
    for mode in ("error", "compiler", "reference"):
        assert collect(write(f"{mode}.rules", text + f"  fallback {mode}\n")).diagnostics == []
    errors = collect(write("bad.rules", text + "  fallback ignore\n")).errors
    assert [d.message for d in errors] == ["unknown fallback 'ignore'"]
    assert "fallback compiler" in errors[0].hint and "fallback reference" in errors[0].hint
    assert (errors[0].span.line, errors[0].span.col) == (6, 3)
    # the backend reads `reference` from the Dynamo stage's report only
    late = text.replace("dependency d\n", "dependency d\n  stage post_grad\n").replace("thread_as_carried(w)", "materialize(w)")
    assert collect(write("late_compiler.rules", late + "  fallback compiler\n")).diagnostics == []
    errors = collect(write("late.rules", late + "  fallback reference\n")).errors
    assert [d.message for d in errors] == ["`fallback reference` needs stage dynamo: the backend decides how to compile "
                                           "a graph after its Dynamo stage"]


def test_node_or_none_is_a_node_after_is_not_none_in_the_same_and(write):
    """`copy_back(x)` returns a node or None: its attributes need a test first, in the same `and`
    (not in an `or`, not in another section)."""
    def errors(where: str):
        path = write("n.rules", f"rule r\n  match c = aten.copy_(x, y)\n  where {where}\n  rewrite erase(c)\n")
        return [d.message for d in collect(path).diagnostics if d.is_error]

    assert errors("copy_back(x) is not None and copy_back(x).shape == y.shape") == []
    assert errors("is_input(x) and copy_back(x) is not None and copy_back(x).shape == y.shape") == []
    unguarded = "'shape' is an attribute of a node, but 'copy_back(...)' is a node or None"
    assert errors("copy_back(x).shape == y.shape") == [unguarded]
    assert errors("copy_back(x) is not None or copy_back(x).shape == y.shape") == [unguarded]
    assert errors("copy_back(y) is not None and copy_back(x).shape == y.shape") == [unguarded]
    assert errors("(copy_back(x) is not None and is_input(x)) and copy_back(x).shape == y.shape") == []
    assert errors("not (copy_back(x) is not None) and copy_back(x).shape == y.shape") == [unguarded]
