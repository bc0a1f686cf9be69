"""`x0.index_put_(...)`, then `c1 = x0.clone()` and `o2 = x0.clone()`, both returned (`rewrite
fuzz --seed 83` program 75, minimized).  Noop removal drops both clones: the graph returns one
node twice, where the program returns two tensors of their own (AOTAutograd calls both
`non_alias`).  The rules-free pipeline returned the input's memory twice (values wrong); with the
rules the values were right but the two outputs were one tensor.  The net under the repair rules
now gives each later occurrence a copy of its own (`earlier_passes.misplaced_outputs`,
`shares_with`).  The twin `return_one_clone_twice` keeps one tensor returned twice as one."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    x0.index_put_((torch.tensor([5]),), torch.tensor(-2.0, dtype=torch.float32), accumulate=True)
    c1 = x0.clone()
    o2 = x0.clone()
    return c1, o2


def inputs():
    return (torch.randint(-4, 5, (7,)).float(),)
