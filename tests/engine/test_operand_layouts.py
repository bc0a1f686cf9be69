"""Computed tensors laid out as their fake values say (``rewrite/analysis/inductor/operand_layouts.py``):
stock Inductor compiles a ``cond``'s branches for its operands' strides and only realizes them, and
its decomposition of a custom op's functionalized call addresses the written memory by
``as_strided``."""
import torch
from torch._inductor import config as inductor_config

from graphs import post_grad

from rewrite.analysis.inductor import operand_layouts
from rewrite.analysis.inductor.operand_layouts import require_operand_layouts

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
    notes = require_operand_layouts(gm)
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
    notes = require_operand_layouts(gm)
    [force] = forced(gm)
    assert force.args[0].target is torch.ops.aten.mul.Tensor
    assert tuple(force.args[1]) == tuple(force.args[0].meta["val"].stride())
    assert force.meta["val"] is force.args[0].meta["val"] and "its own strides" in notes[0]
    gm.recompile()
    assert torch.equal(run(gm, x)[0], dense_operands(x))


def test_symbolic_strides_are_read_by_sym_stride():
    gm = graph_of(scatter_into_strided_input, strided_input(), dynamic=True)
    require_operand_layouts(gm)
    [force] = forced(gm)
    strides = force.args[1]
    assert any(isinstance(s, torch.fx.Node) and s.target is torch.ops.aten.sym_stride.int for s in strides)
    assert not any(isinstance(s, torch.SymInt) for s in strides)
    gm.graph.lint()


def test_inputs_and_their_views_are_left_alone():
    gm = graph_of(read_only, torch.arange(16.0).reshape(4, 4), torch.ones(4, 4))
    code = gm.code
    assert require_operand_layouts(gm) == [] and gm.code == code


def test_a_non_dense_base_that_an_operand_is_regenerated_from_by_as_strided_is_left_alone(monkeypatch):
    gm = graph_of(scatter_into_strided_input, strided_input())
    [cond] = [n for n in gm.graph.nodes if n.target is torch.ops.higher_order.auto_functionalized_v2]
    [(base, viewed)] = operand_layouts._cond_values(cond)
    assert not viewed
    cond.kwargs = {**cond.kwargs, "_operand0_size": [4, 5], "_operand0_stride": [10, 2],
                   "_operand0_storage_offset": 0}
    assert operand_layouts._cond_values(cond) == [(base, True)]
    assert require_operand_layouts(gm) == [] and not forced(gm)


@torch.library.custom_op("rewrite_test::add_rows_", mutates_args=("xs",))
def add_rows_(xs: list[torch.Tensor]) -> None:
    for j, t in enumerate(xs):
        t.add_(j + 1.0)


@add_rows_.register_fake
def _add_rows_fake(xs):
    return None


def rows_of_scatter_into_transpose(x):
    """Fuzz seed 31 p72: the rows a v1 call writes are views of a ``slice_scatter`` whose fake
    value is column-major (it scatters into the input's transpose)."""
    x.t()[:, 2:4][torch.tensor([1]), torch.tensor([0])] = 2.0
    add_rows_([x[:1], x[1:]])


def v1_graph(fn, *args):
    with inductor_config.patch(enable_auto_functionalized_v2=False):
        return post_grad(fn, *args)


def test_computed_memory_a_functionalized_call_writes_is_frozen_as_its_fake_value():
    x = torch.arange(16.0).reshape(4, 4)
    gm = v1_graph(rows_of_scatter_into_transpose, x.clone())
    notes = require_operand_layouts(gm)
    gm.graph.lint()
    [force] = forced(gm)
    root = force.args[0]
    assert root.target is torch.ops.aten.slice_scatter.default
    assert tuple(force.args[1]) == tuple(root.meta["val"].stride()) == (1, 4)      # column-major, as faked
    assert [u for u in root.users] == [force]                                     # every reader reads it
    assert len(notes) == 1 and "addresses that memory by as_strided" in notes[0]
    gm.recompile()
    want, got = x.clone(), x.clone()
    rows_of_scatter_into_transpose(want)
    run(gm, got)
    assert torch.equal(got, want)


def test_input_memory_a_functionalized_call_writes_is_left_alone():
    def rows_of_input(x):
        add_rows_([x[:1], x[1:]])

    gm = v1_graph(rows_of_input, torch.zeros(4, 4))
    code = gm.code
    assert require_operand_layouts(gm) == [] and gm.code == code
