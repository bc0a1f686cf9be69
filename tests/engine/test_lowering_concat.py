"""A write into the result of a ``cat`` while a lazy input of the ``cat`` is read after the write:
Inductor computes such an input straight into its slice of the result (``ConcatKernel``), so the
later reader sees the write, unless Inductor's scheduler happens to run the reader first (it does
not see that the reader's buffer is a view of the written one).  The lowering model calls this a
hazard ("concat_input").  Whether Inductor goes wrong depends on its scheduling, so the proof is
end to end: the corpus case `custom_ops/fuzz_write_into_cat_whose_input_is_read_after_p3718_v1`
(its output code has the input computed into the `cat`'s buffer and the copy after the call)."""
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

from rewrite.analysis.inductor.lowering import LoweringModel

aten = torch.ops.aten


def input_read_after(a, w):
    add = aten.add.Tensor(a, 1.0)
    c = aten.cat.default([add, aten.mul.Tensor(add, 2.0)])
    aten.mul_.Tensor(aten.slice.Tensor(c, 0, 0, 5), 3.0)
    aten.copy_.default(w, add)
    return (aten.slice.Tensor(c, 0, 5, 10),)


def input_read_before(a, w):
    add = aten.add.Tensor(a, 1.0)
    c = aten.cat.default([add, aten.mul.Tensor(add, 2.0)])
    aten.copy_.default(w, add)
    aten.mul_.Tensor(aten.slice.Tensor(c, 0, 0, 5), 3.0)
    return (c,)


def inputs_are_graph_inputs(a, w):
    c = aten.cat.default([a, w])
    aten.mul_.Tensor(aten.slice.Tensor(c, 0, 0, 5), 3.0)
    return (c, aten.add.Tensor(a, 1.0))


def inputs():
    return torch.arange(15.0).reshape(5, 3), torch.zeros(5, 3)


HAZARD = [input_read_after]
SAFE = [input_read_before, inputs_are_graph_inputs]


def traced(fn):
    with torch.inference_mode():
        return make_fx(fn)(*inputs())


@pytest.mark.parametrize("fn", HAZARD + SAFE, ids=lambda f: f.__name__)
def test_model_flags_a_write_into_a_cat_whose_lazy_input_is_read_after(fn):
    gm = traced(fn)
    hazards = [h for h in LoweringModel(gm.graph).hazards() if h.kind == "concat_input"]
    assert bool(hazards) == (fn in HAZARD), [h.describe() for h in hazards]
    if hazards:
        assert "writes the result of a `cat`" in hazards[0].describe()
