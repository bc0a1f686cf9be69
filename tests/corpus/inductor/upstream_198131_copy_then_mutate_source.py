"""pytorch issue 198131: `dst[0:, :] = src[0:, :]; src.add_(1)`.  Inductor's noop removal turns
the copy of `src` into `src` itself, which the copy-back epilogue has already updated when `dst`
is written: stock Inductor copies the updated `src`.  The graph our pass receives is already
wrong; `read_input_before_its_copy_back` moves the write of `dst` before the update of `src`
(the legality check reads the epilogue functionally, as the program meant it)."""
import torch

EXPECT = """
fires: read_input_before_its_copy_back
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(dst, src):
    dst[0:, :] = src[0:, :]
    src.add_(1)
    return src


def inputs():
    return torch.zeros(3, 4), torch.arange(12.0).reshape(3, 4)
