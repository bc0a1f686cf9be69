"""The shipped rules and backend on CUDA tensors (Inductor's Triton path).  Skipped without CUDA."""
import pytest
import torch

from rewrite.backend import make_backend
from rewrite.testing.checks import op_count

pytestmark = [pytest.mark.cuda, pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")]


def loop_cond_mutates(state):
    state.mul_(0.8)

    def cond(i, acc):
        state.mul_(0.5)
        return i < 2

    def body(i, acc):
        return i + 1, acc + state

    i, acc = torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64, device=state.device),
                                           torch.zeros_like(state)))
    return i, acc, state.clone()


def composed(field, delta, indices, gain):
    field[1:-1].add_(delta)
    values = torch.index_select(field, 0, indices) * gain
    field.index_copy_(0, indices, values)


def composed_inputs(n=1 << 16):
    g = torch.Generator(device="cuda").manual_seed(0)
    field = torch.randn(n, device="cuda", generator=g)
    delta = torch.randn(n - 2, device="cuda", generator=g)
    indices = torch.randperm(n, device="cuda", generator=g)[:256]
    return field, delta, indices, torch.tensor(1.5, device="cuda")


@pytest.mark.parametrize("base", ["eager", "inductor"])
def test_slice_then_indexed_update_on_cuda(base):
    torch._dynamo.reset()
    be = make_backend(base=base, cache=False)
    eager_in, comp_in = composed_inputs(), composed_inputs()
    compiled = torch.compile(composed, backend=be, fullgraph=True)
    with torch.inference_mode():
        for _ in range(3):
            composed(*eager_in)
            compiled(*comp_in)
            torch.cuda.synchronize()
            for a, b in zip(eager_in, comp_in):
                torch.testing.assert_close(a, b)
    assert "reinplace_update_into_input" in be.fired()
    post = [r for r in be.reports if r.graph == "inference"][-1]
    assert op_count(post.ops_before, "aten.slice_scatter") and not op_count(post.ops_after, "aten.slice_scatter")
    assert not op_count(post.ops_after, "aten.clone")


@pytest.mark.parametrize("base", ["eager", "inductor"])
def test_while_loop_cond_mutation_on_cuda(base):
    torch._dynamo.reset()
    be = make_backend(base=base, cache=False)
    compiled = torch.compile(loop_cond_mutates, backend=be, fullgraph=True)
    with torch.inference_mode():
        s_e, s_c = torch.ones(4, device="cuda"), torch.ones(4, device="cuda")
        for _ in range(3):
            out_e, out_c = loop_cond_mutates(s_e), compiled(s_c)
            for a, b in zip(out_e, out_c):
                torch.testing.assert_close(a, b)
            torch.testing.assert_close(s_e, s_c)
    assert "while_loop_captured_mutations" in be.fired()
