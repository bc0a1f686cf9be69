"""A `while_loop` whose nested loop's `cond_fn` writes `x0[0]`, then a `cond` branch that writes
`x0.as_strided((4,), (1,), 1)[x0[:4] > 0] = -1.0`, with `x0` a strided view (`[::2]`) of a
14-element buffer (`rewrite fuzz --seed 199` program 654, minimized).  Stock Inductor and aot_eager
raise on the loop ("cond_fn might be modifying the input"); `while_loop_captured_mutations` makes
it compile, and the `cond` (left to the compiler: its operand is strided) then takes a fresh value
standing for `x0` as its base.  The branch's `as_strided` addresses storage: of the input, the
program's slots 1..4 of the buffer (two of them between `x0`'s elements); of the fresh value,
other elements.  Both bases were wrong.  A higher-order op whose function addresses an operand's
storage, given a fresh value laid out otherwise than the input it stands for, now stops the graph
(`legality.functions_address_fresh_operands`), which runs eagerly."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
warns: left to the compiler
warns: runs eagerly instead
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1, x2):
    t1 = x2 - 1
    def cond_fn_2(i, acc):
        return i < 1
    def body_fn_2(i, acc):
        def cond_fn_3(i, acc):
            x0[0] = 1.0
            return i < 3
        def body_fn_3(i, acc):
            return i + 1, acc + x2.sum()
        i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return i + 1, acc + t1.sum()
    i2, acc2 = torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    def true_fn_6(p):
        x0.as_strided((4,), (1,), 1)[x0[:4] > 0] = -1.0
        return p + 1
    def false_fn_6(p):
        return p - 1
    r6 = torch.cond(x2.sum() > 0, true_fn_6, false_fn_6, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5,)).float()
    return torch.randint(-4, 5, (14,)).float()[::2], base0, base0
