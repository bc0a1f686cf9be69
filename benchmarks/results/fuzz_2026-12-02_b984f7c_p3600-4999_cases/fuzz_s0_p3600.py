"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 3600..4999)` (program 3600),
minimized from 7 to 3 statements: both on base inductor.

rewrite-inductor: raised on call 1: AssertionError: expected size 5==5, stride 1==3 at dim=0;
    expected size 3==3, stride 5==1 at dim=1
inductor: raised on call 1: AssertionError: expected size 5==5, stride 1==3 at dim=0; expected
    size 3==3, stride 5==1 at dim=1
Rules fired: cond_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    x0.t().unsqueeze(0).mul_(x1[1:6].clamp(-2, 2))
    def true_fn_2(p):
        return p.clone()
    def false_fn_2(p):
        x0.add_(2.0)
        return p * 0
    r2 = torch.cond(x1.sum() > 0, true_fn_2, false_fn_2, (x0,))
    return None


def inputs():
    return torch.randint(-4, 5, (5, 3)).float(), torch.randint(-4, 5, (6,)).float()
