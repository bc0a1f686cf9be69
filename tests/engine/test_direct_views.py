"""The views of a node include the items of a view list (``getitem(split(x), i)``), which are
users of the list, not of ``x``: every walker over "a node and its views" sees a write through
them (``op_facts.direct_views``)."""
import operator

import torch

from graphs import post_grad

from rewrite.analysis.facts import op_facts
from rewrite.analysis.semantics import layout_maps
from rewrite.engine.transaction import Transaction


def graph_writing_through_a_split_item():
    def f(x):
        y = x * 2
        return y + 1

    gm = post_grad(f, torch.arange(6.0))
    g = gm.graph
    [mul] = [n for n in g.nodes if n.target == torch.ops.aten.mul.Tensor]
    [add] = [n for n in g.nodes if n.target == torch.ops.aten.add.Tensor]
    with g.inserting_before(add):
        split = g.call_function(torch.ops.aten.split.Tensor, (mul, 3))
        item = g.call_function(operator.getitem, (split, 1))
        write = g.call_function(torch.ops.aten.add_.Scalar, (item, 1.0))
    split.meta["val"] = list(mul.meta["val"].split(3))
    item.meta["val"] = split.meta["val"][1]
    write.meta["val"] = item.meta["val"]
    return gm, mul, split, item, write


def test_the_items_of_a_split_are_direct_views_of_its_operand():
    _, mul, split, item, write = graph_writing_through_a_split_item()
    assert item in op_facts.direct_views(mul)
    assert split not in op_facts.direct_views(mul)      # a list, not a tensor in mul's memory
    assert op_facts.direct_views(item) == [write]   # an in-place result lives in item's memory


def test_a_write_through_a_split_item_writes_the_operand():
    _, mul, _, _, write = graph_writing_through_a_split_item()
    assert layout_maps.writer_of(mul) is write


def test_an_operand_no_item_writes_is_not_written():
    gm, mul, _, _, write = graph_writing_through_a_split_item()
    gm.graph.erase_node(write)
    assert layout_maps.writer_of(mul) is None


def test_rewiring_the_operand_of_a_split_refreshes_its_items():
    gm, mul, split, item, write = graph_writing_through_a_split_item()
    [x] = [n for n in gm.graph.nodes if n.op == "placeholder"]
    with gm.graph.inserting_before(split):
        wide = gm.graph.call_function(torch.ops.aten.cat.default, ([x, x],))
    wide.meta["val"] = torch.cat([x.meta["val"], x.meta["val"]])
    txn = Transaction(gm, gm.graph)
    txn.set_args(split, (wide, 3))
    assert len(split.meta["val"]) == 4 and item.meta["val"].storage_offset() == 3
    assert item.meta["val"].untyped_storage().nbytes() == 12 * 4
    txn.rollback()
    assert len(split.meta["val"]) == 2 and split.args[0] is mul
    assert item.meta["val"].untyped_storage().nbytes() == 6 * 4
