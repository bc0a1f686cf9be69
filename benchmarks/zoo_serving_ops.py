"""Custom ops modelled on serving kernels (vLLM's ``_C`` ops), written with plain torch ops so
that they run on CPU: the mutation a serving step puts in a compiled graph, through
``torch.library.custom_op(..., mutates_args=...)``.

* ``rms_norm(out, input, weight, epsilon)``: writes RMSNorm(input) * weight into ``out``;
* ``fused_add_rms_norm(input, residual, weight, epsilon)``: ``residual += input``, then
  ``input = RMSNorm(residual) * weight``: updates both in place;
* ``rotary_embedding(positions, query, key, head_size, cos_sin_cache, is_neox)``: rotates
  ``query`` and ``key`` (``[tokens, heads * head_size]``, any strides) in place;
* ``reshape_and_cache(key, value, key_cache, value_cache, slot_mapping)``: writes each token's key
  and value into its slot of the caches (``[slots, kv_heads, head_size]``);
* ``silu_and_mul(out, input)``: writes SiLU(first half) * second half into ``out``.

Every kernel writes only the arguments its schema marks mutated, reads only its arguments, and
handles non-contiguous views (a compiler may hand it a slice of a larger buffer).  The ops are
defined once per process, in the namespace ``zoo_serving`` (:func:`define`); :data:`ops` is
``torch.ops.zoo_serving`` once they are.
"""
from __future__ import annotations

import torch
from torch import Tensor

NAMESPACE = "zoo_serving"
NAMES = ("rms_norm", "fused_add_rms_norm", "rotary_embedding", "reshape_and_cache", "silu_and_mul")


def _rms(x: Tensor, weight: Tensor, epsilon: float) -> Tensor:
    x32 = x.float()
    return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + epsilon)).to(x.dtype) * weight


def _rms_norm(out: Tensor, input: Tensor, weight: Tensor, epsilon: float) -> None:
    out.copy_(_rms(input, weight, epsilon))


def _fused_add_rms_norm(input: Tensor, residual: Tensor, weight: Tensor, epsilon: float) -> None:
    residual.add_(input)
    input.copy_(_rms(residual, weight, epsilon))


def _rotate(x: Tensor, cos: Tensor, sin: Tensor, head_size: int, is_neox: bool) -> None:
    """Rotate ``x`` ``[tokens, heads * head_size]`` in place; cos, sin: ``[tokens, 1, rot / 2]``."""
    heads = x.unflatten(-1, (-1, head_size))          # a view: the last dimension has stride 1
    if is_neox:
        half = head_size // 2
        x1, x2 = heads[..., :half], heads[..., half:]
    else:
        x1, x2 = heads[..., 0::2], heads[..., 1::2]
    o1 = x1 * cos - x2 * sin
    o2 = x2 * cos + x1 * sin
    x1.copy_(o1)
    x2.copy_(o2)


def _rotary_embedding(positions: Tensor, query: Tensor, key: Tensor, head_size: int, cos_sin_cache: Tensor,
                      is_neox: bool) -> None:
    cos, sin = cos_sin_cache[positions].unsqueeze(-2).chunk(2, dim=-1)
    _rotate(query, cos, sin, head_size, is_neox)
    _rotate(key, cos, sin, head_size, is_neox)


def _reshape_and_cache(key: Tensor, value: Tensor, key_cache: Tensor, value_cache: Tensor,
                       slot_mapping: Tensor) -> None:
    key_cache.index_copy_(0, slot_mapping, key.reshape(-1, *key_cache.shape[1:]))
    value_cache.index_copy_(0, slot_mapping, value.reshape(-1, *value_cache.shape[1:]))


def _silu_and_mul(out: Tensor, input: Tensor) -> None:
    gate, up = input.chunk(2, dim=-1)
    out.copy_(torch.nn.functional.silu(gate) * up)


KERNELS = {
    "rms_norm": (_rms_norm, ("out",)),
    "fused_add_rms_norm": (_fused_add_rms_norm, ("input", "residual")),
    "rotary_embedding": (_rotary_embedding, ("query", "key")),
    "reshape_and_cache": (_reshape_and_cache, ("key_cache", "value_cache")),
    "silu_and_mul": (_silu_and_mul, ("out",)),
}


def _defined(name: str) -> bool:
    return torch._C._dispatch_has_kernel(f"{NAMESPACE}::{name}")


def define() -> "torch._ops._OpNamespace":
    """Define the ops (once per process: a second call, from this module imported under another
    name too, finds them defined and leaves them) and return their namespace."""
    for name, (kernel, mutated) in KERNELS.items():
        if _defined(name):
            continue
        op = torch.library.custom_op(f"{NAMESPACE}::{name}", kernel, mutates_args=mutated)
        op.register_fake(lambda *args, **kwargs: None)
    return getattr(torch.ops, NAMESPACE)


ops = define()
