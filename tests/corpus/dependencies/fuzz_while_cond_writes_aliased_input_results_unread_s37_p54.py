"""A `while_loop` condition writes `x3`, the body sums `x2`, two overlapping slices of one tensor,
and nothing reads the loop's results (`rewrite fuzz --seed 37` program 54, minimized).  The
dependency leaves the aliased inputs to torch (`fallback compiler`), and AOTAutograd wraps the
loop in `auto_functionalized_v2` over their synthetic base.  Stock Inductor's scheduler keeps a
loop only for its results: it dropped this one and the condition's writes with it (its compiled
function did nothing; aot_eager right; with the loop's sum returned, stock is right too: the
twin `while_captured_inputs_aliased`).  The engine stops such a graph
(`functionalized_calls.dropped_loop`) and it runs eagerly; the eager base, which has no such
scheduler, compiles it."""
import torch

EXPECT = """
rejects: while_loop_captured_mutations at rewrite because share memory without a view
warns: Inductor's scheduler would drop it with its writes on inductor
warns: runs eagerly instead on inductor
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x2, x3):
    def cond_fn(i, acc):
        x3.add_(-2.0)
        return i < 3

    def body_fn(i, acc):
        return i + 1, acc + x2.sum()

    torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base = torch.randint(-4, 5, (6, 4)).float()
    return base[0:5], base[1:6]
