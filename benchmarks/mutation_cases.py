"""End to end: the two real mutation cases on eager, stock Inductor and Inductor with our rules.

    python benchmarks/mutation_cases.py                 # 8M-element field, 1024-row slice, 256 indices
    python benchmarks/mutation_cases.py --rows 100000   # smaller

Everything runs under torch.inference_mode().  For each case and backend: 3 calls on fresh
inputs checked against eager (outputs and every mutated input), then steady-state timing (warm-up,
then the median of --calls calls), then the peak resident memory above the steady resident set
during a few more calls (Linux only; tracks the per-call clone stock Inductor keeps).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
from common import (composed, composed_inputs, composed_small_slice, machine, peak_extra_mib, same,  # noqa: E402
                    stamp, steady_ms, while_cond_mutation, write_results)

from rewrite.backend import make_backend  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "mutation_cases.txt"


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
    p.add_argument("--out", type=Path, default=RESULTS)
    p.add_argument("--device", default="cpu", help="device of the inputs (cpu, cuda)")
    p.add_argument("--threads", type=int, default=1,
                   help="torch threads, also used by Inductor's kernels (default 1: on small shared VMs waking "
                        "a second thread can cost milliseconds per parallel region and swamps the comparison)")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)

    lines = [f"mutation_cases  {stamp()}", f"machine: {machine()}",
             f"field {args.rows}x4 float32 ({args.rows * 4 / 2 ** 20:.1f}M elements, {args.rows * 16 / 2 ** 20:.0f} MiB), "
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
                    row = f"{name:<38} {backend:<9} failed: {type(exc).__name__}: {str(exc).splitlines()[0][:90]}"
                    print(row, flush=True)
                    lines.append(row)
                    continue
                reference = reference or results
                eager_ms = eager_ms or ms
                fired = ", ".join(sorted(set(be.fired()))) if be else ""
                row = (f"{name:<38} {backend:<9} {ms:>9.3f} {ms / eager_ms:>8.2f} "
                       f"{'yes' if same(results, reference) else 'NO':>13} "
                       f"{'n/a' if peak is None else f'{peak:.1f}':>9}  {fired}")
                print(row, flush=True)
                lines.append(row)
    write_results(args.out, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
