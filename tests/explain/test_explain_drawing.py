"""The pictures of ``rewrite explain --html`` from reports built as data (nothing compiled):
label wrapping, layering and placement, collapsing of large graphs, write edges, the legend and
the page's structure."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from explain_samples import LONG_NAME, LONG_OP, UPDATE_AT, synthetic_report, unchanged_dynamo_report
from rewrite.engine.report import Candidate, GraphSnapshot, NodeInfo, Report
from rewrite.explain import collapse, style
from rewrite.explain.diff import candidate_marks, compare, writes_of
from rewrite.explain.html import render_html
from rewrite.explain.labels import box_lines, tooltip
from rewrite.explain.layout import (CHAR_W, GAP_X, MAX_W, PAD_X, _place_row, layers, layout, measure,
                                    wrap)
from rewrite.explain.picture import draw


@pytest.fixture(scope="module")
def synthetic():
    return synthetic_report()


def _laid_out(graph):
    return layout(graph, {n.id: box_lines(n) for n in graph.nodes})


def _svgs(page):
    return re.findall(r'<svg xmlns="http://www.w3.org/2000/svg" class="graph".*?</svg>', page, flags=re.S)


# --------------------------------------------------------------------------- labels and boxes


def test_wrap_keeps_every_character_and_prefers_separators():
    assert wrap("short", 10) == ["short"]
    pieces = wrap(LONG_OP, 20)
    assert "".join(pieces) == LONG_OP and all(len(p) <= 20 for p in pieces)
    assert pieces[0] == "aten._scaled_dot_"                      # broken after "_", not mid-word
    assert wrap("aten.mul \u00d716, aten.view \u00d714", 22) == ["aten.mul \u00d716, ", "aten.view \u00d714"]
    assert wrap("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]   # no separator: a hard break


def test_boxes_are_wide_enough_for_their_lines():
    lines = [("name", LONG_NAME), ("op", LONG_OP), ("value", "f32[2, 8, 128, 64]")]
    w, h, wrapped = measure(lines)
    assert w <= MAX_W and len(wrapped) > len(lines)
    assert "".join(t for r, t in wrapped if r == "name") == LONG_NAME
    assert all(len(t) * CHAR_W + 2 * PAD_X <= w + 1e-6 for _, t in wrapped)
    w2, _, wrapped2 = measure([("name", "x")])
    assert wrapped2 == [("name", "x")] and w2 < w


# --------------------------------------------------------------------------- layout


def _chain_graph():
    nodes = [NodeInfo("a", "placeholder", "a", (), (), "f32[4]"),
             NodeInfo("b", "placeholder", "b", (), (), "f32[4]"),
             NodeInfo("c", "call_function", "aten.neg", ("a",), (), "f32[4]"),
             NodeInfo("d", "call_function", "aten.neg", ("c",), (), "f32[4]"),
             NodeInfo("e", "call_function", "aten.add", ("d", "a", "b"), (), "f32[4]"),
             NodeInfo("f", "call_function", "aten.copy_", ("a", "e"), ("a",), "f32[4]"),
             NodeInfo("output", "output", "output", ("e",), (), "")]
    return GraphSnapshot(nodes)


def test_layers_put_sources_just_above_their_first_reader_and_the_output_last():
    depth = layers(collapse.full(_chain_graph()))
    assert depth["a"] == 0 and depth["c"] == 1 and depth["d"] == 2 and depth["e"] == 3
    assert depth["b"] == 2                      # read only by e
    assert depth["output"] == max(depth.values()) and depth["output"] > depth["f"]


def test_in_place_ops_are_drawn_in_program_order():
    """x[1:-1] = d; torch.relu_(x); x.mul_(2); x.sum(): all read x, but each must come after the
    write before it, and the sum after the last."""
    nodes = [NodeInfo("x", "placeholder", "x", (), (), "f32[8]"), NodeInfo("d", "placeholder", "d", (), (), "f32[6]"),
             NodeInfo("setitem", "call_function", "setitem", ("x", "d"), (), ""),
             NodeInfo("relu_", "call_function", "relu_", ("x",), (), "f32[8]"),
             NodeInfo("mul_", "call_method", "mul_", ("x",), (), "f32[8]"),
             NodeInfo("sum_1", "call_method", "sum", ("x",), (), "f32[]"),
             NodeInfo("other", "call_method", "neg", ("d",), (), "f32[6]"),
             NodeInfo("output", "output", "output", ("sum_1", "other"), (), "")]
    graph = collapse.full(GraphSnapshot(nodes))
    depth = layers(graph)
    assert depth["setitem"] < depth["relu_"] < depth["mul_"] < depth["sum_1"] < depth["output"]
    assert depth["other"] == 1                   # reads only d: order does not concern it
    # A write also waits for the readers of what it overwrites (slice_1 reads a before f writes it).
    chain = layers(collapse.full(_chain_graph()))
    assert chain["f"] > chain["e"]


def test_place_row_keeps_order_and_gaps_and_desired_places_when_free():
    sizes = {k: (100.0, 30.0, []) for k in "abc"}
    free = _place_row(["a", "b", "c"], {"a": 0.0, "b": 500.0, "c": 1000.0}, sizes)
    assert free == {"a": 0.0, "b": 500.0, "c": 1000.0}
    crowded = _place_row(["a", "b", "c"], {"a": 0.0, "b": 0.0, "c": 1000.0}, sizes)
    assert crowded["b"] - crowded["a"] == pytest.approx(100 + GAP_X)
    assert crowded["a"] + crowded["b"] == pytest.approx(0.0)     # the pair centred on what it wants
    assert crowded["c"] == 1000.0


def test_layout_reads_go_down_boxes_do_not_overlap_and_long_reads_take_lanes(synthetic):
    graph = collapse.full(synthetic.before)
    lay = _laid_out(graph)
    depth = layers(graph)
    for a, b in graph.reads:
        assert lay.boxes[a].bottom < lay.boxes[b].y
        assert len(lay.routes[(a, b)]) == depth[b] - depth[a] - 1
        ys = [y for _, y in lay.read_points(a, b)]
        assert ys == sorted(ys)
    for row in lay.rows:
        boxes = sorted((lay.boxes[k] for k in row), key=lambda b: b.x)
        assert all(p.x + p.w + GAP_X - 1e-6 <= q.x for p, q in zip(boxes, boxes[1:]))
    assert all(0 <= b.x and b.x + b.w <= lay.width and b.bottom <= lay.height for b in lay.boxes.values())
    assert lay.width < 1600                     # 299 nodes, still a readable width


# --------------------------------------------------------------------------- collapsing


def test_neighbourhood_follows_reads_both_ways_and_keeps_written_buffers():
    assert collapse.neighbourhood(_chain_graph(), {"d"}, context=1) == {"d", "c", "e", "output"}
    assert collapse.neighbourhood(_chain_graph(), {"e"}, context=1) == {"e", "d", "a", "b", "f", "output"}
    assert collapse.neighbourhood(_chain_graph(), {"c"}, context=2) == {"c", "a", "d", "e", "output"}


def test_condensed_graph_collapses_far_regions_and_stays_acyclic(synthetic):
    change = compare(synthetic.before, synthetic.after)
    focus = change.touched | {c.node for c in synthetic.candidates}
    graph = collapse.condensed(synthetic.before, focus)
    drawn = [n for n in graph.nodes if not n.is_region]
    regions = [n for n in graph.nodes if n.is_region]
    assert len(drawn) + graph.hidden_count == len(synthetic.before.nodes)
    assert graph.hidden_count > 200 and len(graph.nodes) < 60
    assert focus & set(synthetic.before.names()) <= {n.id for n in drawn}
    assert all(len(r.hidden) >= collapse.MIN_REGION for r in regions)
    order = {n.id: i for i, n in enumerate(graph.nodes)}
    assert all(order[a] < order[b] for a, b in graph.reads)      # topological, hence acyclic
    position = {n.name: i for i, n in enumerate(synthetic.before.nodes)}
    for r in regions:       # a region never spans a drawn node (that is what keeps it acyclic)
        span = range(position[r.hidden[0].name], position[r.hidden[-1].name] + 1)
        assert not any(position[n.id] in span for n in drawn)
    assert "\u2026" in box_lines(regions[0])[0][1] and "nodes collapsed" in tooltip(regions[0])


def test_small_graphs_and_small_leftovers_are_not_collapsed():
    snap = _chain_graph()
    graph = collapse.condensed(snap, {"f"})
    assert graph.hidden_count == 0                       # fewer than MIN_REGION far nodes
    assert collapse.full(snap).hidden_count == 0


# --------------------------------------------------------------------------- write edges


def test_write_edges_from_in_place_ops_to_what_they_write(synthetic):
    graph = collapse.full(synthetic.before)
    i = UPDATE_AT[0]
    assert (f"copy__{i}", "arg0_1") in graph.writes
    after = collapse.full(synthetic.after)
    assert (f"copy__default_{i}", f"slice_tensor_{i}") in after.writes
    # A Dynamo graph's in-place tensor method writes the tensor it is called on.
    dyn = unchanged_dynamo_report().before
    assert writes_of(dyn.nodes[3]) == ("getitem",) and collapse.full(dyn).writes == [("add_", "getitem")]
    assert writes_of(NodeInfo("s", "call_function", "relu_", ("x",), (), "")) == ("x",)
    assert writes_of(NodeInfo("s", "call_function", "setitem", ("x", "v"), (), "")) == ("x",)
    assert writes_of(NodeInfo("s", "call_method", "sum", ("x",), (), "")) == ()
    assert writes_of(NodeInfo("s", "call_method", "__setitem__", ("x",), (), "")) == ()
    assert writes_of(NodeInfo("s", "call_function", "aten.add_", ("x", "y"), (), "")) == ()   # the report's word
    assert writes_of(NodeInfo("s", "call_function", "getitem", ("x",), (), "")) == ()


def test_write_edges_are_drawn_dashed_in_the_write_colour(synthetic):
    change = compare(synthetic.before, synthetic.after)
    svg = draw(synthetic.before, change, "before", synthetic.candidates, "t", True, "before").svg
    writes = re.findall(r'<path class="writes"[^>]*>', svg)
    assert len(writes) == 2
    assert all(f'stroke="{style.colour("writes")}"' in w and "stroke-dasharray" in w for w in writes)
    assert f"copy__{UPDATE_AT[0]} writes into arg0_1" in svg
    assert svg.count('class="in-place"') == 2


# --------------------------------------------------------------------------- looks, legend, page


def test_changes_and_candidates_decide_the_looks(synthetic):
    change = compare(synthetic.before, synthetic.after)
    i = UPDATE_AT[0]
    assert change.status(f"slice_scatter_{i}", "before") == "removed"
    assert change.status(f"slice_tensor_{i}", "after") == "added"
    assert change.status(f"add_{i}", "after") == "same" and not change.changed
    marks = candidate_marks(synthetic.candidates)
    assert marks[f"slice_scatter_{i}"] == "fired" and marks[f"copy__default_{i}"] == "rejected"
    both = [Candidate("r", "x:1", "n", "g", stopped_at="where"), Candidate("r2", "x:2", "n", "g", stopped_at=None)]
    assert candidate_marks(both) == {"n": "fired"} == candidate_marks(both[::-1])
    changed = compare(GraphSnapshot([NodeInfo("n", "call_function", "aten.add", ("a",), (), "")]),
                      GraphSnapshot([NodeInfo("n", "call_function", "aten.add_", ("a",), ("a",), "")]))
    assert changed.changed == {"n"} and changed.status("n", "after") == "changed"


def test_every_colour_drawn_is_in_the_legend(synthetic):
    page = render_html([unchanged_dynamo_report(), synthetic], title="t")
    legend = page[page.index('<ul class="legend">'):page.index("</ul>")]
    legend_colours = set(re.findall(r'(?:fill|stroke)="(#[0-9a-f]{6})"', legend))
    assert {s.colour for s in style.ALL} <= legend_colours
    assert [k for k in re.findall(r'data-key="(\w+)"', legend)] == [s.key for s in style.ALL]
    used = set()
    for svg in _svgs(page):
        shapes = re.sub(r"<text.*?</text>", "", svg, flags=re.S)   # text is ink, not a meaning
        used |= set(re.findall(r'(?:fill|stroke)="(#[0-9a-f]{6})"', shapes))
    assert used and used <= legend_colours
    assert {style.colour(k) for k in ("removed", "added", "region", "in_place", "fired", "rejected", "writes")} <= used


def test_page_draws_each_distinct_graph_once_and_collapses_large_ones(synthetic):
    dynamo = unchanged_dynamo_report()
    page = render_html([dynamo, synthetic, unchanged_dynamo_report()], title="t")
    assert "<script" not in page and "<link" not in page and " src=" not in page
    assert "http" not in page.replace("http://www.w3.org/2000/svg", "")
    sections = re.findall(r"<section.*?</section>", page, flags=re.S)
    assert len(sections) == 3
    # The unchanged Dynamo graph: one picture, marked unchanged; the same graph again: a link.
    assert len(_svgs(sections[0])) == 1 and "unchanged by the rules" in sections[0]
    assert len(_svgs(sections[2])) == 0 and 'href="#graph-0"' in sections[2]
    # The changed large graph: before and after collapsed, and both in full behind a toggle.
    svgs = _svgs(sections[1])
    assert len(svgs) == 4
    assert "nodes collapsed into grey boxes" in sections[1] and "<details><summary>the full graphs" in sections[1]
    assert all(len(re.findall(r'<g class="node', s)) < 60 for s in svgs[:2])
    assert all(len(re.findall(r'<g class="node', s)) == len(synthetic.before.nodes) for s in svgs[2:])
    for svg in _svgs(page):
        ET.fromstring(svg)
    assert f"<title>{LONG_NAME}" in page                       # full labels on hover
    # The candidate table: every step, the one that stopped a candidate marked.
    assert page.count('<span class="step') == 5 * 6 and '<span class="step stopped" title="safe:' in page


def test_page_for_a_cache_hit_and_an_unrecorded_graph():
    page = render_html([Report("forward", cache_hit=True), Report("backward")], title="t")
    assert "served from Inductor's cache" in page and "The graph was not recorded." in page


def test_very_large_graphs_are_drawn_collapsed_only():
    big = synthetic_report(ops=1000)
    page = render_html([big], title="t")
    assert len(_svgs(page)) == 2 and f"The full graph ({len(big.before.nodes)} nodes) is too large" in page
