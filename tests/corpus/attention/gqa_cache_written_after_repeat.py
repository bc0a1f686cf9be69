"""The cache is repeated first and updated after: attention must see the cache from before the
update.  In the functional graph the update reaches the cache only in the copy-back at the end,
so attention could read the cache itself; the legality check's model of Inductor's lowering
still refuses it today (it takes the copy-back's loop to read the cache where attention now
reads it: conservative, see the closing note of 2026-12-01).  The update must not be written in
place before attention either (the reinplacing rule stops at `safe`).  Where the write comes
before attention in the graph, the legality check refuses the rule on values
(tests/engine/test_grouped_heads.py)."""
import torch
import torch.nn.functional as F

EXPECT = """
rejects: reinplace_update_into_input at safe
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def repeat_kv(h, n_rep):
    b, kv, s, d = h.shape
    h = h[:, :, None, :, :].expand(b, kv, n_rep, s, d)
    return h.reshape(b, kv * n_rep, s, d)


def fn(q, k_cache, v_cache, k_new, pos):
    k = repeat_kv(k_cache, 2)
    k_cache.index_copy_(2, pos, k_new)
    return F.scaled_dot_product_attention(q, k, repeat_kv(v_cache, 2), scale=0.25)


def inputs():
    torch.manual_seed(0)
    return (torch.randn(2, 4, 1, 8), torch.randn(2, 2, 16, 8), torch.randn(2, 2, 16, 8),
            torch.randn(2, 2, 1, 8), torch.tensor([3]))
