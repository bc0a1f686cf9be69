"""A `cond` branch writes a captured input laid out with strides of its own (a strided or
transposed view).  Rewritten, the `cond` would take it as an operand written after it, and
Inductor hands the branches a buffer laid out otherwise than it compiled them for: their input
checks fail (`rewrite fuzz --seed 0 --n 5000` program 2978, rewrite only, on the code of the
morning of 2026-12-01 that accepted such operands; the class of `cond_writes_transposed_input`).
The dependency leaves such operands to torch."""
import torch

EXPECT = """
rejects: cond_captured_mutations at rewrite because strides
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    t1 = x0 - x0
    def true_fn_2(p):
        x0[0, 0] = 0.5
        return p * 2
    def false_fn_2(p):
        return p.clone()
    r2 = torch.cond(x0.sum() > 0, true_fn_2, false_fn_2, (x0,))
    def true_fn_3(p):
        x0[0, 2] = 3.0
        return p + 1
    def false_fn_3(p):
        return p * 0
    r3 = torch.cond(t1.sum() > 0, true_fn_3, false_fn_3, (r2,))
    return None


def inputs():
    return (torch.randint(-4, 5, (5, 3)).float().t(),)
