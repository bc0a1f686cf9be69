"""Storage offsets named by an expression over the size symbols instead of ``sym_storage_offset``
(``rewrite/analysis/inductor/symbolic_offsets.py``): stock Inductor computes the latter wrong for
a view of an input."""
import operator

import torch
from torch._inductor import config as inductor_config

from graphs import post_grad

from rewrite.analysis.inductor.symbolic_offsets import name_offsets_by_sizes
from rewrite.analysis.semantics import layout_maps

v2_op = torch.ops.higher_order.auto_functionalized_v2


@torch.library.custom_op("rewrite_test::fill_row_and_column", mutates_args=("col", "row"))
def fill_row_and_column(col: torch.Tensor, row: torch.Tensor) -> None:
    col.fill_(7.0)
    row.fill_(-1.0)


@fill_row_and_column.register_fake
def _fill_fake(col, row):
    return None


def program(x):
    fill_row_and_column(x[:2][:, 1], x[2, 1:3])


def offsets(gm):
    return [n for n in gm.graph.nodes if n.target is torch.ops.aten.sym_storage_offset.default]


def test_a_symbolic_offset_is_named_by_its_expression_and_means_the_same():
    x = torch.arange(16.0).reshape(4, 4)
    with inductor_config.patch(enable_auto_functionalized_v2=True):
        gm = post_grad(program, x, dynamic=True)
    assert offsets(gm)
    notes = name_offsets_by_sizes(gm)
    gm.graph.lint()
    gm.recompile()
    assert notes and not offsets(gm)
    assert any(n.target.__name__ in ("add", "mul") for n in gm.graph.nodes if n.op == "call_function"
               and getattr(n.target, "__module__", "") == "_operator")
    want, got = x.clone(), x.clone()
    program(want)
    sizes = [n for n in gm.graph.nodes if n.op == "placeholder"]
    args = [4 if not isinstance(p.meta.get("val"), torch.Tensor) else got for p in sizes]
    with torch.inference_mode():
        gm(*args)
    assert torch.equal(got, want)


def test_static_offsets_are_left_alone():
    with inductor_config.patch(enable_auto_functionalized_v2=True):
        gm = post_grad(program, torch.arange(16.0).reshape(4, 4))
    code = gm.code
    assert name_offsets_by_sizes(gm) == [] and gm.code == code


@torch.library.custom_op("rewrite_test::double_all", mutates_args=("x",))
def double_all(x: torch.Tensor) -> None:
    x.mul_(2.0)


@double_all.register_fake
def _double_fake(x):
    return None


def two_calls(x):
    double_all(x)
    fill_row_and_column(x[-1][:2], x[0, 1:3])


def test_the_offset_of_a_view_of_a_calls_new_value_of_an_input_is_named_too():
    """The second call's views are of the first call's new value of `x` (fuzz p2407): Inductor
    makes that `x` itself, or a copy keeping its layout, and computes its `sym_storage_offset`
    wrong like that of a view of `x`."""
    x = torch.arange(16.0).reshape(4, 4)[:, 1:]
    with inductor_config.patch(enable_auto_functionalized_v2=True):
        gm = post_grad(two_calls, x, dynamic=True)
    views = [n.args[0] for n in offsets(gm)]
    roots = [layout_maps.chain_to(v)[0] for v in views]
    assert views and all(r.target is operator.getitem and r.args[0].target is v2_op for r in roots)
    notes = name_offsets_by_sizes(gm)
    gm.graph.lint()
    gm.recompile()
    assert len(notes) == len(views) and not offsets(gm)
    base = torch.arange(16.0).reshape(4, 4)
    want, got = base.clone(), base.clone()
    two_calls(want[:, 1:])
    args = []
    for p in (n for n in gm.graph.nodes if n.op == "placeholder"):
        val = p.meta.get("val")
        args.append(got[:, 1:] if isinstance(val, torch.Tensor) else int(p.meta["val"].node.hint))
    with torch.inference_mode():
        gm(*args)
    assert torch.equal(got, want)
