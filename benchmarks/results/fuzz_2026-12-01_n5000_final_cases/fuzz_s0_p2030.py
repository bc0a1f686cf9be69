"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 2030), minimized from 9 to 4
statements: both on base eager.

rewrite-eager: raised on call 1: UncapturedHigherOrderOpError: Expected carried_inputs and
    body_output to have same metadata but found:
pipeline-eager: raised on call 1: RuntimeError: cond_false might be modifying the input!
Rules fired: cond_captured_mutations, while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    def cond_fn_1(i, acc):
        x2.t().scatter_add_(1, torch.tensor([[0, 1, 1, 4, 1], [1, 4, 3, 2, 0], [3, 4, 2, 2, 4], [1, 3, 0, 1, 0]]), x2.t() * 3)
        return i < 1
    def body_fn_1(i, acc):
        def true_fn_2(p):
            return p.clone()
        def false_fn_2(p):
            x2[2, 1] = 1.0
            return p * 0
        r2 = torch.cond(x1.sum() > 0, true_fn_2, false_fn_2, (x0,))
        return i + 1, acc + x0.sum()
    i1, acc1 = torch.while_loop(cond_fn_1, body_fn_1, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (3, 8)).float()
    return torch.randint(-4, 5, (4, 3)).float(), base0[:, ::2], torch.randint(-4, 5, (5, 4)).float()
