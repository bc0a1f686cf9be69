"""The eager base's adaptations of a post-grad graph to ATen's op-by-op rules."""
import torch
import torch.fx as fx
from torch._subclasses.fake_tensor import FakeTensorMode

from rewrite.eager_graph import runnable_as_aten

aten = torch.ops.aten


def _graph(build, *real):
    """A graph module built by ``build(graph, *placeholders)``, with fake values on every node."""
    g = fx.Graph()
    phs = [g.placeholder(f"a{i}") for i in range(len(real))]
    build(g, *phs)
    gm = fx.GraphModule(torch.nn.Module(), g)
    mode = FakeTensorMode()
    env = {}
    for n, t in zip(phs, real):
        env[n] = mode.from_tensor(t)
        n.meta["val"] = env[n]
    with mode:
        for n in g.nodes:
            if n.op == "call_function":
                args = fx.node.map_arg(n.args, lambda a: env[a])
                env[n] = n.target(*args)
                n.meta["val"] = env[n]
    return gm


def test_operand_sharing_the_written_memory_is_read_into_a_copy_first():
    """`index_put_(x, [idx], _unsafe_view(x))`: ATen refuses the overlap (and `_unsafe_view`
    has no alias annotation: the fake storages tell); the graph means the functional op."""
    def build(g, x, idx):
        v = g.call_function(aten._unsafe_view.default, (x, [4]))
        g.call_function(aten.index_put_.default, (x, [idx], v))
        g.output(None)

    x, idx = torch.arange(4.0), torch.tensor([1, 0, 3, 2])
    gm = _graph(build, x, idx)
    runnable_as_aten(gm)
    clones = [n for n in gm.graph.nodes if n.target is aten.clone.default]
    assert len(clones) == 1 and clones[0].args[0].target is aten._unsafe_view.default
    want = x.index_put([idx], x.clone())
    gm(x, idx)
    assert torch.equal(x, want)


def test_written_operand_and_unrelated_operands_are_left_alone():
    def build(g, x, y):
        g.call_function(aten.add_.Tensor, (x, y))
        g.output(None)

    gm = _graph(build, torch.ones(3), torch.ones(3))
    runnable_as_aten(gm)
    assert not [n for n in gm.graph.nodes if n.target is aten.clone.default]


def _slice_scatter_then_as_strided(g, x, src):
    """`as_strided(slice_scatter(x, src)[1:], [2], [1], 0)`: addresses the scatter's storage."""
    scattered = g.call_function(aten.slice_scatter.default, (x, src, 0, 0, 1))
    tail = g.call_function(aten.slice.Tensor, (scattered, 0, 1, 3))
    g.output(g.call_function(aten.as_strided.default, (tail, [2], [1], 0)))


def test_as_strided_addresses_a_computed_tensor_as_its_fake_value_is_laid_out():
    """ATen's `slice_scatter` of a view at offset 1 keeps offset 1 in a copy of the view's whole
    storage; its fake value in a post-grad graph (traced with Inductor's decompositions), and
    Inductor's buffer, start at 0, which `as_strided` counts from."""
    base = torch.tensor([9.0, 1.0, 2.0, 3.0])
    x, src = base[1:], torch.tensor([5.0])
    gm = _graph(_slice_scatter_then_as_strided, x, src)
    scattered = next(n for n in gm.graph.nodes if n.target is aten.slice_scatter.default)
    fake = scattered.meta["val"]
    with fake.fake_mode:
        scattered.meta["val"] = torch.empty(3)
    assert not torch.equal(gm(x, src), torch.tensor([5.0, 2.0]))   # the element before x: 9.0
    runnable_as_aten(gm)
    assert torch.equal(gm(x, src), torch.tensor([5.0, 2.0]))
    assert torch.equal(gm(base[:3].clone(), src), torch.tensor([5.0, 1.0]))   # laid out right: no copy needed


def test_laid_out_as_fake_copies_only_a_tensor_laid_out_otherwise():
    from rewrite.eager_graph import laid_out_as_fake

    dense = torch.arange(6.0).reshape(2, 3)
    assert laid_out_as_fake(dense, (1, 0)) is dense
    moved = laid_out_as_fake(torch.arange(7.0)[1:].reshape(2, 3), (1, 0))
    assert moved.storage_offset() == 0 and torch.equal(moved, torch.arange(1.0, 7.0).reshape(2, 3))
    columns = laid_out_as_fake(dense, (0, 1))
    assert columns.stride() == (1, 2) and torch.equal(columns, dense)


def test_inputs_are_not_relaid():
    """An input's layout is the caller's: `as_strided` of an input addresses the input's storage."""
    def build(g, x):
        g.output(g.call_function(aten.as_strided.default, (x, [2], [1], 0)))

    gm = _graph(build, torch.arange(4.0)[1:])
    runnable_as_aten(gm)
    assert [n.op for n in gm.graph.nodes] == ["placeholder", "call_function", "output"]
