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
