"""The serving step of the model zoo: one decode step of a small Llama-like decoder written the
way serving engines write it (vLLM's model code over its ``_C`` kernels), with the kernels as
custom ops that mutate their arguments (benchmarks/zoo_serving_ops.py), random weights, no
download.

Per layer: RMSNorm into a fresh buffer (the first layer) or a fused add + RMSNorm updating the
hidden state and the residual in place; one ``qkv`` projection split into q, k, v, rotary
embedding applied in place to the q and k slices; the new keys and values written into this
layer of the stacked caches (``key_cache[layer]``, a view of a graph input) at ``slot_mapping``;
attention over the cache (plain torch, GQA); a fused add + RMSNorm; SiLU-and-mul into an ``out``
buffer; the down projection.  A decode batch of sequences at different positions, one token
each, every sequence owning a contiguous run of cache slots.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List

import torch
from torch import Tensor, nn

from zoo_serving_ops import define

ops = define()


@dataclass(frozen=True)
class ServingConfig:
    vocab: int = 512
    hidden: int = 256
    intermediate: int = 512
    layers: int = 4
    heads: int = 8
    kv_heads: int = 4
    head_size: int = 32
    batch: int = 4                     # sequences in the decode batch, one token each
    slots_per_seq: int = 128           # cache slots each sequence owns (contiguous)
    first_positions: tuple = (8, 24, 40, 56)    # where each sequence is at the first call
    epsilon: float = 1e-6
    rope_theta: float = 10000.0

    @property
    def slots(self) -> int:
        return self.batch * self.slots_per_seq

    @property
    def max_calls(self) -> int:
        """Calls before the longest sequence runs out of its slots."""
        return self.slots_per_seq - max(self.first_positions)


class ServingDecoder(nn.Module):
    """The decoder; ``forward`` is one decode step, the caches passed in and updated in place."""

    def __init__(self, config: ServingConfig, generator: torch.Generator):
        super().__init__()
        c = self.config = config

        def weight(*shape, scale=None):
            scale = scale if scale is not None else shape[-1] ** -0.5
            return nn.Parameter(torch.randn(*shape, generator=generator) * scale, requires_grad=False)

        qkv = (c.heads + 2 * c.kv_heads) * c.head_size
        self.embed = weight(c.vocab, c.hidden, scale=1.0)
        self.input_norm = weight(c.layers, c.hidden, scale=0.1)
        self.post_norm = weight(c.layers, c.hidden, scale=0.1)
        self.final_norm = weight(c.hidden, scale=0.1)
        self.qkv_proj = weight(c.layers, qkv, c.hidden)
        self.o_proj = weight(c.layers, c.hidden, c.heads * c.head_size)
        self.gate_up_proj = weight(c.layers, 2 * c.intermediate, c.hidden)
        self.down_proj = weight(c.layers, c.hidden, c.intermediate)
        self.lm_head = weight(c.vocab, c.hidden)
        with torch.no_grad():
            for w in (self.input_norm, self.post_norm, self.final_norm):
                w.add_(1.0)
        inv_freq = 1.0 / c.rope_theta ** (torch.arange(0, c.head_size, 2, dtype=torch.float32) / c.head_size)
        freqs = torch.outer(torch.arange(c.slots_per_seq, dtype=torch.float32), inv_freq)
        self.register_buffer("cos_sin_cache", torch.cat((freqs.cos(), freqs.sin()), dim=-1))

    def attention(self, q: Tensor, key_cache: Tensor, value_cache: Tensor, positions: Tensor) -> Tensor:
        """Decode attention over the cache, sequence b over its slots 0..positions[b], written
        element-wise (products and sums over the cache's own layout, as a paged-attention kernel
        reads it: a matmul would first copy the cache into the layout it wants)."""
        c = self.config
        group = c.heads // c.kv_heads
        q = q.view(c.batch, 1, c.kv_heads, group, c.head_size) * c.head_size ** -0.5
        keys = key_cache.view(c.batch, c.slots_per_seq, c.kv_heads, 1, c.head_size)
        values = value_cache.view(c.batch, c.slots_per_seq, c.kv_heads, 1, c.head_size)
        scores = (q * keys).sum(-1)                                                  # [b, slots, kv, group]
        seen = torch.arange(c.slots_per_seq, device=q.device) <= positions[:, None]
        weights = scores.masked_fill(~seen[:, :, None, None], float("-inf")).softmax(1)
        out = (weights[..., None] * values).sum(1)                                   # [b, kv, group, d]
        return out.reshape(c.batch, c.heads * c.head_size)

    def forward(self, tokens: Tensor, positions: Tensor, slot_mapping: Tensor, key_cache: Tensor,
                value_cache: Tensor):
        c = self.config
        q_size, kv_size = c.heads * c.head_size, c.kv_heads * c.head_size
        hidden, residual = self.embed[tokens], None
        for layer in range(c.layers):
            if residual is None:
                residual, hidden = hidden, torch.empty_like(hidden)
                ops.rms_norm(hidden, residual, self.input_norm[layer], c.epsilon)
            else:
                ops.fused_add_rms_norm(hidden, residual, self.input_norm[layer], c.epsilon)
            qkv = torch.nn.functional.linear(hidden, self.qkv_proj[layer])
            q, k, v = qkv.split([q_size, kv_size, kv_size], dim=-1)
            ops.rotary_embedding(positions, q, k, c.head_size, self.cos_sin_cache, True)
            ops.reshape_and_cache(k, v, key_cache[layer], value_cache[layer], slot_mapping)
            attn = self.attention(q, key_cache[layer], value_cache[layer], positions)
            hidden = torch.nn.functional.linear(attn, self.o_proj[layer])
            ops.fused_add_rms_norm(hidden, residual, self.post_norm[layer], c.epsilon)
            gate_up = torch.nn.functional.linear(hidden, self.gate_up_proj[layer])
            activated = torch.empty(c.batch, c.intermediate, dtype=gate_up.dtype, device=gate_up.device)
            ops.silu_and_mul(activated, gate_up)
            hidden = torch.nn.functional.linear(activated, self.down_proj[layer])
        ops.fused_add_rms_norm(hidden, residual, self.final_norm, c.epsilon)
        return torch.nn.functional.linear(hidden, self.lm_head), residual


@dataclass
class ServingInputs:
    """What call ``i`` passes: a token per sequence, its position and its cache slot."""
    tokens: List[Tensor]
    positions: List[Tensor]
    slot_mapping: List[Tensor]


def serving_inputs(config: ServingConfig, calls: int) -> ServingInputs:
    g = torch.Generator().manual_seed(1)
    first = torch.tensor(config.first_positions, dtype=torch.int64)
    starts = torch.arange(config.batch, dtype=torch.int64) * config.slots_per_seq
    tokens = [torch.randint(0, config.vocab, (config.batch,), generator=g) for _ in range(calls)]
    positions = [first + i for i in range(calls)]
    return ServingInputs(tokens, positions, [starts + p for p in positions])


def serving_caches(config: ServingConfig) -> Dict[str, Tensor]:
    """Stacked key and value caches ``[layers, slots, kv_heads, head_size]``, random (as a
    prefill would have left them)."""
    g = torch.Generator().manual_seed(2)
    shape = (config.layers, config.slots, config.kv_heads, config.head_size)
    return {"key_cache": torch.randn(shape, generator=g), "value_cache": torch.randn(shape, generator=g)}
