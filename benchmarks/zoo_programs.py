"""The model zoo: programs built from the libraries' own model code (transformers, torch.optim,
torch.nn.parallel) with small random configurations and random weights, no download.

A :class:`Program` builds an :class:`Instance` given a ``compile`` function (the identity for
eager, ``torch.compile`` with a backend otherwise).  Every instance of a program starts from the
same weights and sees the same inputs on call ``i``, so the backends can be compared call by call.
"""
from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")   # random weights from configs: never reach the hub

from dataclasses import dataclass  # noqa: E402
from typing import Any, Callable, Dict, List, Tuple  # noqa: E402

import torch  # noqa: E402

VOCAB = 512


@dataclass
class Instance:
    call: Callable[[int], Any]                    # runs call i of the program, returns its outputs
    state: Callable[[], Dict[str, torch.Tensor]]  # the tensors a call leaves behind, by name


@dataclass(frozen=True)
class Tolerance:
    """How far a backend's tensor may be from eager's after call ``n`` (1-based):
    max|got - eager| <= rtol * max|eager| + param_drift * n for parameters, rtol * max|eager|
    for everything else.  Relative to the tensor's largest magnitude rather than elementwise:
    float32 reassociation errors scale with the values summed, not with each result element."""
    rtol: float
    why: str
    param_drift: float = 0.0

    def bound(self, key: str, reference: torch.Tensor, call: int) -> float:
        scale = reference.abs().max().item() if reference.numel() else 0.0
        return self.rtol * scale + (self.param_drift * call if key.startswith("param ") else 0.0)


@dataclass
class Program:
    name: str
    what: str                                     # one line: the model code and what a call does
    build: Callable[[Callable], Instance]         # build(compile) -> Instance
    max_calls: int                                # calls one instance supports (inputs, cache room)
    tolerance: Tolerance
    inductor_config: Tuple[Tuple[str, Any], ...] = ()   # torch._inductor.config settings for every call
    watch: Tuple[Tuple[str, str], ...] = ()       # (label, text): copies whose source line holds text
    needs: Tuple[str, ...] = ("transformers",)    # packages build() imports


# ---------------------------------------------------------------------------------- helpers

def _generator(*seeds: int) -> torch.Generator:
    seed = 0
    for s in seeds:
        seed = (seed * 1_000_003 + s) % 2 ** 31
    return torch.Generator().manual_seed(seed)


def _tokens(calls: int, shape, rank: int = 0) -> List[torch.Tensor]:
    return [torch.randint(0, VOCAB, shape, generator=_generator(i, rank)) for i in range(calls)]


def _decoder_config(cls, **extra):
    config = cls(vocab_size=VOCAB, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                 num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048, **extra)
    config._attn_implementation = "sdpa"
    return config


def _cache_state(cache) -> Dict[str, torch.Tensor]:
    state = {}
    for i, layer in enumerate(cache.layers):
        state[f"cache.layers[{i}].keys"] = layer.keys
        state[f"cache.layers[{i}].values"] = layer.values
        state[f"cache.layers[{i}].cumulative_length"] = layer.cumulative_length
    return state


def _training_state(model: torch.nn.Module, optimizer: torch.optim.Optimizer) -> Dict[str, torch.Tensor]:
    """Parameters, their gradients, buffers (BatchNorm running statistics) and optimizer state."""
    state = {}
    for name, p in model.named_parameters():
        state[f"param {name}"] = p
        if p.grad is not None:
            state[f"grad {name}"] = p.grad
    for name, b in model.named_buffers():
        state[f"buffer {name}"] = b
    names = {id(p): name for name, p in model.named_parameters()}
    for p, s in optimizer.state.items():
        for key, value in s.items():
            if isinstance(value, torch.Tensor):
                state[f"optimizer {key} {names.get(id(p), '?')}"] = value
    return state


# ---------------------------------------------------------------------------------- decoding

def decode_static(compile) -> Instance:
    """LlamaForCausalLM, StaticCache: one token per call (StaticLayer.update: index_copy_ into the
    cache, cumulative_length.add_)."""
    from transformers import LlamaConfig, LlamaForCausalLM, StaticCache

    torch.manual_seed(0)
    config = _decoder_config(LlamaConfig)
    model = LlamaForCausalLM(config).eval()
    cache = StaticCache(config=config, max_cache_len=DECODE_CACHE_LEN)
    with torch.no_grad():
        model(_tokens(1, (DECODE_BATCH, DECODE_PROMPT), rank=99)[0], cache=cache, use_cache=True)   # eager prefill

    def decode(token):
        return model(token, cache=cache, use_cache=True).logits

    step = compile(decode)
    tokens = _tokens(DECODE_CACHE_LEN - DECODE_PROMPT, (DECODE_BATCH, 1))

    def call(i):
        with torch.no_grad():
            return step(tokens[i])

    return Instance(call, lambda: _cache_state(cache))


def prefill_static(compile) -> Instance:
    """LlamaForCausalLM, StaticCache, chunked prefill: each call feeds the next PREFILL_CHUNK
    tokens of a long prompt (causal attention over the cache, index_copy_ of the chunk)."""
    from transformers import LlamaConfig, LlamaForCausalLM, StaticCache

    torch.manual_seed(0)
    config = _decoder_config(LlamaConfig)
    model = LlamaForCausalLM(config).eval()
    cache = StaticCache(config=config, max_cache_len=DECODE_CACHE_LEN)
    with torch.no_grad():
        model(_tokens(1, (DECODE_BATCH, PREFILL_CHUNK), rank=99)[0], cache=cache, use_cache=True)   # eager first chunk

    def prefill(chunk):
        return model(chunk, cache=cache, use_cache=True).logits

    step = compile(prefill)
    chunks = _tokens(PREFILL_CALLS, (DECODE_BATCH, PREFILL_CHUNK))

    def call(i):
        with torch.no_grad():
            return step(chunks[i])

    return Instance(call, lambda: _cache_state(cache))


def decode_sliding(compile) -> Instance:
    """MistralForCausalLM with a sliding window, StaticCache (StaticSlidingWindowLayer), cache full:
    each call rolls the window (roll, index assignment of the new token, copy_ back into the cache).
    transformers keeps the position in a Python int (cumulative_length_int): Dynamo specializes on
    it at the first compilation and recompiles once, with it dynamic, on the second call."""
    from transformers import MistralConfig, MistralForCausalLM, StaticCache

    torch.manual_seed(0)
    config = _decoder_config(MistralConfig, sliding_window=SLIDING_WINDOW)
    model = MistralForCausalLM(config).eval()
    cache = StaticCache(config=config, max_cache_len=DECODE_CACHE_LEN)
    prompt = SLIDING_WINDOW + DECODE_PROMPT
    with torch.no_grad():
        model(_tokens(1, (DECODE_BATCH, prompt), rank=99)[0], cache=cache, use_cache=True)

    def decode(token):
        return model(token, cache=cache, use_cache=True).logits

    step = compile(decode)
    tokens = _tokens(SLIDING_CALLS, (DECODE_BATCH, 1))

    def call(i):
        with torch.no_grad():
            return step(tokens[i])

    return Instance(call, lambda: _cache_state(cache))


# ---------------------------------------------------------------------------------- recompile sweeps

SWEEP_POINTS = ((128, 8), (192, 24), (256, 40), (384, 72))   # (cache length, prompt length)
SWEEP_CALLS = 2                                                        # decode calls per point


def static_decode_sweep(compile) -> Callable[[int, int], torch.Tensor]:
    """The static-cache decode over caches of several lengths, each after a prompt of another
    length: call (point, j) makes decode call j at SWEEP_POINTS[point], with the cache passed as an
    argument of the compiled function."""
    from transformers import LlamaConfig, LlamaForCausalLM, StaticCache

    torch.manual_seed(0)
    config = _decoder_config(LlamaConfig)
    model = LlamaForCausalLM(config).eval()

    def decode(token, cache):
        return model(token, cache=cache, use_cache=True).logits

    step, caches = compile(decode), {}

    def call(point: int, j: int):
        cache_len, prompt = SWEEP_POINTS[point]
        with torch.no_grad():
            if point not in caches:
                caches[point] = StaticCache(config=config, max_cache_len=cache_len)
                model(_tokens(1, (DECODE_BATCH, prompt), rank=point)[0], cache=caches[point], use_cache=True)
            return step(_tokens(j + 1, (DECODE_BATCH, 1), rank=point)[j], caches[point])

    return call


# ---------------------------------------------------------------------------------- serving

def serving_step(compile, config=None) -> Instance:
    """One decode step of a serving engine's model code over custom ops that mutate their
    arguments (benchmarks/zoo_serving.py): the stacked KV caches are arguments of the compiled
    function, the same tensors on every call."""
    from zoo_serving import ServingConfig, ServingDecoder, serving_caches, serving_inputs

    config = config or ServingConfig()
    model = ServingDecoder(config, _generator(0)).eval()
    caches = serving_caches(config)
    inputs = serving_inputs(config, config.max_calls)
    step = compile(model)

    def call(i):
        with torch.no_grad():
            return step(inputs.tokens[i], inputs.positions[i], inputs.slot_mapping[i],
                        caches["key_cache"], caches["value_cache"])

    return Instance(call, lambda: dict(caches))


# ---------------------------------------------------------------------------------- training

def _train_instance(model, optimizer, compile, batches, forward) -> Instance:
    def train_step(batch):
        loss = forward(model, batch)
        loss.backward()
        optimizer.step()
        return loss.detach()

    step = compile(train_step)

    def call(i):
        optimizer.zero_grad(set_to_none=True)   # grads stay visible after the call, for the comparison
        return step(batches[i])

    return Instance(call, lambda: _training_state(model, optimizer))


def llama_train(compile, rank: int = 0, layers: int = 2) -> Instance:
    """LlamaForCausalLM training step: causal-LM loss, backward, AdamW (foreach)."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = _decoder_config(LlamaConfig)
    config.num_hidden_layers = layers
    model = LlamaForCausalLM(config).train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=ADAM_LR, foreach=True)
    batches = _tokens(TRAIN_CALLS, (TRAIN_BATCH, TRAIN_SEQ), rank)
    return _train_instance(model, optimizer, compile, batches, lambda m, ids: m(input_ids=ids, labels=ids).loss)


def resnet_train(compile) -> Instance:
    """ResNetForImageClassification (BatchNorm in training mode) step: cross-entropy, backward,
    SGD with momentum (foreach)."""
    from transformers import ResNetConfig, ResNetForImageClassification

    torch.manual_seed(0)
    config = ResNetConfig(num_channels=3, embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1],
                          layer_type="basic", num_labels=10)
    model = ResNetForImageClassification(config).train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, foreach=True)
    batches = [(torch.randn(CNN_BATCH, 3, CNN_SIZE, CNN_SIZE, generator=_generator(i)),
                torch.randint(0, 10, (CNN_BATCH,), generator=_generator(i, 1))) for i in range(TRAIN_CALLS)]
    return _train_instance(model, optimizer, compile, batches,
                           lambda m, b: m(pixel_values=b[0], labels=b[1]).loss)


def adamw_step(compile) -> Instance:
    """torch.optim.AdamW(foreach=True).step alone, over the parameters of the small Llama, with
    fresh random gradients each call."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    model = LlamaForCausalLM(_decoder_config(LlamaConfig))
    params = [p for p in model.parameters()]
    optimizer = torch.optim.AdamW(params, lr=ADAM_LR, weight_decay=0.01, foreach=True)
    grads = [[torch.randn(p.shape, generator=_generator(i, j)) for j, p in enumerate(params)]
             for i in range(TRAIN_CALLS)]

    def opt_step():
        optimizer.step()

    step = compile(opt_step)

    def call(i):
        for p, g in zip(params, grads[i]):
            p.grad = g
        with torch.no_grad():
            return step()

    return Instance(call, lambda: _training_state(model, optimizer))


# ---------------------------------------------------------------------------------- the zoo

DECODE_BATCH, DECODE_PROMPT, DECODE_CACHE_LEN = 2, 16, 512
SLIDING_WINDOW, SLIDING_CALLS = 256, 512
PREFILL_CHUNK = 16
PREFILL_CALLS = DECODE_CACHE_LEN // PREFILL_CHUNK - 1
TRAIN_BATCH, TRAIN_SEQ, TRAIN_CALLS = 2, 64, 64
CNN_BATCH, CNN_SIZE = 8, 32

INFERENCE = Tolerance(1e-4, "float32: Inductor fuses and reorders reductions (matmuls, softmax, RMSNorm), "
                      "which changes the last bits of every layer's result")
TRAINING = Tolerance(1e-4, "float32: the same reassociation in forward and backward; SGD scales the "
                     "gradient differences by the learning rate")
ADAM_LR = 1e-3
ADAM_TRAINING = Tolerance(1e-3, "float32 reassociation as above; AdamW divides each gradient element by "
                          "its running RMS + eps (1e-8), so where a gradient is within a few eps of zero a "
                          "rounding-level difference moves that element's update by a sizeable fraction of "
                          "lr: parameters may drift by 0.1 x lr per step, and the next calls' gradients "
                          "and moments, taken at these slightly different parameters, by 1e-3 of their "
                          "largest magnitude (a lost or stale update moves them by O(1))",
                          param_drift=0.1 * ADAM_LR)
ADAM_STEP = Tolerance(1e-4, "float32; the same gradients on every backend, element-wise optimizer "
                      "arithmetic fused differently", param_drift=0.0)


SERVING = "serving step"
SERVING_VERSIONS = {"v1": False, "v2": True}     # torch._inductor.config.enable_auto_functionalized_v2
SERVING_WATCH = (("KV-cache write", "reshape_and_cache("), ("rotary on q, k", "rotary_embedding("),
                 ("add + RMSNorm", "rms_norm("), ("SiLU-and-mul into out", "silu_and_mul("))


def serving_programs() -> List[Program]:
    """The serving step under each auto_functionalized version."""
    from zoo_serving import ServingConfig

    c = ServingConfig()
    what = (f"decode step over custom ops that mutate their arguments (fused add + RMSNorm, rotary on a split qkv, "
            f"KV-cache write into a layer of stacked caches, SiLU-and-mul into out; batch {c.batch}, "
            f"{c.layers} layers, {c.heads}/{c.kv_heads} heads, {c.slots} cache slots)")
    return [Program(f"{SERVING} {version}", f"{what}; enable_auto_functionalized_v2={flag}", serving_step,
                    c.max_calls, INFERENCE, inductor_config=(("enable_auto_functionalized_v2", flag),),
                    watch=SERVING_WATCH, needs=())
            for version, flag in SERVING_VERSIONS.items()]


#: names that stand for several programs on the command line
GROUPS = {SERVING: [f"{SERVING} {version}" for version in SERVING_VERSIONS]}


def zoo() -> Dict[str, Program]:
    programs = [
        Program("decode static cache", "LlamaForCausalLM decode, StaticCache "
                f"(batch {DECODE_BATCH}, cache {DECODE_CACHE_LEN}, 2 layers, GQA 4/2 heads)",
                decode_static, DECODE_CACHE_LEN - DECODE_PROMPT, INFERENCE),
        Program("prefill static cache", f"LlamaForCausalLM chunked prefill, {PREFILL_CHUNK} tokens per call "
                f"into a StaticCache (batch {DECODE_BATCH}, cache {DECODE_CACHE_LEN}, 2 layers, GQA 4/2 heads)",
                prefill_static, PREFILL_CALLS, INFERENCE),
        Program("decode sliding window", "MistralForCausalLM decode, StaticCache with sliding window "
                f"{SLIDING_WINDOW} (full; batch {DECODE_BATCH}, 2 layers)",
                decode_sliding, SLIDING_CALLS, INFERENCE),
        Program("llama train step", f"LlamaForCausalLM forward + loss, backward, AdamW foreach "
                f"(batch {TRAIN_BATCH}x{TRAIN_SEQ}, 2 layers)", llama_train, TRAIN_CALLS, ADAM_TRAINING),
        Program("resnet train step", f"ResNetForImageClassification (BatchNorm) forward + loss, backward, "
                f"SGD momentum foreach (batch {CNN_BATCH}x3x{CNN_SIZE}x{CNN_SIZE})",
                resnet_train, TRAIN_CALLS, TRAINING),
        Program("adamw foreach step", "torch.optim.AdamW(foreach=True).step over the Llama's parameters",
                adamw_step, TRAIN_CALLS, ADAM_STEP),
        *serving_programs(),
    ]
    return {p.name: p for p in programs}
