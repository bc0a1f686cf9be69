"""A `cond` branch runs a `while_loop` whose body writes `x0[1, 2]` (captured twice over), then
`return x0.clone()`, with `x0` a transposed input (`rewrite fuzz --seed 0` program 887, v2).  The
loop's dependency threads the write out of the loop, the `cond`'s declines (a strided operand)
and leaves the op to torch, which functionalizes the `cond` as an `auto_functionalized_v2` call;
noop removal drops the clone, and Inductor's reinplacing would write the input in place and
return it as the output (wrong values and aliasing; stock, which never threads the loop, was
right).  The `cond` call now writes a private copy of `x0`."""
import torch

EXPECT = """
fires: while_loop_captured_mutations in dynamo
rejects: cond_captured_mutations at rewrite because strides
warns: left to the compiler
fires: privatize_custom_op_for_inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


def fn(x0, x1):
    def true_fn(p):
        def cond_fn(i, acc):
            return i < 2

        def body_fn(i, acc):
            x0[1, 2] = 2.0
            return i + 1, acc + x1.sum()

        torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return p * 2

    def false_fn(p):
        return p.clone()

    torch.cond(x1.sum() > 0, true_fn, false_fn, (x1,))
    return x0.clone()


def inputs():
    base0 = torch.randint(-4, 5, (3, 4)).float()
    return base0.t(), torch.randint(-4, 5, (6,)).float()
