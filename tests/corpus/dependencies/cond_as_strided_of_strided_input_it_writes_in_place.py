"""The twin of `fuzz_cond_as_strided_of_input_a_loop_updated_s199_p654.py` without the loop: the
`cond` takes the strided input itself as its base, so the branch's `as_strided` addresses the
input's storage and Inductor's reinplacing writes it there, as the program does.
`legality.functions_address_fresh_operands` finds no fresh value, and the graph compiles (no
"runs eagerly instead" warning: the runner fails a case on a warning it does not expect)."""
import torch

EXPECT = """
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1, x2):
    def true_fn(p):
        x0.as_strided((4,), (1,), 1)[x0[:4] > 0] = -1.0
        return p + 1

    def false_fn(p):
        return p - 1

    torch.cond(x2.sum() > 0, true_fn, false_fn, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5,)).float()
    return torch.randint(-4, 5, (14,)).float()[::2], base0, base0
