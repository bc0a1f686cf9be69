"""Two inputs, `x0` and its row `x1 = x0[0]`; the false branch of a `cond` does `x0.add_(3.0)`
and then `x1[3] = 1.0` (`rewrite fuzz --seed 199` program 770, minimized; the true branch nests a
`cond` writing `x1`, which `cond_captured_mutations` rewrites).  Stock Inductor and aot_eager
raise ("cond_true might be modifying the input"); with the inner `cond` rewritten the outer one
reaches the post-grad graph as `auto_functionalized_v2` with `x0` and `x1` regenerated from one
base.  Functionalized, the branch's epilogue copies back `x0 + 3` whole, over the in-place write
of `x1[3]`: `x0[0, 3]` came out 5.0, not 1.0, on both bases.  Such a whole copy back over another
written operand's memory stops the graph (`stale_reads`), which runs eagerly."""
import torch

EXPECT = """
fires: cond_captured_mutations
warns: left to the compiler
warns: runs eagerly instead
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    def true_fn_1(p):
        def true_fn_2(p):
            x1[2] = 0.5
            return p.clone()
        def false_fn_2(p):
            return p.clone()
        r2 = torch.cond(x1.sum() > 0, true_fn_2, false_fn_2, (x1,))
        return p.clone()
    def false_fn_1(p):
        x0.add_(3.0)
        x1[3] = 1.0
        return p * 0
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (3, 4)).float()
    return base0, base0[0]
