"""A `cond` whose true branch writes `x1[4]` (captured) while `x2 = x1[-1]` is its operand, then
`x1.sub_(x1.roll(1, 0))` and loops (`rewrite fuzz --seed 67` program 564, minimized).  The inputs
alias: AOTAutograd gives them a synthetic base, `cond_captured_mutations` declines (two operands
share memory without a view between them), and the `cond` stays under `auto_functionalized_v2`;
`copy_inputs_a_call_writes` gives the call a private copy of the base.  Inductor's reinplacing
then writes the `as_strided_scatter` of `x1 - x1.roll(1)` into the call's result in place and
computes the roll inside that write's loop, where each element reads a neighbour already
written: `x1` came back wrong.  The simulation saw the hazard but charged it to the
functionalized call (the scatter's copy read the call's result, which the simulation had rewired
to the private base), and a call writing a private copy is trusted; the decomposed scatter's copy
is now found by its source, and `materialize_source_for_inductor` copies the source first.
Stock Inductor is wrong here too, aot_eager right."""
import torch

EXPECT = """
matches_eager exact
warns: cond_captured_mutations @ rules/dependencies.rules:29 on cond failed
fires: materialize_source_for_inductor on inductor
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1, x2):
    def true_fn_1(p):
        x1[4] = 3.0
        return p.clone()
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x2.sum() > 0, true_fn_1, false_fn_1, (x2,))
    def cond_fn_2(i, acc):
        return i < 1
    def body_fn_2(i, acc):
        return i + 1, acc + x0.sum()
    i2, acc2 = torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    x1.sub_(x1.roll(1, 0))
    def cond_fn_3(i, acc):
        return i < 3
    def body_fn_3(i, acc):
        x1.add_(i.to(torch.float32))
        return i + 1, acc + acc2.sum()
    i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (6,)).float()
    return torch.randint(-4, 5, (3, 3)), base0, base0[-1]
