"""A `while_loop` whose condition writes `a2` (a slice of an intermediate) and fills the input
`x2`, then `x2[x2 > 1] = -1.0` (`rewrite fuzz --seed 163` program 303, minimized).  The dependency
leaves the loop to torch (its operands `a2` and `t1` share memory), so the loop is an
`auto_functionalized_v2` call whose base is `x2`.  `copy_inputs_a_call_writes` gave it a private
copy of `x2`; Inductor then wrote the copy in place inside the loop, but scheduled the kernel that
reads the loop's new value (the mask and the copy back into `x2`) before the loop: every element
came back -1.0 (stock Inductor, whose own clone of the base is ordered, and aot_eager right).  A
`while_loop` call gets no copy of ours now; `cond` calls still do (corpus p564)."""
import torch

EXPECT = """
warns: left to the compiler
not fires: copy_inputs_a_call_writes
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


def fn(x0, x2):
    t1 = x0 @ x0.t().repeat(1, 2)
    a2, b2 = t1.split(4, 1)
    def cond_fn_4(i, acc):
        a2.mul_(2)
        x2.fill_(0.5)
        return i < 3
    def body_fn_4(i, acc):
        return i + 1, acc + t1.sum()
    i4, acc4 = torch.while_loop(cond_fn_4, body_fn_4, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    x2[x2 > 1] = -1.0
    return i4


def inputs():
    base0 = torch.randint(-4, 5, (4, 6)).float()
    base1 = torch.randint(-4, 5, (2, 2, 3)).float()
    return base0[:, ::2], base1
