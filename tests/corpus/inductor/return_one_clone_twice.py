"""Twin of `fuzz_two_clones_after_write_made_one_output_s83_p75`: the program returns one clone
twice, one tensor.  AOTAutograd's graph returns it once (its runtime repeats it), so the net
leaves it alone and the two outputs stay one tensor, as eagerly."""
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
    return c1, c1


def inputs():
    return (torch.randint(-4, 5, (7,)).float(),)
