"""Symbolic sizes stay symbolic: the rules add no guard, so a ``dynamic=True`` program compiled
with the rewrite backend is compiled as often as with stock torch.compile (once per frame here),
while the rules still fire and the results match eager on every call."""
import pytest
import torch
from torch._dynamo.utils import counters

from rewrite.backend import make_backend

LENGTHS = (128, 192, 256, 384)


def decode_step(cache, pos, new):
    """A static-cache write (`index_copy_` at one position) and a slice update of the cache."""
    cache.index_copy_(2, pos, new)
    cache[:, :, 1:-1].add_(1.0)
    return (cache * 2).sum()


def sweep(backend):
    """Frames compiled while calling ``decode_step`` on caches of four lengths, three calls each."""
    torch._dynamo.reset()
    counters.clear()
    compiled = torch.compile(decode_step, backend=backend, dynamic=True)
    with torch.no_grad():
        for length in LENGTHS:
            cache = torch.zeros(2, 2, length, 8)
            expected = cache.clone()
            for j in range(3):
                pos, new = torch.tensor([j]), torch.randn(2, 2, 1, 8)
                got, want = compiled(cache, pos, new), decode_step(expected, pos, new)
                torch.testing.assert_close(got, want)
                assert torch.equal(cache, expected)
    return counters["frames"]["ok"]


def fired(backend):
    return [c.rule for r in backend.reports for c in r.candidates if c.stopped_at is None]


def test_rules_on_symbolic_shapes_add_no_guard():
    backend = make_backend(base="eager", cache=False)
    assert sweep(backend) == 1
    assert "reinplace_update_into_input" in fired(backend)


@pytest.mark.inductor
def test_inductor_recompiles_no_more_than_stock():
    stock = sweep("inductor")
    backend = make_backend(base="inductor", cache=False)
    assert sweep(backend) == stock
    assert "reinplace_update_into_input" in fired(backend)
