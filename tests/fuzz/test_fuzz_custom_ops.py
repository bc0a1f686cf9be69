"""Custom-op programs of `rewrite fuzz` (issue 22): generation, stability of the plain programs,
ops defined in the program's own source (again and again in one process), the auto_functionalized
version every oracle backend compiles under, and corpus-case emission."""
from __future__ import annotations

import collections
import dataclasses

import pytest
import torch

from rewrite.fuzz.custom_ops import KERNELS, definition, qualname
from rewrite.fuzz.features import FEATURES, Knobs, parse_features
from rewrite.fuzz.generator import build, generate, program_kind
from rewrite.fuzz.oracle import BackendFactory, run_backend
from rewrite.fuzz.program import OpDef, Param, Program, Stmt
from rewrite.fuzz.reference import InvalidProgram, load, reference
from rewrite.fuzz.session import case_text
from rewrite.fuzz.oracle import Verdict
from rewrite.testing.case import CaseFormatError, parse_case
from rewrite.testing.runner import run_case

CUSTOM_ONLY = Knobs(parse_features(",".join(FEATURES)))      # every feature listed: custom-op programs only
PLAIN_ONLY = Knobs([f for f in FEATURES if f != "custom_ops"])


def op_def(kernel: str, name: str = "op1", index: int = 0) -> OpDef:
    k = KERNELS[kernel]
    q = qualname(k, name, index)
    return OpDef(name, q, kernel, definition(k, name, q))


def clone_then_reverse(version: str, mode: str = "inference") -> Program:
    """``c = x.clone(); reverse_into(x, c)``: pytorch issue 198031 (Inductor's noop removal
    drops the clone; aot_eager is right)."""
    return Program(0, 900, mode, False, (), (Param("x0", "torch.arange(6.0)", "data"),),
                   (Stmt("op_arg", ("c1 = x0.clone()",), defines=(("c1", "value"),), uses=frozenset({"x0"})),
                    Stmt("custom_op", ("op1(x0, c1)",), uses=frozenset({"x0", "c1"}))),
                   ("x0",), (), (op_def("reverse_into", index=900),), version)


def test_plain_programs_are_drawn_as_without_the_feature():
    """The program kind comes from a stream of its own, and the custom-op statement is off in
    plain programs: a plain program is the same whether the feature is on or off."""
    plain = 0
    for i in range(40):
        version, _ = program_kind(2, i, 0, Knobs())
        if version is None:
            plain += 1
            assert build(2, i, 0, Knobs()).source() == build(2, i, 0, PLAIN_ONLY).source()
    assert 15 <= plain < 40


def test_listing_custom_ops_makes_every_program_a_custom_op_program_under_v1_or_v2():
    versions = collections.Counter()
    for i in range(12):
        p = build(1, i, 0, CUSTOM_ONLY)
        versions[p.auto_functionalized] += 1
        assert any(s.kind == "custom_op" for s in p.body), p.source()
        assert "torch.library.custom_op(" in p.source()
        assert "program:custom_ops" in p.knobs and f"auto_functionalized:{p.auto_functionalized}" in p.knobs
    assert set(versions) == {"v1", "v2"}
    for i in range(12):   # and without the feature, none is
        p = build(1, i, 0, PLAIN_ONLY)
        assert p.auto_functionalized is None and "custom_op" not in p.source()


def test_custom_op_programs_are_deterministic_and_fair():
    first = generate(4, 2, CUSTOM_ONLY)
    again = generate(4, 2, CUSTOM_ONLY)
    assert first[0].source() == again[0].source() and first[0].auto_functionalized == again[0].auto_functionalized
    reference(first[0])


def test_op_names_are_unique_to_their_definition():
    names = {qualname(KERNELS[k], "op1", 3) for k in KERNELS}
    assert len(names) == len(KERNELS)
    assert all(n.startswith("fuzz::p3_op1_") for n in names)
    assert qualname(KERNELS["cumsum"], "op1", 3) == qualname(KERNELS["cumsum"], "op1", 3)
    assert qualname(KERNELS["cumsum"], "op1", 3) != qualname(KERNELS["cumsum"], "op2", 3)


def test_a_program_defines_its_ops_again_each_time_it_runs_in_one_process():
    p = clone_then_reverse("v1")
    for _ in range(3):
        fn, make_inputs = load(p)
        x, = make_inputs()
        fn(x)
        assert x.tolist() == [5.0, 4.0, 3.0, 2.0, 1.0, 0.0]


def test_only_the_ops_fn_calls_are_defined():
    p = clone_then_reverse("v2")
    p = dataclasses.replace(p, ops=p.ops + (op_def("cumsum", "op2"),))
    assert [op.name for op in p.used_ops()] == ["op1"]
    assert "def op2" not in p.source()
    smaller = p.without_statement(1)
    assert smaller.used_ops() == [] and "custom_op" not in smaller.source()


def test_a_call_whose_kernel_sees_aliasing_is_not_a_fair_program():
    """``reverse_into(x, x)``: eager's result depends on the kernel's order of reads and writes."""
    p = clone_then_reverse("v1")
    p = dataclasses.replace(p, body=(Stmt("custom_op", ("op1(x0, x0)",), functional=("op1(x0, x0.clone())",),
                                          uses=frozenset({"x0"})),))
    with pytest.raises(InvalidProgram, match="order of reads and writes"):
        reference(p)


class _Versions:
    """Counts the functionalizations of custom-op calls by version."""

    def __init__(self, monkeypatch):
        import torch._higher_order_ops.auto_functionalize as auto_functionalize

        self.seen = collections.Counter()
        for attr, version in (("do_auto_functionalize", "v1"), ("do_auto_functionalize_v2", "v2")):
            original = getattr(auto_functionalize, attr)

            def counting(*args, _original=original, _version=version, **kwargs):
                self.seen[_version] += 1
                return _original(*args, **kwargs)

            monkeypatch.setattr(auto_functionalize, attr, counting)


@pytest.mark.parametrize("backend", ["aot_eager", "pipeline-eager", "rewrite-eager",
                                     pytest.param("inductor", marks=pytest.mark.inductor),
                                     pytest.param("rewrite-inductor", marks=pytest.mark.inductor)])
@pytest.mark.parametrize("version", ["v1", "v2"])
def test_every_oracle_backend_compiles_under_the_programs_version(monkeypatch, backend, version):
    versions = _Versions(monkeypatch)
    # a cached compile skips functionalization: count only what is compiled now
    monkeypatch.setattr(torch._inductor.config, "fx_graph_cache", False)
    monkeypatch.setattr(torch._functorch.config, "enable_autograd_cache", False)
    p = clone_then_reverse(version)
    outcome = run_backend(p, backend, reference(p), BackendFactory())
    assert set(versions.seen) == {version}, versions.seen
    # pytorch issue 198031: noop removal (Inductor's joint-graph passes, which the eager base
    # runs too) drops the clone, and Inductor's reinplacing then writes the input the op reads;
    # aot_eager runs no such pass, and rewrite writes the call back with a copy of what it
    # reads (rules/custom_ops.rules)
    right = backend == "aot_eager" or backend.startswith("rewrite")
    assert outcome.status == ("ok" if right else "wrong")


def test_a_case_carries_the_version_and_the_ops(tmp_path):
    p = clone_then_reverse("v1")
    text = case_text(p, Verdict(), "eager", "rewrite fuzz --seed 0")
    assert 'AUTO_FUNCTIONALIZED = "v1"' in text and "torch.library.custom_op(" in text
    path = tmp_path / "fuzz_s0_p900.py"
    path.write_text(text)
    case = parse_case(path)
    assert case.auto_functionalized == "v1"
    assert run_case(path, base="eager").status == "pass"      # written back with a copy of what it reads
    path.write_text(text.replace('AUTO_FUNCTIONALIZED = "v1"', 'AUTO_FUNCTIONALIZED = "v2"'))
    assert parse_case(path).auto_functionalized == "v2"
    assert run_case(path, base="eager").status == "pass"
    path.write_text(text.replace('AUTO_FUNCTIONALIZED = "v1"', 'AUTO_FUNCTIONALIZED = "v3"'))
    with pytest.raises(CaseFormatError, match="AUTO_FUNCTIONALIZED must be one of"):
        parse_case(path)
