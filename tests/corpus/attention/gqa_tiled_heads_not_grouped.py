"""Heads repeated by tiling (`repeat`, or `expand` before the heads dimension): query head h
reads key head h % kv, not h // n, which is not what an attention kernel with grouped heads
computes.  The rule must not fire on either form."""
import torch
import torch.nn.functional as F

EXPECT = """
not fires: attention_reads_grouped_heads
rejects: attention_reads_grouped_heads at where
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(q, k_cache, v_cache):
    b, kv, s, d = k_cache.shape
    k = k_cache[:, None].expand(b, 2, kv, s, d).reshape(b, 2 * kv, s, d)
    v = v_cache.repeat(1, 2, 1, 1)
    return F.scaled_dot_product_attention(q, k, v, scale=0.25)


def inputs():
    torch.manual_seed(0)
    return torch.randn(2, 4, 1, 8), torch.randn(2, 2, 16, 8), torch.randn(2, 2, 16, 8)
