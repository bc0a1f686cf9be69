"""The two mutation cases that motivated this project, on eager, stock Inductor and the
``rewrite`` backend, side by side.

    python examples/mutation_bugs.py                # small sizes, < 2 minutes on 2 cores
    python examples/mutation_bugs.py --size large   # case 2 with an 8M-element field

Case 1: a ``torch.while_loop`` whose ``cond_fn`` mutates a captured tensor.  Stock Inductor drops
the mutation made inside the loop (``state`` ends at 0.8 instead of 0.1 after the first call);
the ``while_loop_captured_mutations`` dependency makes it data flow, so the result matches eager.

Case 2: a slice update followed by an ``index_copy_`` of values read from the updated field.
Functionalization turns it into ``slice_scatter`` (a full copy of ``field``) + ``index_put`` +
``copy_``; stock Inductor keeps the copy on every call, the reinplacing rule writes straight into
``field``.

The graph columns come from the graphs Inductor finally lowers, after all of its own passes (its
reinplacing included), captured from its ``post_grad_graphs`` log by
``rewrite.testing.final_graphs``: the ``slice_scatter`` count and the bytes every copy left in
them writes per call.  Everything below is measured in this run; nothing is hard-coded.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import torch
from torch._dynamo.backends.registry import lookup_backend

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from common import composed, composed_inputs, composed_small_slice, same, steady_ms, while_cond_mutation  # noqa: E402

import rewrite.backend  # noqa: E402
from rewrite.backend import make_backend  # noqa: E402
from rewrite.testing.final_graphs import capture_final_graphs  # noqa: E402

SIZES = {"small": 2 ** 16, "large": 2 ** 21}   # rows of the 4-column field in case 2
BACKENDS = ("eager", "inductor", "rewrite")


def cases(rows: int):
    """name -> (function, inputs factory, what to show of the state after a call)"""
    def field_sum(inputs, _out):
        return f"sum(field)={inputs[0].sum().item():.6g}"

    return {
        "1 while_loop, cond mutates": (while_cond_mutation, lambda: (torch.ones(()),),
                                       lambda inputs, out: f"state={inputs[0].item():.4g}"),
        f"2 composed field[1:-1] ({rows}x4)": (composed, lambda: composed_inputs(rows, rows - 2, 256), field_sum),
        f"2 composed field[1:1025] ({rows}x4)": (composed_small_slice, lambda: composed_inputs(rows, 1024, 256), field_sum),
    }


def run_case(fn, make_inputs, show, backend: str, calls: int):
    """3 calls on fresh inputs: what each left behind, everything for the eager comparison, the
    final graphs Inductor lowered (compiled backends), then the steady-state time per call."""
    torch._dynamo.reset()
    compiled = fn if backend == "eager" else torch.compile(fn, backend=backend)
    inputs, states, trace = make_inputs(), [], []
    with capture_final_graphs() as graphs:
        for _ in range(3):
            out = compiled(*inputs)
            states.append(show(inputs, out))
            trace.append((out, tuple(t.clone() for t in inputs)))
    ms = steady_ms(compiled, make_inputs(), calls=calls)
    return states, trace, ms, (graphs if backend != "eager" else None)


def final_columns(graphs) -> str:
    """``slice_scatter`` count and MiB written by the copies left in the final graphs."""
    if graphs is None:
        return f"{'-':>13} {'-':>10}"
    scatters = sum(g.op_counts().get("aten.slice_scatter", 0) for g in graphs)
    written = sum(c.node.type.nbytes or 0 for g in graphs for c in g.copies() if c.node.type is not None)
    return f"{scatters:>13} {written / 2 ** 20:>10.2f}"


def where(location: str) -> str:
    path, _, line = location.rpartition(":")
    try:
        path = os.path.relpath(path)
    except ValueError:
        pass
    return f"{path}:{line}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", choices=sorted(SIZES), default="small",
                   help=f"case 2 field rows: {', '.join(f'{k}={v}' for k, v in SIZES.items())} (x4 columns)")
    p.add_argument("--calls", type=int, default=20, help="timed calls per measurement (median reported)")
    p.add_argument("--threads", type=int, default=1,
                   help="torch threads, also used by Inductor's kernels (default 1: on small shared VMs waking "
                        "a second thread can cost milliseconds per parallel region and swamps the comparison)")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)

    entry = lookup_backend("rewrite")
    print(f'torch.compile(fn, backend="rewrite") resolves to {entry.__module__}.{entry.__name__} '
          f"({'the installed entry point' if entry is rewrite.backend.rewrite_backend else 'NOT rewrite.backend.rewrite_backend'})")
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, all calls under torch.inference_mode()\n")

    head = (f"{'case':<34} {'backend':<9} {'after call 1':<22} {'after call 2':<22} {'after call 3':<22} "
            f"{'= eager':<7} {'ms/call':>9} {'slice_scatter':>13} {'copies MiB':>10}")
    print(head)
    print("-" * len(head))
    reports = {}
    with torch.inference_mode():
        for name, (fn, make_inputs, show) in cases(SIZES[args.size]).items():
            reference = None
            for backend in BACKENDS:
                states, trace, ms, graphs = run_case(fn, make_inputs, show, backend, args.calls)
                reference = reference or trace
                print(f"{name:<34} {backend:<9} {states[0]:<22} {states[1]:<22} {states[2]:<22} "
                      f"{'yes' if same(trace, reference) else 'NO':<7} {ms:>9.3f} {final_columns(graphs)}", flush=True)
            # The same rules through make_backend(), which keeps a Report per graph it rewrote.
            # cache=False: a graph served from Inductor's FX graph cache skips the passes, so it
            # would not be reported.
            torch._dynamo.reset()
            be = make_backend(cache=False)
            torch.compile(fn, backend=be)(*make_inputs())
            reports[name] = be.reports
    print("\nslice_scatter, copies MiB: in the graphs Inductor finally lowers (after all of its passes, its own "
          "reinplacing included); copies MiB = bytes written per call by the full-buffer copies left in them "
          "(rewrite.testing.final_graphs); ms/call: median of", args.calls, "calls after warm-up")

    print("\nRules that fired (make_backend().reports):")
    for name, reps in reports.items():
        print(f"  case {name}:")
        for rep in reps:
            for c in rep.fired:
                print(f"    {c.rule} at {where(c.location)} on {c.node} [{c.graph}]")
                print(f"      removed {', '.join(c.before) or '-'}; added {', '.join(c.after) or '-'}")
            if rep.fired and rep.ops_before != rep.ops_after:
                changed = sorted(k for k in set(rep.ops_before) | set(rep.ops_after)
                                 if rep.ops_before.get(k, 0) != rep.ops_after.get(k, 0))
                print("      ops before -> after: " + ", ".join(
                    f"{k} {rep.ops_before.get(k, 0)}->{rep.ops_after.get(k, 0)}" for k in changed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
