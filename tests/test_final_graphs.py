"""rewrite.testing.final_graphs: parsing the post-grad graphs Inductor logs, and finding copies."""
import logging

import pytest
import torch

from rewrite.testing.final_graphs import (LOGGER_NAME, capture_final_graphs, parse_final_graph, parse_log_message,
                                          parse_type, summarize)

# As logged by torch 2.13 for `x[1:3].add_(d); x.index_copy_(0, idx, v); return (x * 2).sum()`
# (x: f32[8, 4]), after Inductor's reinplacing: the index_put became index_put_, the slice_scatter
# (a full copy of x) stays, and copy_ writes the result back into x.
SCATTER_CHAIN = '''TRACED GRAPH
 ===== AFTER POST GRAD =====
 /x/torch/fx/_lazy_graph_module.py class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 4][4, 1]cpu", arg1_1: "f32[2, 4][4, 1]cpu", arg2_1: "i64[2][1]cpu", arg3_1: "f32[2, 4][4, 1]cpu"):
        # File: /tmp/case.py:9 in f, code: x[1:3].add_(d)
        slice_1: "f32[2, 4][4, 1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 0, 1, 3)
        add: "f32[2, 4][4, 1]cpu" = torch.ops.aten.add.Tensor(slice_1, arg1_1);  slice_1 = arg1_1 = None

        # No stacktrace found for following nodes
        slice_scatter_default: "f32[8, 4][4, 1]cpu" = torch.ops.aten.slice_scatter.default(arg0_1, add, 0, 1, 3);  add = None

        # File: /tmp/case.py:10 in f, code: x.index_copy_(0, idx, v)
        index_put: "f32[8, 4][4, 1]cpu" = torch.ops.aten.index_put_.default(slice_scatter_default, [arg2_1], arg3_1);  slice_scatter_default = arg2_1 = arg3_1 = None

        # File: /tmp/case.py:11 in f, code: return (x*2).sum()
        mul: "f32[8, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(index_put, 2)
        sum_1: "f32[][]cpu" = torch.ops.aten.sum.default(mul);  mul = None

        # File: /tmp/case.py:10 in f, code: x.index_copy_(0, idx, v)
        copy_: "f32[8, 4][4, 1]cpu" = torch.ops.aten.copy_.default(arg0_1, index_put);  arg0_1 = index_put = copy_ = None
        return (sum_1,)
'''

# A training forward with symbolic sizes, a multi-output op, a cond subgraph, a roll decomposed
# into a gather, a broadcast clone and a cat of an input (trimmed from real logs).
TRAINING_FORWARD = '''TRACED GRAPH
 ===== AFTER POST GRAD =====
 /x/torch/fx/_lazy_graph_module.py class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "Sym(s77)", primals_2: "f32[s77, 4][4, 1]cpu", primals_3: "f32[4][1]cpu", primals_4: "f32[64, 32][32, 1]cpu", primals_5: "f32[1, 16][16, 1]cpu", primals_6: "b8[][]cpu"):
        # File: /tmp/m.py:10 in f, code: y = bn(x)
        var_mean = torch.ops.aten.var_mean.correction(primals_2, [0], correction = 0, keepdim = True)
        getitem: "f32[1, 4][4, 1]cpu" = var_mean[0]
        getitem_1: "f32[1, 4][4, 1]cpu" = var_mean[1];  var_mean = None
        squeeze: "f32[4][1]cpu" = torch.ops.aten.squeeze.dims(getitem_1, [0]);  getitem_1 = None
        add_2: "f32[4][1]cpu" = torch.ops.aten.add.Tensor(squeeze, primals_3)
        sym_numel_default: "Sym(4*s77)" = torch.ops.aten.sym_numel.default(primals_2)
        truediv: "Sym(IntTrueDiv(4*s77, 4))" = sym_numel_default / 4;  sym_numel_default = None
        cat: "f32[2*s77, 4][4, 1]cpu" = torch.ops.aten.cat.default([primals_2, primals_2])

        # File: /tmp/m.py:12 in f, code: z = torch.cond(s, lambda a: a.sin(), lambda a: a.cos(), (y,))
        true_graph_0 = self.true_graph_0
        false_graph_0 = self.false_graph_0
        cond = torch.ops.higher_order.cond(primals_6, true_graph_0, false_graph_0, (primals_1, cat));  true_graph_0 = false_graph_0 = None
        getitem_2: "f32[2*s77, 4][4, 1]cpu" = cond[0];  cond = None

        # File: /tmp/m.py:14 in f, code: r = w.roll(-1, dims=0)
        iota: "i64[64][1]cpu" = torch.ops.prims.iota.default(64, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        fmod: "i64[64][1]cpu" = torch.ops.aten.fmod.Scalar(iota, 64)
        index: "f32[64, 32][32, 1]cpu" = torch.ops.aten.index.Tensor(primals_4, [fmod])
        index_1: "f32[8, 32][32, 1]cpu" = torch.ops.aten.index.Tensor(primals_4, [iota])

        # File: /tmp/m.py:15 in f, code: e = torch.cat((q, q), dim=-1)
        unsqueeze: "f32[1, 1, 16][16, 16, 1]cpu" = torch.ops.aten.unsqueeze.default(primals_5, 1)
        expand: "f32[1, 2, 16][16, 0, 1]cpu" = torch.ops.aten.expand.default(unsqueeze, [1, 2, 16])
        clone: "f32[1, 2, 16][32, 16, 1]cpu" = torch.ops.aten.clone.default(expand, memory_format = torch.contiguous_format)
        convert: "f16[1, 2, 16][32, 16, 1]cpu" = torch.ops.aten._to_copy.default(clone, dtype = torch.float16)

        # No stacktrace found for following nodes
        copy_: "f32[4][1]cpu" = torch.ops.aten.copy_.default(primals_3, add_2);  primals_3 = add_2 = copy_ = None
        return (getitem_2, primals_2, index, clone, convert, index_1, truediv)

    class true_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "Sym(s77)", arg1_1: "f32[2*s77, 4][4, 1]cpu"):
            # File: /tmp/m.py:12 in <lambda>, code: z = torch.cond(s, lambda a: a.sin(), lambda a: a.cos(), (y,))
            clone_1: "f32[2*s77, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
            return (clone_1,)

    class false_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "Sym(s77)", arg1_1: "f32[2*s77, 4][4, 1]cpu"):
            cos: "f32[2*s77, 4][4, 1]cpu" = torch.ops.aten.cos.default(arg1_1);  arg1_1 = None
            return (cos,)
'''


def test_types_keep_symbolic_dims_and_count_broadcast_elements_once():
    t = parse_type("f32[8, 4][4, 1]cpu")
    assert (t.dtype, t.shape, t.stride, t.device, t.nbytes) == ("f32", (8, 4), (4, 1), "cpu", 128)
    s = parse_type("bf16[Max(1, s0), 4*s1][4*s1, 1]cuda:0")
    assert s.shape == ("Max(1, s0)", "4*s1") and s.device == "cuda:0" and s.nbytes is None
    assert parse_type("f32[1, 2, 16][16, 0, 1]cpu").distinct_bytes == 64
    assert parse_type("f32[][]cpu").nbytes == 4
    assert parse_type("Sym(s77)") is None and parse_type("") is None


def test_nodes_operands_and_sources():
    g = parse_final_graph(SCATTER_CHAIN, "0/0")
    assert g.kind == "inference" and g.compile_id == "0/0"
    assert [p.name for p in g.main.placeholders] == ["arg0_1", "arg1_1", "arg2_1", "arg3_1"]
    node = g.main.by_name["index_put"]
    assert node.op == "aten.index_put_.default" and node.packet == "aten.index_put_"
    assert node.operands == ("slice_scatter_default", "arg2_1", "arg3_1")
    assert node.source == "/tmp/case.py:10 in f, code: x.index_copy_(0, idx, v)"
    assert g.main.by_name["slice_scatter_default"].source is None
    assert g.main.outputs == ("sum_1",)


def test_scatter_left_by_inductor_is_a_copy_and_copy_back_is_counted_apart():
    g = parse_final_graph(SCATTER_CHAIN)
    (copy,) = g.copies()
    assert (copy.node.name, copy.kind) == ("slice_scatter_default", "scatter")
    # reads the whole base (128 B) and the 2x4 source (32 B), writes 8x4 floats
    assert (copy.bytes_read, copy.bytes_written, copy.traffic_bytes) == (160, 128, 288)
    assert copy.source == "/tmp/case.py:9 in f, code: x[1:3].add_(d)"   # from its operand: Inductor made the node
    (back,) = g.copy_backs()
    assert (back.node.name, back.bytes_read, back.bytes_written) == ("copy_", 128, 128)
    assert back.fed_by == "slice_scatter_default"   # x copied out, updated in place, copied back
    s = summarize([g, g])
    assert (s.copies, s.copy_bytes, s.traffic, s.copy_backs, s.copy_back_traffic) == (2, 256, 576, 2, 512)


def test_training_forward_subgraphs_gathers_casts_and_state_cats():
    g = parse_final_graph(TRAINING_FORWARD)
    assert g.kind == "forward"
    assert [s.name for s in g.sections] == ["", "true_graph_0", "false_graph_0"]
    assert g.main.by_name["getitem"].op == "getitem" and g.main.by_name["truediv"].op == "sym"
    assert g.main.by_name["cond"].operands == ("primals_6", "true_graph_0", "false_graph_0", "primals_1", "cat")
    kinds = {(c.section, c.node.name): c.kind for c in g.copies()}
    assert kinds == {
        ("", "cat"): "state-cat",              # copies an input into a new buffer
        ("", "index"): "gather",               # a roll: as many elements as it reads
        ("", "clone"): "clone",                # index_1 (a smaller gather) and the f16 cast are not copies
        ("true_graph_0", "clone_1"): "clone",
    }
    by_name = {c.node.name: c for c in g.copies()}
    assert by_name["cat"].bytes_written is None and by_name["cat"].traffic_bytes is None   # symbolic
    assert (by_name["clone"].bytes_read, by_name["clone"].bytes_written) == (64, 128)     # broadcast read once
    assert [(c.node.name, c.fed_by) for c in g.copy_backs()] == [("copy_", None)]   # a computed value


def test_backward_kind_excerpt_and_colored_text():
    text = SCATTER_CHAIN.replace("arg", "tangents_").replace("slice_scatter_default:", "\x1b[2mslice_scatter_default\x1b[0m:")
    g = parse_final_graph(text)
    assert g.kind == "backward"
    (copy,) = g.copies()
    excerpt = g.excerpt(copy.node, before=1, after=1)
    assert excerpt.splitlines()[0].strip().startswith("add:")
    assert "# No stacktrace" in excerpt and excerpt.splitlines()[-1].strip().startswith("index_put:")
    assert "= None" not in excerpt   # the `;  x = None` deletions are dropped


def test_only_post_grad_messages_are_graphs():
    assert parse_log_message("TRACED GRAPH\n ===== BEFORE PRE GRAD =====\n" + SCATTER_CHAIN.split("\n", 3)[3]) is None
    assert parse_log_message(SCATTER_CHAIN).copies()
    with pytest.raises(ValueError):
        parse_final_graph("no graph here")


@pytest.mark.inductor
def test_capture_from_inductor_and_restore_the_logger():
    log = logging.getLogger(LOGGER_NAME)
    before = (log.level, log.propagate, list(log.handlers))

    def f(x, d, idx, v):   # the program of SCATTER_CHAIN, with a larger x
        x[1:3].add_(d)
        x.index_copy_(0, idx, v)
        return (x * 2).sum()

    torch._dynamo.reset()
    with capture_final_graphs() as graphs:
        torch.compile(f, backend="inductor")(torch.zeros(64, 4), torch.ones(2, 4), torch.tensor([0, 5]),
                                             torch.ones(2, 4))
    assert (log.level, log.propagate, list(log.handlers)) == before
    (g,) = graphs
    assert g.kind == "inference" and g.compile_id == "0/0"
    (copy,) = g.copies()
    assert copy.node.packet == "aten.slice_scatter" and copy.bytes_written == 64 * 4 * 4
    (back,) = g.copy_backs()
    assert back.fed_by == copy.node.name
