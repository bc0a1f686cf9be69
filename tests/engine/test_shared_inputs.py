"""`aliases.shared_inputs`: a higher-order op's function whose inputs share memory while it writes
one of them is left to Inductor (the values check reads each input as memory of its own: fuzz
seed 43 p217, the corpus case `fuzz_cond_branch_writes_two_aliased_operands_s43_p217`).  Graphs
whose shared inputs are only read, or are AOTAutograd's own inputs, keep every rule and net."""
import torch

from rewrite.backend import make_backend


def attention(qkv):
    q, k, v = qkv.unbind(0)          # the backward graph gets views of one gradient buffer
    return (torch.softmax(q @ k.transpose(-1, -2), -1) @ v).sum()


def product(x, y):
    return (x * y).relu()


def branch_writes_one_of_two(x, y):
    def write(p):
        x[2] = 1.0
        y.fill_(-2.0)
        return p.clone()

    def keep(p):
        return p * 0

    torch.cond(y.sum() > -100, write, keep, (x,))


def shared_warnings(fn, *args):
    torch._dynamo.reset()
    backend = make_backend(base="eager", cache=False)
    out = torch.compile(fn, backend=backend, fullgraph=True)(*args)
    if out is not None and out.requires_grad:
        out.sum().backward()
    return [w for r in backend.reports for w in r.warnings if "function share memory" in w]


def test_read_only_views_and_aotautograds_inputs_are_not_left():
    assert shared_warnings(attention, torch.randn(3, 2, 5, 4, requires_grad=True)) == []
    t = torch.randn(8)
    assert shared_warnings(product, t[0:4], t[2:6]) == []


def test_a_function_writing_one_of_two_shared_inputs_is_left_to_inductor():
    base = torch.arange(8.0)
    with torch.inference_mode():       # (as the corpus runs inference cases)
        warnings = shared_warnings(branch_writes_one_of_two, base, base[0])
    assert base[0] == -2.0 and base[2] == 1.0
    assert warnings and all("and it writes one of them" in w for w in warnings)
