"""Grouped-query attention in a training step: the backward graph takes the repeated key and
value too, and their gradients sum over each group through the repeat.  The rule is for
inference graphs only and must leave the forward alone; gradients match eager."""
import torch
import torch.nn.functional as F

EXPECT = """
not fires: attention_reads_grouped_heads
matches_eager atol=1e-5 rtol=1e-5
"""
MODE = "training"
CALLS = 3
DYNAMIC = False


def repeat_kv(h, n_rep):
    b, kv, s, d = h.shape
    h = h[:, :, None, :, :].expand(b, kv, n_rep, s, d)
    return h.reshape(b, kv * n_rep, s, d)


def fn(q, k, v):
    return F.scaled_dot_product_attention(q, repeat_kv(k, 2), repeat_kv(v, 2), scale=0.25)


def inputs():
    torch.manual_seed(0)
    return (torch.randn(2, 4, 6, 8, requires_grad=True), torch.randn(2, 2, 6, 8, requires_grad=True),
            torch.randn(2, 2, 6, 8, requires_grad=True))
