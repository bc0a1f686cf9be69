"""A `cond` writes a strided input (`base[:, ::2]`, strides `(10, 2)`), then a custom op writes a
list of two slices of the input's transpose under `auto_functionalized` v1 (`rewrite fuzz --seed
163` program 812, minimized).  The dependency rule leaves the `cond` to the compiler (its operand's
strides are its own), which wraps it in `auto_functionalized_v2`: the `cond`'s result is faked with
the input's strides, whatever buffer it is given (a dense one).  The v1 call's decomposition
clones each argument by `clone_preserve_strides`, at the storage addresses of the argument's fake
value: past the dense buffer.  The eager base raised `setStorage` out of bounds (the rules-free
pipeline too), Inductor read garbage (stock raised a stride assert; aot_eager right).
`copy_arguments_laid_out_otherwise_for_inductor` gives the op copies of its own, dense and faked
so, which it then writes in place; without it the engine stops the compile (`v1_clone_lost`).  The rule
fires with static shapes (`v1_list_of_views_of_strided_cond_result_gets_dense_copies`); under
dynamic shapes it rightly does not: the `cond` gets its base without our private copy, and
Inductor's reinplacing writes the whole scatter chain into the input, whose memory the clones
then address."""
import torch

EXPECT = """
warns: cond_captured_mutations @ rules/dependencies.rules:29 on cond failed
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::p812_add_previous_", mutates_args=("xs",))
def op1(xs: list[torch.Tensor]) -> None:
    for j, t in enumerate(xs):
        p = xs[j - 1].flatten()
        for i in range(t.shape[0]):
            t[i] = t[i] + p[i % p.numel()]


@op1.register_fake
def _op1_fake(xs):
    return None


def fn(x0, x1):
    x1[:, 3:5].neg_()
    x1.transpose(0, 1)[2:-1] = 0.5
    def true_fn_1(p):
        x1[2, 4] = -1.0
        return p.clone()
    def false_fn_1(p):
        return p.clone()
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x1,))
    o4 = x1.transpose(0, 1)
    op1([o4[:3], o4[3:]])
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 10)).float()
    return torch.randint(-4, 5, (4,)).float(), base0[:, ::2]
