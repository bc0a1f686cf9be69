"""A `cond` branch writes a captured input laid out with strides of its own (a strided or
transposed view).  Rewritten, the `cond` would take it as an operand written after it, and
Inductor hands the branches a buffer laid out otherwise than it compiled them for: their input
checks fail (`rewrite fuzz --seed 0 --n 5000` program 3867, rewrite only, on the code of the
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


def fn(x1):
    def true_fn_1(p):
        x1.fill_(-2.0)
        return p + 1
    def false_fn_1(p):
        return p - 1
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    def true_fn_3(p):
        x1[:, :4].add_(p.t()[:4].clone())
        return p * 2
    def false_fn_3(p):
        return p * 0
    r3 = torch.cond(r1.sum() > 0, true_fn_3, false_fn_3, (r1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5, 4)).float()
    return (base0.t(),)
