"""Storage offsets named by an expression over the size symbols instead of ``sym_storage_offset``
(``rewrite/analysis/inductor/symbolic_offsets.py``): stock Inductor computes the latter wrong for
a view of an input."""
import torch
from torch._inductor import config as inductor_config

from graphs import post_grad

from rewrite.analysis.inductor.symbolic_offsets import name_offsets_by_sizes


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
