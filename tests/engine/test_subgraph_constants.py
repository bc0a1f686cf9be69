"""A tensor constant of a ``while_loop``'s or ``cond``'s function becomes an operand of the op
(``rewrite/analysis/inductor/subgraph_constants.py``): stock Inductor never sets a function's own constant."""
import pytest
import torch

from graphs import post_grad

from rewrite.analysis.inductor.subgraph_constants import hoist_function_constants


def loop(x):
    def cond_fn(i, acc):
        return i < 2

    def body_fn(i, acc):
        return i + 1, acc + x.scatter(0, torch.tensor([[1], [0], [2]]), -x).sum()

    return torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros((), dtype=torch.int64)))[1]


def branch(x):
    return torch.cond(x.sum() > 0, lambda x: x.scatter(0, torch.tensor([[1], [0], [2]]), -x), lambda x: x * 2, (x,))


def functions(gm, hop):
    return [getattr(gm, a.target) for a in hop.args if getattr(a, "op", None) == "get_attr"]


def tensor_attrs(sub):
    return [n for n in sub.graph.nodes if n.op == "get_attr" and isinstance(getattr(sub, n.target), torch.Tensor)]


def check(fn, target, dynamic=False):
    x = torch.arange(9).reshape(3, 3)
    gm = post_grad(fn, x, dynamic=dynamic)
    [hop] = [n for n in gm.graph.nodes if n.target is target]
    before = len(hop.args[3])
    assert any(tensor_attrs(f) for f in functions(gm, hop))
    notes = hoist_function_constants(gm)
    gm.graph.lint()
    gm.recompile()
    assert len(notes) == 1 and hop.name in notes[0]
    assert len(hop.args[3]) == before + 1 and hop.args[3][-1].op == "get_attr"
    # a constant has no size symbols, even where the graph has a shape environment (fuzz p3957:
    # Inductor's code named a symbol it never bound)
    assert all(isinstance(s, int) for s in hop.args[3][-1].meta["val"].shape)
    assert not any(tensor_attrs(f) for f in functions(gm, hop))
    for f in functions(gm, hop):          # every function takes the new operand last
        assert len([p for p in f.graph.nodes if p.op == "placeholder"]) == len(hop.args[3]) + (
            len(hop.args[2]) if target is torch.ops.higher_order.while_loop else 0)
    with torch.inference_mode():
        got = gm(*[3 if p.meta.get("val") is not None and not isinstance(p.meta["val"], torch.Tensor) else x
                   for p in gm.graph.nodes if p.op == "placeholder"])
        want = fn(x)
    assert torch.equal(got[0] if isinstance(got, (tuple, list)) else got, want)
    assert hoist_function_constants(gm) == []          # nothing left to pass


@pytest.mark.parametrize("dynamic", [False, True])
def test_a_loop_body_constant_becomes_a_captured_operand(dynamic):
    check(loop, torch.ops.higher_order.while_loop, dynamic)


def test_a_branch_constant_becomes_an_operand_of_both_branches():
    check(branch, torch.ops.higher_order.cond)


def test_a_function_without_constants_is_left_alone():
    def plain(x):
        return torch.cond(x.sum() > 0, lambda x: x + 1, lambda x: x * 2, (x,))

    gm = post_grad(plain, torch.arange(9).reshape(3, 3))
    code = gm.code
    assert hoist_function_constants(gm) == [] and gm.code == code
