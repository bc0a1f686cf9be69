"""The negative twin of `fuzz_clone_of_updated_input_returned_in_its_memory_s163_p915`: the
program returns the updated input itself, not a clone, so its output is the input's memory and
must stay so: `copy_returned_update_for_inductor` does not fire (AOTAutograd returns the output
as an alias of the input)."""
import torch

EXPECT = """
not fires: copy_returned_update_for_inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::p915_twin_prefix_sum_", mutates_args=("x",))
def prefix_sum_(x: torch.Tensor) -> None:
    for i in range(1, x.shape[0]):
        x[i] = x[i] + x[i - 1]


@prefix_sum_.register_fake
def _prefix_sum_fake(x):
    return None


def fn(x1):
    o1 = x1[:2]
    o1.diagonal().add_(x1[2, :2].flip(0))
    o2 = x1[:]
    prefix_sum_(x1[:, :-1].diagonal())
    return o2


def inputs():
    base0 = torch.randint(-4, 5, (6, 4)).float()
    return (base0[0:3],)
