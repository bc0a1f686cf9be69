"""`dst.copy_(src); return src * 2`: the copy reads `src`, which nothing writes: no epilogue read
comes too late, so `read_input_before_its_copy_back` leaves the graph alone."""
import torch

EXPECT = """
rejects: read_input_before_its_copy_back at where because reads_overwritten_input
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(dst, src):
    dst.copy_(src)
    return src * 2


def inputs():
    return torch.zeros(3, 4), torch.arange(12.0).reshape(3, 4)
