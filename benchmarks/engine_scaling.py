"""How the rule engine's cost grows with graph size, next to Inductor's own reinplacing pass.

    python benchmarks/engine_scaling.py            # ~1k, ~10k, ~50k nodes; about 3 minutes on 2 cores
    python benchmarks/engine_scaling.py --sizes 1000 10000

The graphs are post-grad-style ATen inference graphs.  One "layer" (below) is traced with
``make_fx`` over ``torch.func.functionalize(..., remove="mutations")`` using Inductor's
decomposition table, exactly as AOTAutograd would hand it to Inductor: the in-place updates of
``field`` become ``slice_scatter``/``index_put`` chains with a ``copy_`` epilogue.  The traced layer
is then stitched N times into one graph (each layer gets its own ``field`` input; the activation
``x`` flows from layer to layer; all ``copy_`` epilogues go at the end, as AOTAutograd places them)
and fake values are recomputed with ``FakeTensorProp``, so every node has its own ``meta['val']``.
Stitching gives the same ops as tracing all N layers at once, in about half the time.

Each measurement deep-copies the GraphModule first and times only the pass; the figure reported
is the median over the runs.  Ours is ``RuleSet.apply(gm, "inference")`` with the shipped rules
(everything it does, including its final ``gm.recompile()``).  The last columns split ours by
``Report.seconds``: the legality check under every rewrite, the simulation of Inductor's own
reinplacing that decides ownership after the rules, and measuring the copies stock Inductor would
leave (for the report; skipped above 20,000 nodes).  Inductor's is
``reinplace_inplaceable_ops(FakeTensorUpdater(gm), gm.graph)``, timed without building the
``FakeTensorUpdater`` (in ``post_grad_passes`` that is built once and shared by several passes).

Writes the current page benchmarks/results/engine_scaling.{md,json} (a new run replaces it and adds
its row to the page's history).  Nothing is asserted; the goals in the summary lines are reported,
not enforced.
"""
from __future__ import annotations

import argparse
import copy
import gc
import statistics
import sys
import time
from pathlib import Path

import torch
import torch.fx as fx
from torch._inductor.decomposition import select_decomp_table
from torch._inductor.fx_passes.reinplace import reinplace_inplaceable_ops
from torch._inductor.fx_utils import FakeTensorUpdater
from torch._inductor.virtualized import V
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.proxy_tensor import make_fx
from torch.fx.passes.fake_tensor_prop import FakeTensorProp

sys.path.insert(0, str(Path(__file__).parent))
from results_page import RESULTS, publish, run_info, text_block  # noqa: E402

from rewrite.engine.ruleset import RuleSet  # noqa: E402

TITLE = "the rule engine's pass and Inductor's reinplacing on graphs of 1k to 50k nodes"
BLOCKS, SLICE, ROWS, COLS, NIDX = 4, 8, 64, 4, 4


def layer(x, delta, idx, gain, field):
    """One layer: a few slice updates and read-modify-write index_copy_ of one buffer, plus
    unrelated pointwise work on the activation."""
    for k in range(BLOCKS):
        field[k:k + SLICE].add_(delta[k])
        values = field.index_select(0, idx) * gain
        field.index_copy_(0, idx, values)
        x = torch.tanh(x) * 0.5 + values.sum()
    return x


def example_inputs(layers: int):
    shared = (torch.randn(COLS), torch.randn(BLOCKS, SLICE, COLS), torch.arange(NIDX) * 3, torch.randn(NIDX, COLS))
    return shared + tuple(torch.randn(ROWS, COLS) for _ in range(layers))


def trace_layer() -> fx.GraphModule:
    fn = torch.func.functionalize(layer, remove="mutations")
    return make_fx(fn, decomposition_table=select_decomp_table(), tracing_mode="fake")(*example_inputs(1))


def build(layers: int, template: fx.GraphModule) -> fx.GraphModule:
    """``layers`` copies of the traced layer in one graph, with fresh fake values."""
    tg = template.graph
    x_in, *shared_in, field_in = [n for n in tg.nodes if n.op == "placeholder"]
    (x_out,) = tg.output_node().args
    g = fx.Graph()
    x = g.placeholder("x")
    shared = {n: g.placeholder(n.name) for n in shared_in}
    epilogue = []
    for i in range(layers):
        env = {**shared, x_in: x, field_in: g.placeholder(f"field_{i}")}
        for n in tg.nodes:
            if n.op in ("placeholder", "output"):
                continue
            if n.target is torch.ops.aten.copy_.default:
                epilogue.append((n, env))
            else:
                env[n] = g.node_copy(n, env.__getitem__)
        x = env[x_out]
    for n, env in epilogue:
        g.node_copy(n, env.__getitem__)
    g.output(x)
    gm = fx.GraphModule(torch.nn.Module(), g)
    mode = FakeTensorMode()
    FakeTensorProp(gm, mode).propagate(*(mode.from_tensor(t) for t in example_inputs(layers)))
    return gm


class Fired(int):
    """The number of rules that fired, carrying the report's time split."""
    seconds: dict


def run_ours(rule_set: RuleSet):
    def run(gm: fx.GraphModule):
        t0 = time.perf_counter()
        report = rule_set.apply(gm, graph_kind="inference")
        elapsed = time.perf_counter() - t0
        fired = Fired(len(report.fired))
        fired.seconds = dict(report.seconds, total=elapsed)
        return elapsed, fired
    return run


def share(fired, key: str) -> str:
    """``key``'s share of the pass's time in the last run."""
    seconds = getattr(fired, "seconds", {})
    return f"{seconds.get(key, 0.0) / seconds['total']:.0%}" if seconds.get("total") else "-"


def run_inductor(gm: fx.GraphModule):
    vals = [n.meta["val"] for n in gm.graph.nodes if "val" in n.meta]
    updater = FakeTensorUpdater(gm)
    with V.set_fake_mode(torch._guards.detect_fake_mode(vals)):
        t0 = time.perf_counter()
        reinplace_inplaceable_ops(updater, gm.graph)
        return time.perf_counter() - t0, None


def measure(gm: fx.GraphModule, run, repeats: int, budget_s: float):
    """Median seconds of ``run`` on fresh deep copies; stops early when another run would take
    the total past ``budget_s``.  Returns (median, runs, last result, last graph)."""
    times, result, copy_gm = [], None, None
    while len(times) < repeats:
        copy_gm = copy.deepcopy(gm)
        gc.collect()
        t, result = run(copy_gm)
        times.append(t)
        if sum(times) + statistics.median(times) > budget_s:
            break
    return statistics.median(times), len(times), result, copy_gm


def count(gm: fx.GraphModule, target) -> int:
    return sum(1 for n in gm.graph.nodes if n.target is target)


def outputs_match(original: fx.GraphModule, rewritten: fx.GraphModule, layers: int) -> bool:
    """Run both graphs on the same real inputs; compare the output and every mutated field."""
    a = example_inputs(layers)
    b = tuple(t.clone() for t in a)
    with torch.inference_mode():
        out_a, out_b = original(*a), rewritten(*b)
    return torch.allclose(out_a, out_b) and all(torch.allclose(x, y) for x, y in zip(a, b))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 50000], help="approximate node counts")
    p.add_argument("--repeats", type=int, default=5, help="runs per measurement (at most)")
    p.add_argument("--budget", type=float, default=45.0, help="seconds of timed runs per measurement before stopping early")
    p.add_argument("--results", type=Path, default=RESULTS, metavar="DIR",
                   help="folder of the current page engine_scaling.{md,json} (default benchmarks/results)")
    args = p.parse_args(argv)

    rule_set = RuleSet.load()
    template = trace_layer()
    per_layer = sum(1 for n in template.graph.nodes if n.op not in ("placeholder", "output"))
    current = run_info(__file__, {"sizes": args.sizes, "repeats": args.repeats, "budget_s": args.budget}, argv)
    lines = [
        f"rules: the {len(rule_set)} shipped rules and dependencies; graph: {per_layer} ATen nodes per layer "
        f"({BLOCKS} slice add_ + index_copy_ blocks on one {ROWS}x{COLS} buffer, plus pointwise work)",
        "median over runs on deep copies; 'runs' is ours/inductor; "
        "'scatters': slice_scatter nodes in the original graph / after ours / after inductor's",
        "",
        f"{'nodes':>7} {'layers':>6} {'runs':>5} {'ours ms':>9} {'ours us/node':>12} {'inductor ms':>11} "
        f"{'ind us/node':>11} {'ours/ind':>8} {'fired':>6} {'scatters before/ours/ind':>25} "
        f"{'legality':>8} {'ownership':>9} {'copy measure':>12}",
    ]
    print("\n".join(lines), flush=True)
    measured, rows = {}, []
    for target in args.sizes:
        layers = max(1, round((target - 5) / per_layer))
        gm = build(layers, template)
        nodes = len(gm.graph.nodes)
        t_ours, n_ours, fired, ours_gm = measure(gm, run_ours(rule_set), args.repeats, args.budget)
        t_ind, n_ind, _, ind_gm = measure(gm, run_inductor, args.repeats, args.budget)
        scatter = torch.ops.aten.slice_scatter.default
        row = (f"{nodes:>7} {layers:>6} {f'{n_ours}/{n_ind}':>5} {t_ours * 1e3:>9.1f} {t_ours * 1e6 / nodes:>12.1f} "
               f"{t_ind * 1e3:>11.1f} {t_ind * 1e6 / nodes:>11.1f} {t_ours / t_ind:>8.2f} {fired:>6} "
               f"{f'{count(gm, scatter)}/{count(ours_gm, scatter)}/{count(ind_gm, scatter)}':>25} "
               f"{share(fired, 'legality'):>8} {share(fired, 'ownership'):>9} {share(fired, 'copy_measure'):>12}")
        print(row, flush=True)
        lines.append(row)
        seconds = getattr(fired, "seconds", {})
        rows.append({"nodes": nodes, "layers": layers, "runs_ours": n_ours, "runs_inductor": n_ind,
                     "ours_ms": round(t_ours * 1e3, 1), "inductor_ms": round(t_ind * 1e3, 1), "fired": int(fired),
                     "scatters": [count(gm, scatter), count(ours_gm, scatter), count(ind_gm, scatter)],
                     "shares": {k: round(seconds.get(k, 0.0) / seconds["total"], 3)
                                for k in ("legality", "ownership", "copy_measure")} if seconds.get("total") else None})
        if target == min(args.sizes):
            check = f"  check at {nodes} nodes: rewritten graphs compute the same outputs and buffers as the original: " \
                    f"ours {'yes' if outputs_match(gm, ours_gm, layers) else 'NO'}, " \
                    f"inductor {'yes' if outputs_match(gm, ind_gm, layers) else 'NO'}"
            print(check, flush=True)
            lines.append(check)
        measured[target] = (nodes, t_ours, t_ind)
        del gm, ours_gm, ind_gm

    summary = []
    if 10000 in measured and 50000 in measured:
        (n10, o10, i10), (n50, o50, i50) = measured[10000], measured[50000]
        summary.append(f"50k/10k time ratio for {n50 / n10:.2f}x the nodes: ours {o50 / o10:.2f} "
                     f"(goal <= 5.5: {'met' if o50 / o10 <= 5.5 else 'NOT met'}), inductor {i50 / i10:.2f}")
    if 10000 in measured:
        _, o10, i10 = measured[10000]
        summary.append(f"at ~10k nodes ours/inductor = {o10 / i10:.2f} (goal <= 1.0: {'met' if o10 <= i10 else 'NOT met'})")
    print("\n".join(summary))
    lines += [""] + summary
    current.update(rows=rows, text=lines)
    publish("engine_scaling", TITLE, current, headline(rows), lambda run: text_block(run["text"]), args.results)
    return 0


def headline(rows) -> dict:
    """The history row's figures: ours and Inductor's ms per size, their ratio at ~10k nodes and
    how each grows from ~10k to ~50k nodes."""
    out = {f"{r['nodes']:,} nodes ours / Inductor ms": f"{r['ours_ms']:.0f} / {r['inductor_ms']:.0f}" for r in rows}
    by_size = {round(r["nodes"], -4): r for r in rows}
    if 10000 in by_size:
        r10 = by_size[10000]
        out["ours/Inductor at ~10k"] = f"{r10['ours_ms'] / r10['inductor_ms']:.2f}"
        if 50000 in by_size:
            r50 = by_size[50000]
            out["50k/10k time ratio ours / Inductor"] = (f"{r50['ours_ms'] / r10['ours_ms']:.2f} / "
                                                        f"{r50['inductor_ms'] / r10['inductor_ms']:.2f}")
    return out


if __name__ == "__main__":
    sys.exit(main())
