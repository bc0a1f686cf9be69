"""A tensor constant of a ``while_loop``'s or ``cond``'s function becomes an operand of the op
(``rewrite/analysis/inductor/subgraph_constants.py``): stock Inductor never sets a function's own constant."""
import pytest
import torch

from graphs import post_grad

from rewrite.analysis.inductor.subgraph_constants import hoist_function_constants, wrapped_function_constants


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


def writing_branch(index):
    """A branch that writes its operand: the ``cond`` reaches the post-grad passes wrapped in
    ``auto_functionalized_v2`` (fuzz seed 67 p137), whose operands no repair can extend."""
    def fn(x):
        def true_fn(p):
            p.scatter_add_(0, torch.tensor(index), torch.ones(len(index), 3))
            return p * 2
        return torch.cond(x.sum() > 0, true_fn, lambda p: p * 0, (x,))
    return fn


def v2_call(gm):
    [call] = [n for n in gm.graph.nodes if n.target is torch.ops.higher_order.auto_functionalized_v2]
    return call


def assert_runs_like(gm, fn, x):
    """``gm`` returns what ``fn`` does and leaves its input as ``fn`` does."""
    got_x, want_x = x.clone(), x.clone()
    with torch.inference_mode():
        got = gm(got_x)
        want = fn(want_x)
    assert torch.equal(got[0] if isinstance(got, (tuple, list)) else got, want[0] if isinstance(want, (tuple, list)) else want)
    assert torch.equal(got_x, want_x)


def test_a_small_constant_of_a_wrapped_branch_becomes_flat():
    fn = writing_branch([[2, 2, 0]])
    x = torch.arange(1.0, 10.0).reshape(3, 3)
    gm = post_grad(fn, x.clone())
    call = v2_call(gm)
    [true_fn] = [getattr(gm, a.target) for a in call.kwargs.values() if getattr(a, "op", None) == "get_attr"
                 and isinstance(getattr(gm, a.target), torch.fx.GraphModule) and tensor_attrs(getattr(gm, a.target))]
    notes = wrapped_function_constants(gm)
    gm.recompile()
    assert len(notes) == 1 and call.name in notes[0]
    assert [tuple(getattr(true_fn, n.target).shape) for n in tensor_attrs(true_fn)] == [(3,)]
    assert wrapped_function_constants(gm) == []          # nothing left to flatten
    assert hoist_function_constants(gm) == []            # (and no operand can be added)
    assert_runs_like(gm, fn, x)


def test_a_larger_constant_of_a_wrapped_branch_is_made_of_inlined_pieces():
    fn = writing_branch([[2, 2, 0]] * 3)               # 9 elements: pieces of 8 and 1, concatenated
    x = torch.arange(1.0, 10.0).reshape(3, 3)
    gm = post_grad(fn, x.clone())
    notes = wrapped_function_constants(gm)
    gm.recompile()
    assert len(notes) == 1 and "2 flat piece(s)" in notes[0]
    [true_fn] = [getattr(gm, a.target) for a in v2_call(gm).kwargs.values() if getattr(a, "op", None) == "get_attr"
                 and isinstance(getattr(gm, a.target), torch.fx.GraphModule) and tensor_attrs(getattr(gm, a.target))]
    assert sorted(tuple(getattr(true_fn, n.target).shape) for n in tensor_attrs(true_fn)) == [(1,), (8,)]
    assert_runs_like(gm, fn, x)


def test_a_huge_constant_of_a_wrapped_branch_stops_the_compile():
    gm = post_grad(writing_branch([[2, 2, 0]] * 90), torch.arange(1.0, 10.0).reshape(3, 3))
    with pytest.raises(RuntimeError, match="270 elements: stock Inductor names it"):
        wrapped_function_constants(gm)
