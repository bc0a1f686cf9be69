"""Two operands share memory because the caller passed a tensor and a view of it: the graph shows no
view between them, so the rewrite cannot make the write through one visible through the other, and
torch's own functionalization of `cond` (what `fallback compiler` would leave it to) returns the
stale value: stock Inductor and aot_eager give -7 where eager gives 0.  The compilation stops with
an error instead (`rewrite fuzz`, seed 0 program 257)."""
import torch

EXPECT = """
compile_raises: DependencyError because share memory without a view
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1, x2):
    def true_fn(p):
        x0[:3].add_(p * -1)
        return p.clone()
    def false_fn(p):
        return p.clone()
    return torch.cond(x2.sum() > 0, true_fn, false_fn, (x1,))


def inputs():
    base0 = torch.arange(15.0).reshape(3, 5) - 7
    return base0, base0[0], torch.ones(5)
