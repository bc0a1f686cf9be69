"""End to end: the two real mutation cases on eager, stock Inductor and Inductor with our rules.

    python benchmarks/mutation_cases.py                 # 8M-element field, 1024-row slice, 256 indices
    python benchmarks/mutation_cases.py --rows 100000   # smaller

Everything runs under torch.inference_mode().  For each case and backend: 3 calls on fresh
inputs checked against eager (outputs and every mutated input), then steady-state timing (warm-up,
then the median of --calls calls), then the peak resident memory above the steady resident set
during a few more calls (Linux only; tracks the per-call clone stock Inductor keeps).  Writes the
current page benchmarks/results/mutation_cases.{md,json}, or mutation_cases_cuda on a CUDA device
(a new run replaces it and adds its row to the page's history).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
from common import (composed, composed_inputs, composed_small_slice, peak_extra_mib, same, steady_ms,  # noqa: E402
                    while_cond_mutation)
from results_page import RESULTS, cpu_machine, publish, run_info, text_block  # noqa: E402

from rewrite.backend import make_backend  # noqa: E402

TITLE = "the two mutation cases on eager, stock Inductor and rewrite"


def cases(args):
    """name -> (function, inputs factory)"""
    rows, cols = args.rows, 4

    def on_device(make):
        return lambda: tuple(t.to(args.device) for t in make())

    return {
        "1 while_loop cond mutates state": (while_cond_mutation, on_device(lambda: (torch.ones(()),))),
        f"2 composed, field[1:{1 + args.slice}]": (
            composed_small_slice, on_device(lambda: composed_inputs(rows, args.slice, args.indices, cols))),
        "2 composed, field[1:-1] (published)": (
            composed, on_device(lambda: composed_inputs(rows, rows - 2, args.indices, cols))),
    }


def run_calls(fn, inputs, n=3):
    """Outputs and mutated inputs after each of n calls."""
    out = []
    for _ in range(n):
        result = fn(*inputs)
        out.append((result, tuple(t.clone() for t in inputs)))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=2 ** 21, help="rows of the 4-column field (default 2**21: 8M elements)")
    p.add_argument("--slice", type=int, default=1024, help="rows in the small slice")
    p.add_argument("--indices", type=int, default=256)
    p.add_argument("--calls", type=int, default=20, help="timed calls per measurement (median reported)")
    p.add_argument("--results", type=Path, default=RESULTS, metavar="DIR",
                   help="folder of the current page (default benchmarks/results): mutation_cases.{md,json}, "
                        "or mutation_cases_cuda.{md,json} for a CUDA device")
    p.add_argument("--device", default="cpu", help="device of the inputs (cpu, cuda)")
    p.add_argument("--threads", type=int, default=1,
                   help="torch threads, also used by Inductor's kernels (default 1: on small shared VMs waking "
                        "a second thread can cost milliseconds per parallel region and swamps the comparison)")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)

    machine = cpu_machine()
    if args.device.startswith("cuda"):
        machine += f"; GPU: {torch.cuda.get_device_name(torch.device(args.device))}"
    current = run_info(__file__, {"rows": args.rows, "slice": args.slice, "indices": args.indices, "calls": args.calls,
                                  "device": args.device, "threads": args.threads}, argv, machine)
    rows = []
    lines = [f"field {args.rows}x4 float32 ({args.rows * 4 / 2 ** 20:.1f}M elements, {args.rows * 16 / 2 ** 20:.0f} MiB), "
             f"{args.indices} indices; torch.inference_mode(); median of {args.calls} calls after 3 warm-up calls; "
             f"torch threads: {torch.get_num_threads()}; device: {args.device}",
             "peak MiB: " + ("CUDA caching-allocator peak above what was allocated before 5 more calls"
                             if args.device.startswith("cuda") else
                             "resident memory above the steady resident set during 5 more calls"),
             "",
             f"{'case':<38} {'backend':<9} {'ms':>9} {'x eager':>8} {'matches eager':>13} {'peak MiB':>9}  fired"]
    print("\n".join(lines), flush=True)
    with torch.inference_mode():
        for name, (fn, make_inputs) in cases(args).items():
            reference, eager_ms = None, None
            for backend in ("eager", "inductor", "rewrite"):
                torch._dynamo.reset()
                # cache=False: a graph served from Inductor's FX graph cache skips the passes and
                # would not be reported among the fired rules.
                be = make_backend(cache=False) if backend == "rewrite" else None
                compiled = fn if backend == "eager" else torch.compile(fn, backend=be or backend)
                try:
                    results = run_calls(compiled, make_inputs())
                    ms = steady_ms(compiled, make_inputs(), calls=args.calls)
                    peak = peak_extra_mib(compiled, make_inputs())
                except Exception as exc:  # e.g. a torch release that cannot compile the program
                    error = f"{type(exc).__name__}: {str(exc).splitlines()[0][:90]}"
                    row = f"{name:<38} {backend:<9} failed: {error}"
                    print(row, flush=True)
                    lines.append(row)
                    rows.append({"case": name, "backend": backend, "error": error})
                    continue
                reference = reference or results
                eager_ms = eager_ms or ms
                fired = ", ".join(sorted(set(be.fired()))) if be else ""
                row = (f"{name:<38} {backend:<9} {ms:>9.3f} {ms / eager_ms:>8.2f} "
                       f"{'yes' if same(results, reference) else 'NO':>13} "
                       f"{'n/a' if peak is None else f'{peak:.1f}':>9}  {fired}")
                print(row, flush=True)
                lines.append(row)
                rows.append({"case": name, "backend": backend, "ms": round(ms, 4), "matches_eager": same(results, reference),
                             "peak_mib": None if peak is None else round(peak, 1), "fired": fired})
    current.update(rows=rows, text=lines)
    name = "mutation_cases_cuda" if args.device.startswith("cuda") else "mutation_cases"
    publish(name, TITLE + (" on CUDA" if name.endswith("cuda") else ""), current, headline(rows),
            lambda run: text_block(run["text"]), args.results)
    return 0


def headline(rows) -> dict:
    """The history row's figures: per case, ms per call on eager / stock Inductor / rewrite, with
    a wrong result or a failure marked and the peak memory of the compiled ones."""
    out = {}
    for case in dict.fromkeys(r["case"] for r in rows):
        cells = []
        for r in (r for r in rows if r["case"] == case):
            if "error" in r:
                cells.append(f"{r['backend']} failed")
                continue
            cell = f"{r['ms']:.3f}" + ("" if r["matches_eager"] else " wrong")
            if r["backend"] != "eager" and r["peak_mib"]:
                cell += f" (+{r['peak_mib']:.1f} MiB)"
            cells.append(cell)
        out[f"case {case}"] = " / ".join(cells)
    return out


if __name__ == "__main__":
    sys.exit(main())
