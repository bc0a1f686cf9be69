"""What a graph the legality check cannot read may still get: copies of values no node writes,
read in their place (``rewrite/engine/value_copies.py``), and nothing else."""
import torch

from graphs import post_grad

from rewrite.analysis.facts.op_facts import MATERIALIZED_COPY
from rewrite.engine.value_copies import only_copies_values


def graph():
    def f(x):
        y = x * 2
        return y + 1

    gm = post_grad(f, torch.arange(6.0))
    [x] = [n for n in gm.graph.nodes if n.op == "placeholder"]
    [mul] = [n for n in gm.graph.nodes if n.target == torch.ops.aten.mul.Tensor]
    [add] = [n for n in gm.graph.nodes if n.target == torch.ops.aten.add.Tensor]
    return gm, x, mul, add


def copy_after(gm, value):
    with gm.graph.inserting_after(value):
        copy = gm.graph.call_function(MATERIALIZED_COPY, (value,))
    copy.meta.update(value.meta)
    return copy


def rewire(node, old, new):
    before = (tuple(node.args), dict(node.kwargs))
    node.replace_input_with(old, new)
    return {node: before}


def test_a_copy_of_an_unwritten_value_read_in_its_place_is_accepted():
    gm, _, mul, add = graph()
    copy = copy_after(gm, mul)
    assert only_copies_values([copy], [], rewire(add, mul, copy)) == ""


def test_copies_of_inputs_views_and_written_values_are_refused():
    gm, x, mul, add = graph()
    copy = copy_after(gm, x)
    assert "placeholder" in only_copies_values([copy], [], {})
    with gm.graph.inserting_after(mul):
        view = gm.graph.call_function(torch.ops.aten.slice.Tensor, (mul, 0, 0, 3))
    view.meta["val"] = mul.meta["val"][0:3]
    assert "a view" in only_copies_values([copy_after(gm, view)], [], {})
    with gm.graph.inserting_before(add):
        write = gm.graph.call_function(torch.ops.aten.copy_.default, (view, view))
    assert "which" in only_copies_values([copy_after(gm, mul)], [], {}) and write.name in \
        only_copies_values([copy_after(gm, mul)], [], {})


def test_anything_else_is_refused():
    gm, x, mul, add = graph()
    copy = copy_after(gm, mul)
    assert "erases" in only_copies_values([copy], [add], {})
    with gm.graph.inserting_after(mul):
        other = gm.graph.call_function(torch.ops.aten.neg.default, (mul,))
    assert "not a copy" in only_copies_values([other], [], {})
    assert "rewires" in only_copies_values([copy], [], rewire(add, mul, x))
