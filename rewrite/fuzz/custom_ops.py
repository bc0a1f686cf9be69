"""The custom ops a generated program defines: kernels as data, and their definitions as source.

A custom-op program defines its ops at module level with ``torch.library.custom_op`` (a fake
kernel with ``register_fake``, and ``register_autograd`` for the functional ones), so a printed
or minimized program is self-contained.  Every kernel writes element by element (row by row
along dimension 0) and reads its arguments as it goes, so its result depends on the order of
its reads and writes when a mutated argument shares memory with another argument: a compiler
that writes into memory it should have copied (or drops a copy) changes the result.

An op's name is ``fuzz::p<index>_op<k>_<digest>``, the digest that of its definition: ops are
registered once per process (a later definition of the same name replaces the earlier one, as
``torch.library.custom_op`` allows), workers run many programs, and Inductor's FX graph and
AOTAutograd caches (on disk, shared by runs) know an op by its name only, so two different
definitions must never share one.  Running the same program again in one process (the
reference run, every backend, the minimizer) defines the same op again, which is allowed.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

NAMESPACE = "fuzz"
_QUALNAME = "<qualname>"

# kind of a parameter: its annotation, and whether the op writes it
ANNOTATIONS = {
    "mut": "torch.Tensor", "read": "torch.Tensor", "index": "torch.Tensor",
    "mut_list": "list[torch.Tensor]", "mut_opt": "torch.Tensor | None",
}
MUTATED_KINDS = ("mut", "mut_list", "mut_opt")


@dataclass(frozen=True)
class Kernel:
    """One op template.  ``params``: (name, kind) in order; ``shapes``: ``"same"`` (every tensor
    argument has the shape of the first one) or ``"cache"`` (``cache[slots[j]] = x[j]``)."""

    key: str
    params: Tuple[Tuple[str, str], ...]
    body: str
    returns: bool = False
    fake: str = "return None"
    writes_all: bool = False          # writes every element of every mutated tensor (fine on torch.empty)
    shapes: str = "same"
    autograd: Optional[Tuple[str, str]] = None   # (setup_context body, backward body)
    floats: bool = False              # every argument a floating tensor of one dtype

    @property
    def mutated(self) -> Tuple[str, ...]:
        return tuple(name for name, kind in self.params if kind in MUTATED_KINDS)

    def kind(self, name: str) -> str:
        return dict(self.params)[name]


KERNELS: Dict[str, Kernel] = {k.key: k for k in (
    Kernel("reverse_into", (("out", "mut"), ("src", "read")), writes_all=True, body="""
n = out.shape[0]
for i in range(n):
    out[i] = src[n - 1 - i]"""),
    Kernel("shift_into", (("out", "mut"), ("src", "read")), body="""
for i in range(out.shape[0] - 1):
    out[i + 1] = src[i]"""),
    Kernel("add_reversed", (("x", "mut"), ("y", "read")), body="""
n = x.shape[0]
for i in range(n):
    x[i] = x[i] + y[n - 1 - i]"""),
    Kernel("neighbour_into", (("out", "mut"), ("x", "read")), writes_all=True, body="""
n = out.shape[0]
for i in range(n):
    out[i] = x[i] + x[(i + 1) % n]"""),
    Kernel("cumsum", (("x", "mut"),), body="""
for i in range(1, x.shape[0]):
    x[i] = x[i] + x[i - 1]"""),
    Kernel("fused_add", (("x", "mut"), ("residual", "mut")), body="""
for i in range(x.shape[0]):
    residual[i] = residual[i] + x[i]
    x[i] = residual[i] * 2"""),
    Kernel("rotary", (("q", "mut"), ("k", "mut"), ("cos", "read")), body="""
n = q.shape[0]
for i in range(n):
    a = q[i].clone()
    q[i] = q[i] * cos[i] - k[n - 1 - i]
    k[n - 1 - i] = k[n - 1 - i] * cos[i] + a"""),
    Kernel("cache_write", (("cache", "mut"), ("x", "read"), ("slots", "index")), shapes="cache", body="""
for j, s in enumerate(slots.tolist()):
    cache[s] = x[j]"""),
    Kernel("list_add", (("xs", "mut_list"),), body="""
for j, t in enumerate(xs):
    p = xs[j - 1].flatten()
    for i in range(t.shape[0]):
        t[i] = t[i] + p[i % p.numel()]"""),
    Kernel("maybe_into", (("x", "read"), ("out", "mut_opt")), returns=True, writes_all=True,
           fake="return torch.empty_like(x)", body="""
if out is not None:
    n = out.shape[0]
    for i in range(n):
        out[i] = x[n - 1 - i]
return x * 2"""),
    Kernel("swap_old", (("x", "mut"), ("y", "read")), returns=True, fake="return torch.empty_like(x)", body="""
old = x.clone()
n = x.shape[0]
for i in range(n):
    x[i] = x[i] + y[n - 1 - i]
return old"""),
    Kernel("scratch", (("out", "mut"), ("scratch", "mut"), ("x", "read")), writes_all=True, body="""
n = out.shape[0]
for i in range(n):
    scratch[i] = x[n - 1 - i]
for i in range(n):
    out[i] = scratch[i] + x[i]"""),
    Kernel("mul_rows", (("w", "read"), ("x", "read")), returns=True, floats=True, fake="return torch.empty_like(w)",
           autograd=("ctx.save_for_backward(*inputs)", """
w, x = ctx.saved_tensors
return grad * x.flip(0), (grad * w).flip(0)"""), body="""
out = torch.empty_like(w)
n = w.shape[0]
for i in range(n):
    out[i] = w[i] * x[n - 1 - i]
return out"""),
)}


def _indented(body: str, depth: int = 1) -> list:
    return ["    " * depth + line if line else "" for line in body.strip("\n").split("\n")]


def definition(kernel: Kernel, name: str, qualname: str = _QUALNAME) -> Tuple[str, ...]:
    """The module-level source defining ``kernel`` as the op ``qualname``, bound to ``name``."""
    params = [f"{p}: {ANNOTATIONS[kind]}" for p, kind in kernel.params]
    names = ", ".join(p for p, _ in kernel.params)
    mutates = "(" + ", ".join(f'"{m}"' for m in kernel.mutated) + ("," if len(kernel.mutated) == 1 else "") + ")"
    lines = [f'@torch.library.custom_op("{qualname}", mutates_args={mutates})',
             f"def {name}({', '.join(params)}) -> {'torch.Tensor' if kernel.returns else 'None'}:",
             *_indented(kernel.body), "", "",
             f"@{name}.register_fake",
             f"def _{name}_fake({names}):",
             *_indented(kernel.fake)]
    if kernel.autograd is not None:
        setup, backward = kernel.autograd
        lines += ["", "", f"def _{name}_setup(ctx, inputs, output):", *_indented(setup), "", "",
                  f"def _{name}_backward(ctx, grad):", *_indented(backward), "", "",
                  f"{name}.register_autograd(_{name}_backward, setup_context=_{name}_setup)"]
    return tuple(lines)


def qualname(kernel: Kernel, name: str, index: int) -> str:
    """``fuzz::p<index>_<name>_<digest of the definition>``."""
    digest = hashlib.sha1("\n".join(definition(kernel, name)).encode()).hexdigest()[:8]
    return f"{NAMESPACE}::p{index}_{name}_{digest}"
