"""A `cond` branch writes `x2[2]` and then `x3`, where the caller passed `x3 = x2[0]`
(`rewrite fuzz --seed 43` program 217, minimized).  The dependency leaves the aliased operands to
torch, and `auto_functionalized_v2` regenerates both from one base, so the branch's graph gets two
inputs that share memory.  The values check reads each input as memory of its own: it accepted
a private copy of `x2` for the first write (the branch returns `x2`), copied back after the
write through `x3`, which it then undid (`x2[0]` kept its old value, on both bases; stock
Inductor, the rules-free pipeline and aot_eager right).  A graph whose inputs' fake values share
a storage is now left to Inductor as it is (`aliases.shared_inputs`).  (A check of two written
operands of one base stopped this program's dynamic-shape run for a while; it was withdrawn.)"""
import torch

EXPECT = """
rejects: cond_captured_mutations at rewrite because share memory without a view
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x2, x3):
    def true_fn(p):
        x2[2] = 1.0
        x3.fill_(-2.0)
        return p.clone()

    def false_fn(p):
        return p * 0

    torch.cond(x3.sum() > 0, true_fn, false_fn, (x2,))
    return None


def inputs():
    base = torch.randint(-4, 5, (8,)).float()
    base[0] = 3.0                                     # the branch that writes runs
    return base, base[0]
