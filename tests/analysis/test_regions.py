"""Tests for rewrite.analysis.semantics.regions against brute-force ground truth."""

import itertools

import pytest
import sympy
import torch
from hypothesis import given, settings, strategies as st
from torch._subclasses import FakeTensorMode
from torch.fx.experimental.proxy_tensor import make_fx

from rewrite.analysis.semantics import overlap, regions, symbolic
from rewrite.analysis.semantics.regions import Region, region_of_node, region_of_tensor, scatter_destination
from rewrite.analysis.semantics.overlap import has_internal_overlap, may_overlap

aten = torch.ops.aten
KEY = "storage"
N = 64  # float64 elements in the base storage of the eager tests


# ---------------------------------------------------------------- ground truth


def _same_size_int(dtype):
    return {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[dtype.itemsize]


def touched_bytes(view_fn):
    """Bytes of a fresh zero storage that a write through ``view_fn(base)`` reaches."""
    base = torch.zeros(N, dtype=torch.float64)
    view = view_fn(base)
    view.view(_same_size_int(view.dtype)).fill_(-1)
    return base.view(torch.uint8) != 0


def truly_overlap(fa, fb):
    return bool((touched_bytes(fa) & touched_bytes(fb)).any())


def region(view_fn):
    return region_of_tensor(view_fn(torch.zeros(N, dtype=torch.float64)), KEY)


def brute_byte_sets(r: Region):
    """Python enumeration of the bytes a concrete region covers."""
    out = set()
    for idx in itertools.product(*(range(n) for n in r.sizes)):
        addr = r.offset + sum(i * s for i, s in zip(idx, r.strides))
        out.update(range(addr * r.itemsize, (addr + 1) * r.itemsize))
    return out


# ---------------------------------------------------------------- eager views

VIEWS = {
    "all": lambda x: x,
    "head": lambda x: x[:32],
    "tail": lambda x: x[32:],
    "mid": lambda x: x[20:40],
    "shift1": lambda x: x[1:],
    "drop_last": lambda x: x[:-1],
    "even": lambda x: x[0::2],
    "odd": lambda x: x[1::2],
    "every3": lambda x: x[2::3],
    "every4_from1": lambda x: x[1::4],
    "neg_slice": lambda x: x[-10:-3],
    "clamped": lambda x: x[50:1000],
    "empty": lambda x: x[10:10],
    "col0": lambda x: x.view(8, 8)[:, 0],
    "col1": lambda x: x.view(8, 8)[:, 1],
    "cols_2_4": lambda x: x.view(8, 8)[:, 2:4],
    "cols_4_8": lambda x: x.view(8, 8)[:, 4:],
    "row3": lambda x: x.view(8, 8)[3],
    "rows_odd": lambda x: x.view(8, 8)[1::2],
    "diag": lambda x: x.view(8, 8).diagonal(),
    "offdiag": lambda x: x.view(8, 8).diagonal(1),
    "antidiag_rows": lambda x: x.view(8, 8).diagonal(-1),
    "transpose_block": lambda x: x.view(8, 8).t()[:2],
    "as_strided_a": lambda x: x.as_strided((3, 3), (10, 3), 1),
    "as_strided_b": lambda x: x.as_strided((4, 2), (7, 5), 2),
    "i32_low": lambda x: x.view(torch.int32)[0::2],
    "i32_high": lambda x: x.view(torch.int32)[1::2],
    "i32_odd_head": lambda x: x.view(torch.int32)[1:8:2],
    "u8_byte3": lambda x: x.view(torch.uint8)[3::8],
    "u8_row": lambda x: x.view(torch.uint8)[8:16],
}


@pytest.mark.parametrize("a,b", list(itertools.combinations(VIEWS, 2)))
def test_may_overlap_is_exact_on_eager_views(a, b):
    fa, fb = VIEWS[a], VIEWS[b]
    assert may_overlap(region(fa), region(fb)) == truly_overlap(fa, fb)
    assert may_overlap(region(fb), region(fa)) == truly_overlap(fa, fb)


def test_known_answers():
    # Guard against a ground truth that is itself wrong.
    assert not may_overlap(region(VIEWS["even"]), region(VIEWS["odd"]))
    assert not may_overlap(region(VIEWS["col0"]), region(VIEWS["col1"]))
    assert may_overlap(region(VIEWS["shift1"]), region(VIEWS["drop_last"]))
    assert may_overlap(region(VIEWS["diag"]), region(VIEWS["col0"]))
    # int32 halves of float64 elements: disjoint as int32, both inside x[0].
    assert not may_overlap(region(VIEWS["i32_low"]), region(VIEWS["i32_high"]))
    assert may_overlap(region(VIEWS["i32_high"]), region(lambda x: x[0:1]))
    assert not may_overlap(region(VIEWS["u8_byte3"]), region(lambda x: x.view(torch.uint8)[4::8]))


def test_different_storages_and_empty():
    x = torch.zeros(8)
    assert not may_overlap(region_of_tensor(x, "a"), region_of_tensor(x, "b"))
    assert not may_overlap(region_of_tensor(x[3:3], KEY), region_of_tensor(x, KEY))


def test_expand_and_internal_overlap():
    x = torch.zeros(N, dtype=torch.float64)
    row = region_of_tensor(x[:4].expand(5, 4), KEY)
    assert has_internal_overlap(row)
    assert may_overlap(row, region_of_tensor(x[3:4], KEY))
    assert not may_overlap(row, region_of_tensor(x[4:], KEY))
    assert has_internal_overlap(region_of_tensor(x.as_strided((3, 3), (2, 1)), KEY))
    assert has_internal_overlap(region_of_tensor(x.as_strided((2, 5), (4, 2)), KEY))  # 4 == 0 + 2*2
    assert not has_internal_overlap(region_of_tensor(x.as_strided((2, 5), (3, 2)), KEY))
    assert not has_internal_overlap(region_of_tensor(x.as_strided((2, 3), (5, 2)), KEY))
    assert not has_internal_overlap(region_of_tensor(x.view(8, 8).t(), KEY))
    assert not has_internal_overlap(region_of_tensor(x[0:1].expand(1, 7)[:, :1], KEY))
    assert not has_internal_overlap(region_of_tensor(x[4:4].expand(5, 0), KEY))


@settings(max_examples=150, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    strides=st.lists(st.integers(0, 9), min_size=3, max_size=3),
)
def test_internal_overlap_exact(sizes, strides):
    r = Region(KEY, 0, tuple(sizes), tuple(strides[: len(sizes)]), 1)
    n = 1
    for s in sizes:
        n *= s
    assert has_internal_overlap(r) == (len(brute_byte_sets(r)) < n)


# ---------------------------------------------------------------- property tests

region_strategy = st.builds(
    lambda off, dims, itemsize: Region(KEY, off, tuple(d[0] for d in dims), tuple(d[1] for d in dims), itemsize),
    st.integers(0, 40),
    st.lists(st.tuples(st.integers(0, 5), st.integers(-12, 12)), min_size=0, max_size=3),
    st.sampled_from([1, 2, 4, 8]),
)


@settings(max_examples=300, deadline=None)
@given(a=region_strategy, b=region_strategy)
def test_may_overlap_equals_brute_force(a, b):
    truth = bool(brute_byte_sets(a) & brute_byte_sets(b))
    assert may_overlap(a, b) == truth


@settings(max_examples=200, deadline=None)
@given(a=region_strategy, b=region_strategy)
def test_search_and_enumeration_paths_each_exact(a, b):
    """Both exact strategies behind ``may_overlap`` agree with brute force,
    and a starved search reports "unknown" rather than a wrong answer."""
    truth = bool(brute_byte_sets(a) & brute_byte_sets(b))
    if not a.sizes or not b.sizes or 0 in a.sizes + b.sizes:
        return
    unit = 1
    la, lb = overlap._in_units(a, unit), overlap._in_units(b, unit)
    assert overlap._enumerated_overlap(la, lb) == truth
    terms = [(s, 0, n - 1) for n, s in zip(la.sizes, la.strides)]
    terms += [(-s, 0, n - 1) for n, s in zip(lb.sizes, lb.strides)]
    assert overlap._lattice_has_solution(terms, lb.offset - la.offset) == truth
    assert overlap._lattice_has_solution(terms, lb.offset - la.offset, budget=1) in (truth, None)


def test_large_regions_use_lattice_reasoning():
    big = 1 << 40  # far beyond anything enumerable
    even = Region(KEY, 0, (big, big), (2 * big, 2), 4)
    odd = Region(KEY, 1, (big, big), (2 * big, 2), 4)
    assert not may_overlap(even, odd)
    assert may_overlap(even, Region(KEY, 2 * big + 4, (3,), (1,), 4))
    rows_a = Region(KEY, 0, (big, 10), (100, 1), 8)
    rows_b = Region(KEY, 10, (big, 90), (100, 1), 8)
    assert not may_overlap(rows_a, rows_b)


# ---------------------------------------------------------------- views on regions


@settings(max_examples=200, deadline=None)
@given(
    shape=st.lists(st.integers(0, 5), min_size=1, max_size=3),
    data=st.data(),
)
def test_view_arithmetic_matches_aten(shape, data):
    x = torch.zeros(shape, dtype=torch.float32)
    base = region_of_tensor(x, KEY)
    ndim = len(shape)
    dim = data.draw(st.integers(-ndim, ndim - 1))
    start = data.draw(st.one_of(st.none(), st.integers(-8, 8)))
    end = data.draw(st.one_of(st.none(), st.integers(-8, 8), st.just(regions._INT64_MAX)))
    step = data.draw(st.integers(1, 3))
    want = aten.slice.Tensor(x, dim, start, end, step)
    assert regions.slice_region(base, dim, start, end, step) == region_of_tensor(want, KEY)
    if shape[dim] > 0:
        index = data.draw(st.integers(-shape[dim], shape[dim] - 1))
        want = aten.select.int(x, dim, index)
        assert regions.select_region(base, dim, index) == region_of_tensor(want, KEY)
    if ndim >= 2:
        d1, d2 = data.draw(st.lists(st.integers(-ndim, ndim - 1), min_size=2, max_size=2, unique_by=lambda d: d % ndim))
        off = data.draw(st.integers(-6, 6))
        want = aten.diagonal.default(x, off, d1, d2)
        assert regions.diagonal_region(base, off, d1, d2) == region_of_tensor(want, KEY)


# ---------------------------------------------------------------- FX scatter nodes


def _graph_with(target, base_shape, src_shape, *view_args, src_dtype=torch.float32):
    mode = FakeTensorMode()
    graph = torch.fx.Graph()
    base = graph.placeholder("base")
    src = graph.placeholder("src")
    base.meta["val"] = mode.from_tensor(torch.zeros(base_shape))
    src.meta["val"] = mode.from_tensor(torch.zeros(src_shape, dtype=src_dtype))
    node = graph.call_function(target, (base, src, *view_args))
    return base, src, node


SCATTERS = [
    (aten.slice_scatter.default, (6, 4), (4, 4), (0, 1, -1), lambda x: x[1:-1]),
    (aten.slice_scatter.default, (6, 4), (6, 2), (1, 1, None, 2), lambda x: x[:, 1::2]),
    (aten.slice_scatter.default, (6, 4), (6, 1), (-1, -1), lambda x: x[:, -1:]),
    (aten.slice_scatter.default, (6, 4), (0, 4), (0, 10, 20), lambda x: x[10:20]),
    (aten.select_scatter.default, (6, 4), (6,), (1, -2), lambda x: x[:, -2]),
    (aten.diagonal_scatter.default, (5, 4), (3,), (1,), lambda x: x.diagonal(1)),
    (aten.diagonal_scatter.default, (3, 5, 4), (3, 4), (-1, 0, 2), lambda x: x.diagonal(-1, 0, 2)),
    (aten.as_strided_scatter.default, (6, 4), (2, 3), ((2, 3), (4, 1), 5), lambda x: x.as_strided((2, 3), (4, 1), 5)),
]


@pytest.mark.parametrize("target,base_shape,src_shape,args,eager", SCATTERS)
def test_scatter_destination_matches_eager_view(target, base_shape, src_shape, args, eager):
    base, _, node = _graph_with(target, base_shape, src_shape, *args)
    key_of = lambda n: KEY  # noqa: E731
    want = region_of_tensor(eager(torch.zeros(base_shape)), KEY)
    assert scatter_destination(node, key_of) == want
    assert scatter_destination(node, key_of).storage == region_of_node(base, key_of).storage


def test_scatter_destination_default_storage_key_and_others():
    base, src, node = _graph_with(aten.slice_scatter.default, (6, 4), (5, 4), 0, 1)
    dest = scatter_destination(node)
    assert dest == region_of_tensor(torch.zeros(6, 4)[1:], dest.storage)
    assert dest.storage == region_of_node(base).storage != region_of_node(src).storage
    assert scatter_destination(base) is None
    add = node.graph.call_function(aten.add.Tensor, (base, src))
    assert scatter_destination(add) is None


def test_as_strided_scatter_on_offset_base_is_unknown():
    mode = FakeTensorMode()
    graph = torch.fx.Graph()
    base = graph.placeholder("base")
    src = graph.placeholder("src")
    base.meta["val"] = mode.from_tensor(torch.zeros(10)[2:])
    src.meta["val"] = mode.from_tensor(torch.zeros(2))
    node = graph.call_function(aten.as_strided_scatter.default, (base, src, (2,), (1,)))
    assert scatter_destination(node) is None


# ---------------------------------------------------------------- symbolic shapes


def _symbolic_graph():
    """Trace with symbolic shapes; return the region nodes in output order
    (for ``view + 1`` outputs, the view)."""

    def f(x, y, z, w):
        h = x.shape[0] // 2
        return (
            aten.slice_scatter.default(x, y, 0, 1),
            aten.slice_scatter.default(x, z, 0, 0, h),
            aten.slice_scatter.default(x, z, 0, h),
            aten.slice_scatter.default(x, w, 0, 0, w.shape[0]),
            x[1:] + 1,
            x[:-1] + 1,
            x[h:] + 1,
            x[:, x.shape[1] // 2 :] + 1,
            x[:, : x.shape[1] // 2] + 1,
            x[: x.shape[1]] + 1,
        )

    gm = make_fx(f, tracing_mode="symbolic")(torch.zeros(10, 3), torch.zeros(9, 3), torch.zeros(5, 3), torch.zeros(4, 3))
    (outputs,) = gm.graph.output_node().args
    return [n.args[0] if n.target == aten.add.Tensor else n for n in outputs]


def test_symbolic_slices():
    nodes = _symbolic_graph()
    from_1, head_h, from_h, head_w = (scatter_destination(n) for n in nodes[:4])
    shift1, drop_last, tail_h, cols_tail, cols_head, head_s1 = (region_of_node(n) for n in nodes[4:])
    assert not shift1.is_concrete()

    assert from_1 == shift1  # slice_scatter(x, y, 0, 1) writes x[1:]
    assert from_h == tail_h  # clamping s0//2 to [0, s0] needs the floor reasoning
    # min(w.shape[0], s0) is undecidable; the scatter's src supplies the size.
    assert head_w.sizes == region_of_node(nodes[3].args[1]).sizes
    assert head_w.offset == 0 and head_w.strides == from_1.strides
    assert may_overlap(shift1, drop_last)
    assert may_overlap(from_1, drop_last)
    assert not may_overlap(head_h, tail_h)  # x[:s0//2] vs x[s0//2:]
    assert not may_overlap(tail_h, head_h)
    assert not may_overlap(cols_head, cols_tail)  # x[:, :s1//2] vs x[:, s1//2:]
    assert may_overlap(head_h, shift1)
    assert may_overlap(cols_head, drop_last)
    # x[:s1] vs x[s0//2:]: depends on how s0 and s1 relate, so it may overlap.
    assert may_overlap(head_s1, tail_h)


def test_symbolic_first_row_and_the_rest_are_disjoint():
    # x[:1] and x[1:] of an (s0, s0) tensor (fuzz program 962): x[1:] has s0 - 1 rows, which may
    # be 0, and then it is empty; a proof of disjointness may assume every size is at least 1.
    s0 = sympy.Symbol("s0", positive=True, integer=True)
    first = Region(KEY, 0, (1, s0), (s0, 1), 8)
    rest = Region(KEY, s0, (s0 - 1, s0), (s0, 1), 8)
    assert not may_overlap(first, rest) and not may_overlap(rest, first)
    straddling = Region(KEY, s0 - 1, (2,), (1,), 8)      # the last element of x[0], the first of x[1]
    assert may_overlap(first, straddling) and may_overlap(rest, straddling)
    backwards = Region(KEY, s0 - 1, (s0,), (-1,), 8)      # x[0] reversed: the same elements as first
    assert may_overlap(first, backwards) and not may_overlap(rest, backwards)


def test_prover_on_floor_expressions():
    s0 = sympy.Symbol("s0", positive=True, integer=True)
    h = sympy.floor(s0 / 2)
    assert symbolic._proved_nonneg(s0 - h)
    assert symbolic._proved_nonneg(2 * h + 1 - s0)
    assert symbolic._proved_nonneg(sympy.ceiling(s0 / 3) * 3 - s0)
    assert not symbolic._proved_nonneg(h - 1)  # s0 == 1
    assert not symbolic._proved_nonneg(s0 - 2 * h - 1)  # even s0
    assert symbolic._proved_nonneg(h - 1, {"s0": 3})  # (s0 >= 2 suffices, but the relaxation loses that)
    from torch.utils._sympy.functions import FloorDiv

    assert symbolic._proved_nonneg(s0 - FloorDiv(s0, 2))
    assert not symbolic._proved_nonneg(sympy.Symbol("x", integer=True))


def test_symbolic_structured_case_uses_sympy():
    s0, s1 = sympy.symbols("s0 s1", positive=True, integer=True)
    h = sympy.floor(s0 / 2)
    head = Region(KEY, 0, (h, s1), (s1, 1), 4)
    tail = Region(KEY, h * s1, (s0 - h, s1), (s1, 1), 4)
    assert not may_overlap(head, tail)
    # Same boxes in a layout whose rows may overlap (row stride 2 < s1): unknown.
    tail_packed = Region(KEY, 2 * h, (s0 - h, s1), (2, 1), 4)
    head_packed = Region(KEY, 0, (h, s1), (2, 1), 4)
    assert may_overlap(head_packed, tail_packed)
    # An even/odd split is beyond the interval and box arguments: answer True.
    evens = Region(KEY, 0, (s0,), (2,), 4)
    odds = Region(KEY, 1, (s0,), (2,), 4)
    assert may_overlap(evens, odds)


def test_undecidable_symbolic_case_answers_true():
    s0, s1 = sympy.symbols("s0 s1", positive=True, integer=True)
    a = Region(KEY, 0, (s0,), (1,), 4)
    b = Region(KEY, s1, (4,), (1,), 4)
    assert may_overlap(a, b)
    c = Region(KEY, s0 + s1, (4,), (1,), 4)
    assert not may_overlap(a, c)
    # Assumptions add lower bounds: x[0:4] vs x[s1:s1+4] is disjoint once s1 >= 4.
    head = Region(KEY, 0, (4,), (1,), 4)
    assert may_overlap(head, b)
    assert may_overlap(head, b, assumptions={"s1": 3})
    assert not may_overlap(head, b, assumptions={"s1": 4})
    assert not may_overlap(head, b, assumptions={s1: 4})
    # ShapeEnv-style names count as sizes (>= 1) even without sympy assumptions.
    plain_size, unknown = sympy.Symbol("s5", integer=True), sympy.Symbol("k", integer=True)
    assert not may_overlap(head, Region(KEY, 3 + plain_size, (4,), (1,), 4))
    assert may_overlap(head, Region(KEY, 3 + unknown, (4,), (1,), 4))
    assert not may_overlap(head, Region(KEY, 3 + unknown, (4,), (1,), 4), assumptions={"k": 1})
    # Byte ranges: an 8-byte element at s0 may reach into a 4-byte view at s0*2.
    assert not may_overlap(a, Region(KEY, s0, (4,), (1,), 8))
    assert may_overlap(Region(KEY, 0, (s0,), (1,), 8), Region(KEY, s0, (4,), (1,), 4))


def test_symbolic_internal_overlap():
    s0, s1 = sympy.symbols("s0 s1", positive=True, integer=True)
    assert not has_internal_overlap(Region(KEY, 0, (s0, s1), (s1, 1), 4))
    assert has_internal_overlap(Region(KEY, 0, (s0, s1), (0, 1), 4))
    assert has_internal_overlap(Region(KEY, 0, (s0, s1), (1, 1), 4))
