"""The simulation of Inductor's reinplacing brings fake values up to date its own way
(``analysis/inductor/fake_refresh.py``): it must decide exactly what it decides with torch's
``FakeTensorUpdater.incremental_update``, and recompute fewer nodes."""
import pytest
import torch

from graphs import post_grad
from rewrite.analysis.inductor import fake_refresh, reinplace


def rotate_half(x, w):
    """Its backward scatters the gradient of each half into zeros (slice_scatter), then reads it
    through views and matmuls."""
    y = x @ w
    h = y.shape[-1] // 2
    return (torch.cat((-y[..., h:], y[..., :h]), dim=-1) @ w.t()).relu()


def chained_scatters(x, d):
    """A select_scatter inside a slice_scatter of one intermediate (fused by canonicalization),
    the result read through views and written back into the input."""
    t = x * 2
    t[1:3, 0].add_(d)
    t[0].mul_(3)
    x.copy_(t.t().contiguous().t())
    return t[1:].sum(0), t.reshape(-1)[:4] + 1


def scatter_into_input(x, d):
    x[2:5].add_(d)
    x[0].zero_()
    return (x * 2).sum()


def slice_update(x, d):
    """Inductor writes it in place (safe)."""
    x[2:5].add_(d)
    return x.sum()


def scatter_observed_after_zero(x, src):
    """pytorch 198094: Inductor would write the scatter into x (unsafe: y is returned)."""
    y = torch.slice_scatter(x, src[1:3], dim=0, start=1, end=3)
    x.zero_()
    return y


def shift_overlapping(x):
    """pytorch 197829: Inductor would write the update in place while its source still reads x."""
    x[1:] = x[:-1] * 2
    return x.view(2, -1).sum(0)


def foreach_step(ps, gs):
    torch._foreach_add_(ps, gs, alpha=-0.1)
    torch._foreach_mul_(ps, 0.9)


PROGRAMS = {
    "rotate_half backward": lambda: post_grad(rotate_half, torch.randn(3, 8, requires_grad=True),
                                              torch.randn(8, 8, requires_grad=True), kind="backward"),
    "rotate_half forward": lambda: post_grad(rotate_half, torch.randn(3, 8, requires_grad=True),
                                             torch.randn(8, 8, requires_grad=True), kind="forward"),
    "chained scatters": lambda: post_grad(chained_scatters, torch.randn(4, 3), torch.ones(2)),
    "chained scatters, dynamic": lambda: post_grad(chained_scatters, torch.randn(4, 3), torch.ones(2),
                                                   dynamic=True),
    "scatter into input": lambda: post_grad(scatter_into_input, torch.randn(8), torch.ones(3)),
    "slice update": lambda: post_grad(slice_update, torch.randn(8), torch.ones(3)),
    "scatter observed after zero": lambda: post_grad(scatter_observed_after_zero, torch.randn(4, 6),
                                                     torch.randn(4, 6)),
    "shift overlapping": lambda: post_grad(shift_overlapping, torch.randn(8)),
    "shift overlapping, dynamic": lambda: post_grad(shift_overlapping, torch.randn(8), dynamic=True),
    "foreach step": lambda: post_grad(foreach_step, [torch.randn(4), torch.randn(3)],
                                      [torch.randn(4), torch.randn(3)]),
}


def _torchs_own(monkeypatch):
    monkeypatch.setattr(fake_refresh, "refresh", lambda updater: updater.incremental_update())
    monkeypatch.setattr(fake_refresh, "reuse_replaced_values", lambda *args, **kwargs: 0)


def _outcome(gm):
    sim = reinplace.simulate(gm, gm.graph)
    judged = {n.name: (bool(d.unsafe), d.reads_own_source) for n, d in sim.judge().decisions.items()}
    return sim.error, judged, len(sim.final_copies)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_decisions_as_with_torchs_updater(name, monkeypatch):
    gm = PROGRAMS[name]()
    ours = _outcome(gm)
    with monkeypatch.context() as m:
        _torchs_own(m)
        theirs = _outcome(gm)
    assert ours == theirs
    assert ours[0] == ""


def test_the_programs_have_safe_and_unsafe_decisions():
    """So that the comparison above compares something."""
    unsafe = {flag for name in ("scatter observed after zero", "shift overlapping", "slice update")
              for flag, _ in _outcome(PROGRAMS[name]())[1].values()}
    assert unsafe == {True, False}


def test_fewer_nodes_recomputed(monkeypatch):
    """On the backward graph of rotate_half the scatters' new values cascade through every view
    downstream under torch's updater; here no node needs a new value."""
    gm = PROGRAMS["rotate_half backward"]()
    counts = {}

    def counting(name, real):
        def run(updater):
            counts[name] = real(updater)
            return counts[name]
        return run

    real_refresh = fake_refresh.refresh
    monkeypatch.setattr(fake_refresh, "refresh", counting("ours", real_refresh))
    reinplace.simulate(gm, gm.graph)
    monkeypatch.setattr(fake_refresh, "refresh", counting("torch", lambda u: u.incremental_update()))
    monkeypatch.setattr(fake_refresh, "reuse_replaced_values", lambda *args, **kwargs: 0)
    reinplace.simulate(gm, gm.graph)
    assert counts["torch"] >= 5
    assert counts["ours"] == 0
