"""A `cond` branch writes `o1 = x0[1:2]`, a captured view of its own operand `x0`, inside a
`while_loop`, and then reads the operand: `return p + 1` (`rewrite fuzz --seed 197` program 55,
minimized).  `x0` is strided, so `cond_captured_mutations` declines, and the `cond` reaches the
post-grad graph as `auto_functionalized_v2(cond, operand0=x0', _all_bases=[x0'])`: the operand is
the base itself, already in the graph AOTAutograd made.  The functionalized branch takes them as
two inputs, reads the operand as it was before the call and writes the base in its epilogue, in
place or not, so `p + 1` missed the loop's write.  Stock Inductor and aot_eager raised on the loop
inside the branch, which `while_loop_captured_mutations` made compile; rewrite then returned
wrong values on both bases.  The engine now stops such a call (`stale_reads.stopping_call`,
read from what the joint pass recorded) and the graph runs eagerly."""
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


def fn(x0):
    o1 = x0[1:2]
    o1.fill_(1.0)

    def true_fn(p):
        def cond_fn(i, acc):
            return i < 3

        def body_fn(i, acc):
            o1[0] = 2.0
            return i + 1, acc + o1.sum()

        torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return p + 1

    def false_fn(p):
        return p.clone()

    r2 = torch.cond(o1.sum() > 0, true_fn, false_fn, (x0,))
    o1[-1] = r2[1]


def inputs():
    return (torch.randint(-4, 5, (8,)).float()[::2],)
