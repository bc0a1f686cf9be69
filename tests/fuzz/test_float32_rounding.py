"""The fuzz oracle tells float32 rounding from a wrong result: a backend that misses eager in
float32 is run again on the program in float64, and is ok only where it matches eager there
(``rewrite.fuzz.oracle.float32_rounding``)."""
from __future__ import annotations

import operator

import torch

from rewrite.fuzz.oracle import BackendFactory, float_errors, run_backend
from rewrite.fuzz.program import Param, Program, Stmt, widened
from rewrite.fuzz.reference import float64_default, reference, run_eager
from rewrite.testing.state import Snapshot


def sums_in_order(gm, inputs):
    """Every ``sum`` as the last element of a running sum: the same additions in another order."""
    for n in list(gm.graph.nodes):
        if n.op == "call_method" and n.target == "sum":
            with gm.graph.inserting_before(n):
                running = gm.graph.call_method("cumsum", (gm.graph.call_method("flatten", (n.args[0],)), 0))
                last = gm.graph.call_function(operator.getitem, (running, -1))
            n.replace_all_uses_with(last)
            gm.graph.erase_node(n)
    gm.recompile()
    return gm


def off_by_2e_5(gm, inputs):
    """Wrong in every precision, by about as much as ``sums_in_order`` is off in float32."""
    def run(*args):
        return tuple(o + 2e-5 for o in gm(*args))
    return run


class Backends(BackendFactory):
    def make(self, name):
        return {"sums_in_order": sums_in_order, "off_by_2e_5": off_by_2e_5}[name]


def sin_of_a_sum(inexact: bool = True) -> Program:
    body = Stmt(kind="mutate", lines=("t1 = (x0.sum() * 30).sin()", "x0[0] = 0.5"), defines=(("t1", "value"),),
                uses=frozenset({"x0"}), inexact=inexact)
    return Program(seed=5, index=7, mode="inference", dynamic=False, setup=(),
                   params=(Param("x0", "torch.arange(20000.0).sin()", "data"),), body=(body,), returns=("t1", "x0"))


def test_a_sum_in_another_order_is_ok_up_to_float32_rounding():
    program = sin_of_a_sum()
    outcome = run_backend(program, "sums_in_order", reference(program), Backends(rules=[]))
    assert outcome.status == "ok" and outcome.rounding
    assert "float64 within 1e-09" in outcome.rounding and "not close" in outcome.rounding
    assert "up to float32 rounding" in outcome.describe()


def test_a_result_off_in_every_precision_stays_wrong():
    program = sin_of_a_sum()
    outcome = run_backend(program, "off_by_2e_5", reference(program), Backends(rules=[]))
    assert outcome.status == "wrong" and not outcome.rounding


def test_a_program_of_exact_math_is_never_excused():
    program = sin_of_a_sum(inexact=False)     # compared exactly: no re-run in float64
    outcome = run_backend(program, "sums_in_order", reference(program), Backends(rules=[]))
    assert outcome.status == "wrong" and not outcome.rounding


def test_widened_source_runs_in_float64():
    text = "x = torch.randint(-4, 5, (3,)).float()\ny = x.view(torch.int32)\nz = torch.zeros(2, dtype=torch.float32)"
    assert widened(text) == ("x = torch.randint(-4, 5, (3,)).double()\ny = x.view(torch.int64)\n"
                             "z = torch.zeros(2, dtype=torch.float64)")
    run = run_eager(sin_of_a_sum(), wide=True)
    assert run.error is None
    assert {v.dtype for _, v in run.snapshots[0].items if isinstance(v, torch.Tensor)} == {torch.float64}
    assert torch.get_default_dtype() == torch.float32
    with float64_default(False):
        assert torch.get_default_dtype() == torch.float32


def test_the_default_dtype_comes_back_after_an_error():
    try:
        with float64_default():
            assert torch.get_default_dtype() == torch.float64
            raise RuntimeError("a program that raised")
    except RuntimeError:
        pass
    assert torch.get_default_dtype() == torch.float32


def test_float_errors_need_the_same_path():
    """A float64 run whose values that are no floats differ took another path: no error to
    compare (``None``); floats are compared by their largest absolute difference."""
    narrow = Snapshot([("output[0]", torch.tensor([1.0, 2.0])), ("output[1]", torch.tensor([True, False])),
                       ("memory shared by the outputs", ())])
    same = Snapshot([("output[0]", torch.tensor([1.0, 2.5], dtype=torch.float64)),
                     ("output[1]", torch.tensor([True, False])), ("memory shared by the outputs", ())])
    other_path = Snapshot([("output[0]", torch.tensor([1.0, 2.0], dtype=torch.float64)),
                           ("output[1]", torch.tensor([True, True])), ("memory shared by the outputs", ())])
    assert float_errors(narrow, same) == [0.5, 0.0, 0.0]
    assert float_errors(narrow, other_path) is None
