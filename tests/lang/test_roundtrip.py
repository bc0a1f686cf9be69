"""parse(pretty(ast)) == ast for random valid modules."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rewrite.lang import ast as A
from rewrite.lang.parser import parse
from rewrite.lang.printer import format_source, pretty
from rewrite.lang.syntax import RESERVED

names = st.from_regex(r"[a-z_][a-z0-9_]{0,7}", fullmatch=True).filter(lambda s: s not in RESERVED)
callees = st.lists(names, min_size=1, max_size=3).map(lambda parts: A.Callee(tuple(parts)))
literals = st.one_of(
    st.integers(-10**6, 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6),
    st.sampled_from([True, False, None]),
)


def patterns(depth=2):
    leaf = st.one_of(
        st.builds(A.Wildcard),
        st.builds(A.KindPattern, st.sampled_from(["input", "const", "node", "any"])),
        st.builds(A.LiteralPattern, literals),
        st.builds(A.Bind, names),
    )
    if depth == 0:
        return leaf
    sub = patterns(depth - 1)
    return st.one_of(
        leaf,
        st.builds(A.Bind, names, sub),
        st.builds(A.ListPattern, st.lists(sub, max_size=3).map(tuple)),
        op_patterns(sub),
    )


def op_patterns(sub=None):
    sub = sub if sub is not None else patterns(1)
    kwargs = st.lists(st.builds(A.KwPattern, names, sub), max_size=2).map(tuple)
    return st.builds(A.OpPattern, callees, st.lists(sub, max_size=3).map(tuple), kwargs, st.booleans())


def exprs():
    leaf = st.one_of(st.builds(A.Var, names), st.builds(A.Literal, literals))

    def extend(inner):
        many = st.lists(inner, min_size=2, max_size=3).map(tuple)
        return st.one_of(
            st.builds(A.ListExpr, st.lists(inner, max_size=3).map(tuple)),
            st.builds(A.Attr, inner, names),
            st.builds(A.Index, inner, inner),
            st.builds(A.Call, names, st.lists(inner, max_size=3).map(tuple)),
            st.builds(A.Compare, st.sampled_from(["is", "is not", "==", "!=", "<", "<=", ">", ">="]), inner, inner),
            st.builds(A.Not, inner),
            st.builds(A.And, many),
            st.builds(A.Or, many),
        )

    return st.recursive(leaf, extend, max_leaves=8)


calls = st.builds(A.Call, names, st.lists(exprs(), max_size=2).map(tuple))
op_names = st.lists(names, min_size=2, max_size=3).map(lambda parts: A.Callee(tuple(parts)))
builds = st.builds(A.Build, st.none() | names, op_names, st.lists(exprs(), max_size=2).map(tuple),
                   st.lists(st.builds(A.KwArg, names, exprs()), max_size=2).map(tuple))
opt_expr = st.none() | exprs()
stage_clauses = st.none() | st.builds(A.StageClause, st.lists(names, min_size=1, max_size=2).map(tuple))
paths = st.builds(A.PathClause, st.none() | names, names, st.booleans(), names, names,
                  st.lists(callees, min_size=1, max_size=3).map(tuple), opt_expr)
rules = st.builds(A.Rule, names, st.builds(A.Match, names, op_patterns()), st.none() | paths, opt_expr, opt_expr,
                  opt_expr, st.lists(calls | builds, max_size=3).map(tuple), st.none() | st.integers(-100, 100),
                  stage_clauses)
mutates = st.builds(lambda base, i, cond: A.Mutates(A.Index(A.Var(base), A.Var(i)), i, cond), names, names, exprs())
dependencies = st.builds(A.Dependency, names, st.builds(A.Match, names, op_patterns()), mutates,
                         st.builds(A.Order, exprs(), st.sampled_from(["after", "before"]), exprs()), calls,
                         stage_clauses)
items = st.one_of(
    st.builds(A.Include, st.text(max_size=12)),
    st.builds(A.OpSet, names, st.lists(callees, min_size=1, max_size=4).map(tuple)),
    st.builds(A.Facts, names, st.lists(st.builds(A.FactGroup, names, st.lists(callees, min_size=1, max_size=3)
                                                 .map(tuple)), max_size=3).map(tuple)),
    rules,
    dependencies,
)
modules = st.lists(items, max_size=5).map(lambda xs: A.Module("<test>", tuple(xs)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(modules)
def test_parse_pretty_roundtrip(module):
    text = pretty(module)
    assert parse(text, "<test>") == module, text


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(modules)
def test_format_is_idempotent_and_keeps_the_ast(module):
    text = pretty(module)
    formatted = format_source(text, "<test>")
    assert formatted == text
    assert parse(formatted, "<test>") == module
