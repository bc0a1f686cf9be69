"""The issue's while_loop whose cond_fn mutates a captured tensor (verbatim).
Eager, state=1.0: returns (2, 0.6, 0.1) and leaves state at 0.1.  (Outside
inference_mode eager torch.while_loop refuses the mutation; the corpus runs it
under inference_mode, where it works.)"""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def f(state):
    state.mul_(0.8)
    def cond(i, acc):
        state.mul_(0.5)
        return i < 2
    def body(i, acc):
        return i + 1, acc + state
    i, acc = torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), torch.zeros_like(state)))
    return i, acc, state.clone()


fn = f



def inputs():
    return (torch.ones(()),)
