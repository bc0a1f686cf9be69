"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 6), minimized from 12 to 5
statements: both on base inductor.

rewrite-inductor: raised on call 1: NotImplementedError: make_reindexer NYI on DtypeView(
inductor: raised on call 1: RuntimeError: body_fn might be modifying the input!
Rules fired: cond_captured_mutations, while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    def true_fn_1(p):
        def cond_fn_2(i, acc):
            return i < 3
        def body_fn_2(i, acc):
            x2.fill_(-2.0)
            x2.view(torch.int32).diagonal(1).index_put_((torch.tensor([3, 2, 2]),), (-x1[:3]).to(torch.int32), accumulate=True)
            return i + 1, acc + x1.sum()
        i2, acc2 = torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return p * 2
    def false_fn_1(p):
        x2[:, 2:3].masked_fill_(x1[:1] > 0, 0.5)
        return p.clone()
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x0,))
    return None


def inputs():
    return torch.randint(-4, 5, (5, 5)).int(), torch.randint(-4, 5, (4,)).float(), torch.randint(-4, 5, (4, 5)).float()
