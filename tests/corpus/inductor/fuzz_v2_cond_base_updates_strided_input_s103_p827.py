"""An `index_put_` into a strided input `x2 = base1[:, ::2]`, a loop, then a `cond` over `x2` whose
branch writes `x2.as_strided(...)` (`rewrite fuzz --seed 103` program 827, minimized).
`cond_captured_mutations` declines (`x2` is not contiguous), so the `cond` stays under
`auto_functionalized_v2` with the functional `index_put` as its base, dense in its fake value,
and the branches are compiled for those dense strides.  Inductor writes the `index_put` in place
into the input, so the branch got the input's strides `(10, 2)` and its entry check raised (stock
too; aot_eager right).  A written base that updates an input laid out otherwise is now copied
before its layout is forced (`operand_layouts._input_laid_out_otherwise`).  Since seed 199 p654
the graph stops and runs eagerly (`legality.functions_address_fresh_operands`): the branch's
`as_strided` addresses storage of a fresh value laid out otherwise than the input it stands for;
here the one element written (storage slot 0) is the same element in both layouts, which that
check does not prove (it would need the addressed elements replayed on both layouts)."""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
warns: operand 0 (`l_x2_`) has strides
warns: runs eagerly instead
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1, x2, idx3):
    x2.index_put_((torch.tensor([2, 0, 2]),), torch.tensor(3.0, dtype=torch.float32), accumulate=True)
    def cond_fn_1(i, acc):
        return i < 3
    def body_fn_1(i, acc):
        x1[2:4:2].index_put_((torch.tensor([0, 0, 0]),), x1[1:4].tanh(), accumulate=True)
        return i + 1, acc + x1.sum()
    i1, acc1 = torch.while_loop(cond_fn_1, body_fn_1, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    def true_fn_2(p):
        x2.as_strided((2,), (2,), 0).index_put_((torch.tensor([0]),), torch.tensor(2.0, dtype=torch.float32), accumulate=True)
        return p + 1
    def false_fn_2(p):
        return p.clone()
    r2 = torch.cond(x1.sum() > 0, true_fn_2, false_fn_2, (x2,))
    r2.diagonal().mul_(x1[1:4].clone().clamp(-2, 2))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5, 4)).float()
    base1 = torch.randint(-4, 5, (3, 10)).float()
    return base0, base0[0], base1[:, ::2], torch.tensor([1, 2, 0])
