"""The negative twin of `fuzz_v1_list_of_views_of_cond_result_faked_strided_s163_p812`: the input
is dense (the `cond` is still left to the compiler: it writes its operand through a transpose), so
every buffer is laid out as faked, the v1 call's clones address the arguments' own elements, and
they get no copy of ours."""
import torch

EXPECT = """
not fires: copy_arguments_laid_out_otherwise_for_inductor
warns: cond_captured_mutations @ rules/dependencies.rules:29 on cond failed
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::p812_twin_add_previous_", mutates_args=("xs",))
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
    return torch.randint(-4, 5, (4,)).float(), torch.randint(-4, 5, (4, 5)).float()
