"""``cond`` operands laid out as their fake values say (``rewrite/analysis/inductor/cond_operand_layouts.py``):
stock Inductor compiles a ``cond``'s branches for its operands' strides and only realizes them."""
import torch
from torch._inductor import config as inductor_config

from graphs import post_grad

from rewrite.analysis.inductor import cond_operand_layouts
from rewrite.analysis.inductor.cond_operand_layouts import require_cond_operand_layouts

FORCE = torch.ops.prims.inductor_force_stride_order.default


def scatter_into_strided_input(x1):
    o1 = x1.clone()
    x1[:, 3::2] = 2.0

    def true_fn(p):
        return p + 1

    def false_fn(p):
        x1[1:].add_(-1.0)
        return p * 0

    return torch.cond(o1.sum() > 0, true_fn, false_fn, (x1,))


def scatter_into_strided_input_reference(x1):
    """What eager computes (``torch.cond`` refuses a captured mutation outside ``torch.compile``)."""
    o1 = x1.clone()
    x1[:, 3::2] = 2.0
    if o1.sum() > 0:
        return x1 + 1
    x1[1:].add_(-1.0)
    return x1 * 0


def strided_input():
    return (torch.arange(40.0).reshape(4, 10) - 20)[:, ::2]


def read_only(x, y):
    return torch.cond(x.sum() > 0, lambda p, q: p + q, lambda p, q: p - q, (x, y.t()))


def dense_operands(x):
    t = x * 2
    return torch.cond(t.sum() > 0, lambda p: p.sin(), lambda p: p.cos(), (t,))


def forced(gm):
    return [n for n in gm.graph.nodes if n.target is FORCE]


def run(gm, *args):
    with torch.inference_mode():
        return gm(*args)


def graph_of(fn, *args, dynamic=False):
    with inductor_config.patch(enable_auto_functionalized_v2=True):
        return post_grad(fn, *args, dynamic=dynamic)


def test_a_non_dense_computed_operand_is_copied_densely_and_means_the_same():
    gm = graph_of(scatter_into_strided_input, strided_input())
    notes = require_cond_operand_layouts(gm)
    gm.graph.lint()
    gm.recompile()
    [force] = forced(gm)
    clone = force.args[0]
    assert clone.target is torch.ops.aten.clone.default and clone.args[0].target is torch.ops.aten.slice_scatter.default
    val = force.meta["val"]
    assert val.is_contiguous() and tuple(force.args[1]) == (5, 1)
    assert len(notes) == 1 and "dense strides" in notes[0]
    want, got = strided_input(), strided_input()
    expected = scatter_into_strided_input_reference(want)
    out = run(gm, got)
    assert torch.equal(got, want) and torch.equal(out[0], expected)


def test_a_dense_computed_operand_is_frozen_without_a_copy():
    x = torch.arange(12.0).reshape(3, 4).t()
    gm = graph_of(dense_operands, x)
    notes = require_cond_operand_layouts(gm)
    [force] = forced(gm)
    assert force.args[0].target is torch.ops.aten.mul.Tensor
    assert tuple(force.args[1]) == tuple(force.args[0].meta["val"].stride())
    assert force.meta["val"] is force.args[0].meta["val"] and "its own strides" in notes[0]
    gm.recompile()
    assert torch.equal(run(gm, x)[0], dense_operands(x))


def test_symbolic_strides_are_read_by_sym_stride():
    gm = graph_of(scatter_into_strided_input, strided_input(), dynamic=True)
    require_cond_operand_layouts(gm)
    [force] = forced(gm)
    strides = force.args[1]
    assert any(isinstance(s, torch.fx.Node) and s.target is torch.ops.aten.sym_stride.int for s in strides)
    assert not any(isinstance(s, torch.SymInt) for s in strides)
    gm.graph.lint()


def test_inputs_and_their_views_are_left_alone():
    gm = graph_of(read_only, torch.arange(16.0).reshape(4, 4), torch.ones(4, 4))
    code = gm.code
    assert require_cond_operand_layouts(gm) == [] and gm.code == code


def test_a_non_dense_base_that_an_operand_is_regenerated_from_by_as_strided_is_left_alone(monkeypatch):
    gm = graph_of(scatter_into_strided_input, strided_input())
    [cond] = [n for n in gm.graph.nodes if n.target is torch.ops.higher_order.auto_functionalized_v2]
    [(base, viewed)] = cond_operand_layouts._cond_values(cond)
    assert not viewed
    cond.kwargs = {**cond.kwargs, "_operand0_size": [4, 5], "_operand0_stride": [10, 2],
                   "_operand0_storage_offset": 0}
    assert cond_operand_layouts._cond_values(cond) == [(base, True)]
    assert require_cond_operand_layouts(gm) == [] and not forced(gm)
