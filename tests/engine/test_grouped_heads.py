"""Attention that reads grouped key/value heads: the op knowledge the legality check relies on
(``evaluation._GROUPED_HEADS``), the repeat the analysis recognizes, and the check refusing the
shipped rule where the repeated tensor changed between the copy and attention."""
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from graphs import post_grad
from rewrite.analysis.semantics import evaluation, repeats

from rewrite.engine.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[2]


def repeat_kv(h, n_rep):
    b, kv, s, d = h.shape
    return h[:, :, None, :, :].expand(b, kv, n_rep, s, d).reshape(b, kv * n_rep, s, d)


@pytest.mark.parametrize("op", sorted(evaluation._GROUPED_HEADS, key=str))
@pytest.mark.parametrize("causal,masked", [(False, False), (False, True), (True, False)])
@pytest.mark.parametrize("kv_heads,n_rep,q_per_kv", [(2, 2, 1), (1, 4, 1), (2, 2, 2), (3, 1, 1)])
def test_grouped_op_computes_the_same_from_the_unrepeated_tensor(op, causal, masked, kv_heads, n_rep, q_per_kv):
    """The claim the legality check takes on trust: for every op it lists, passing ``x`` is the
    same as passing ``x.repeat_interleave(n, 1)`` (bit for bit), also where the query already
    has more heads than the repeated key (``q_per_kv``)."""
    torch.manual_seed(0)
    heads = kv_heads * n_rep * q_per_kv
    q = torch.randn(2, heads, 5, 8)
    k, v = torch.randn(2, kv_heads, 7, 8), torch.randn(2, kv_heads, 7, 8)
    mask = torch.randn(2, 1, 5, 7) if masked else None
    kw = dict(attn_mask=mask, scale=0.3) if masked else dict(scale=0.3)
    repeated = op(q, repeat_kv(k, n_rep), repeat_kv(v, n_rep), 0.0, causal, **kw)
    grouped = op(q, k, v, 0.0, causal, **kw)
    assert torch.equal(repeated[0], grouped[0])
    assert torch.equal(k.repeat_interleave(n_rep, 1), repeat_kv(k, n_rep))


def _flash(gm):
    return [n for n in gm.graph.nodes if n.target in evaluation._GROUPED_HEADS]


def test_the_repeat_is_recognized_and_tiling_is_not():
    def f(q, k, v):
        b, kv, s, d = k.shape
        tiled = k[:, None].expand(b, 2, kv, s, d).reshape(b, 2 * kv, s, d)
        return (F.scaled_dot_product_attention(q, repeat_kv(k, 2), repeat_kv(v, 2), scale=0.25),
                F.scaled_dot_product_attention(q, tiled, repeat_kv(v, 2), scale=0.25))

    gm = post_grad(f, torch.randn(2, 4, 1, 8), torch.randn(2, 2, 6, 8), torch.randn(2, 2, 6, 8))
    grouped, tiled = _flash(gm)
    k, v = repeats.interleaved_source(grouped.args[1], 1), repeats.interleaved_source(grouped.args[2], 1)
    assert k.op == v.op == "placeholder" and k is not v
    root = tiled.args[1]
    while root.op != "placeholder":
        root = root.args[0]
    assert root is k
    assert repeats.interleaved_source(grouped.args[1], 2) is None
    assert repeats.interleaved_source(tiled.args[1], 1) is None


def test_dropout_makes_each_call_its_own_value():
    op = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default

    class N:
        name = "attn"

    assert evaluation._random_identity(N, op, (None, None, None, 0.0), {}) is None
    assert evaluation._random_identity(N, op, (None, None, None), {}) is None
    assert evaluation._random_identity(N, op, (None, None, None, 0.1), {}) == "attn"


def test_refused_where_the_cache_is_written_between_the_copy_and_attention():
    """The cache is repeated, then updated, then attention reads the repeated copy.  Once the
    reinplacing rule writes the update into the cache in place (between the copy and
    attention), handing attention the cache would show it the new row: the check compares the
    cache as the copy read it with the cache as attention would read it, and refuses."""
    def f(kc, vc, pos, k_new, q):          # arguments in the order the graph first uses them
        k, v = repeat_kv(kc, 2), repeat_kv(vc, 2)
        kc.index_copy_(2, pos, k_new)
        return F.scaled_dot_product_attention(q, k, v, scale=0.25)

    def make():
        torch.manual_seed(0)
        return (torch.randn(2, 2, 6, 8), torch.randn(2, 2, 6, 8), torch.tensor([3]),
                torch.randn(2, 2, 1, 8), torch.randn(2, 4, 1, 8))

    gm = post_grad(f, *make())
    [attn] = _flash(gm)
    [update] = [n for n in gm.graph.nodes if n.target is torch.ops.aten.index_put.default]
    attn.prepend(update)                   # as the program wrote it: the copy first, the update after
    assert attn.args[1].args[0] < update < attn
    gm.recompile()
    rules = RuleSet.load([ROOT / "rules" / "reinplace.rules", ROOT / "rules" / "attention.rules"])
    report = rules.apply(gm)
    assert any(c.rule == "reinplace_update_into_input" and c.fired for c in report.candidates)
    cands = [c for c in report.candidates if c.rule == "attention_reads_grouped_heads"]
    assert not any(c.fired for c in cands), [c.line() for c in cands]
    [cand] = cands
    assert cand.stopped_at == "legality", cand.line()
    assert "different value" in cand.reason, cand.reason
    eager_in, graph_in = make(), make()
    with torch.inference_mode():
        for _ in range(3):
            assert torch.equal(f(*eager_in), gm(*graph_in)[0])
            assert all(torch.equal(a, b) for a, b in zip(eager_in, graph_in))


def test_replacing_an_op_with_several_results_compares_each(tmp_path):
    """Validation compares every result of a multi-result op (here the attention output and its
    logsumexp): a replacement computing attention for other queries is refused."""
    def f(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, scale=0.25)

    def make():
        torch.manual_seed(0)
        return torch.randn(2, 4, 1, 8), torch.randn(2, 4, 6, 8), torch.randn(2, 4, 6, 8)

    gm = post_grad(f, *make())
    before = gm.code
    path = tmp_path / "wrong.rules"
    path.write_text("rule other_queries\n"
                    "  stage      inference\n"
                    "  match      a = aten._scaled_dot_product_flash_attention_for_cpu(q, k, v, p, causal, scale=s)\n"
                    "  rewrite    g = aten._scaled_dot_product_flash_attention_for_cpu.default(k, k, v, p, causal, scale=s);\n"
                    "             replace_uses(a, g);\n"
                    "             erase(a)\n")
    report = RuleSet.load([path]).apply(gm)
    [cand] = [c for c in report.candidates if c.rule == "other_queries"]
    assert not cand.fired and "cannot replace" in cand.reason, cand.line()
    assert gm.code == before
