"""One decoder step of grouped-query attention over a static KV cache, as transformers writes it:
the new key/value go into the cache with `index_copy_`, `repeat_kv` copies each of the 2 cache
heads twice (`x[:, :, None].expand(...).reshape(...)`), and attention reads the copies.  The
CPU flash-attention kernel reads grouped heads itself, so the rule hands it the caches: no copy
of either cache is left, and the update into the cache is written in place."""
import torch
import torch.nn.functional as F

EXPECT = """
fires: attention_reads_grouped_heads
fires: reinplace_update_into_input count=2
absent: aten.clone
absent: aten.expand
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def repeat_kv(h, n_rep):
    b, kv, s, d = h.shape
    h = h[:, :, None, :, :].expand(b, kv, n_rep, s, d)
    return h.reshape(b, kv * n_rep, s, d)


def fn(q, k_cache, v_cache, k_new, v_new, pos, mask):
    k_cache.index_copy_(2, pos, k_new)
    v_cache.index_copy_(2, pos, v_new)
    k = repeat_kv(k_cache, 2)
    v = repeat_kv(v_cache, 2)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.25)


def inputs():
    torch.manual_seed(0)
    mask = torch.zeros(2, 1, 1, 16)
    mask[..., 9:] = float("-inf")
    return (torch.randn(2, 4, 1, 8), torch.randn(2, 2, 16, 8), torch.randn(2, 2, 16, 8),
            torch.randn(2, 2, 1, 8), torch.randn(2, 2, 1, 8), torch.tensor([8]), mask)
