"""Memory of a long-running process that compiles many graphs (issue #10): does a `rewrite`
backend keep what it compiled?

    python benchmarks/backend_memory.py                 # 1,000 graphs per backend (about 10 minutes)
    python benchmarks/backend_memory.py --graphs 200

Each backend runs in a fresh process and compiles --graphs distinct programs (one code object
each, so Dynamo compiles each once), calling each compiled function once.  Resident memory is
sampled every 100 graphs after a garbage collection.  ``aot_eager`` is the reference: Dynamo's
own caches (guards, code objects, compiled graphs) grow with the number of programs whatever the
backend does, so what the rewrite backend adds is the difference in growth, next to the number of
reports and graphs it holds.  Writes the current page benchmarks/results/backend_memory.{md,json};
nothing is asserted.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))
from results_page import RESULTS, publish, run_info, text_block  # noqa: E402

TITLE = "memory of a process whose backend compiles many graphs"

PROGRAM = """
def f_{i}(x, d):
    x[1:-1].add_(d * {c})
    return x.sum() + {i}
"""


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


def worker(backend_name: str, graphs: int) -> dict:
    import torch

    torch._dynamo.config.cache_size_limit = 8
    if backend_name == "rewrite":
        from rewrite.backend import make_backend

        backend = make_backend(base="eager", cache=False)
    else:
        backend = backend_name
    samples = []
    started = time.perf_counter()
    x, d = torch.zeros(64), torch.ones(62)
    for i in range(graphs):
        namespace: dict = {}
        exec(PROGRAM.format(i=i, c=float(i % 7 + 1)), namespace)
        compiled = torch.compile(namespace[f"f_{i}"], backend=backend, fullgraph=True)
        compiled(x, d)
        if (i + 1) % 100 == 0 or i == 0:
            gc.collect()
            held = (len(backend.reports), len(backend.graphs)) if backend_name == "rewrite" else (None, None)
            samples.append({"graphs": i + 1, "rss_mib": round(rss_mib(), 1), "reports": held[0],
                            "kept_graphs": held[1], "seconds": round(time.perf_counter() - started, 1)})
    return {"backend": backend_name, "samples": samples}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", type=int, default=1000)
    ap.add_argument("--worker", choices=("aot_eager", "rewrite"))
    ap.add_argument("--results", type=Path, default=RESULTS, metavar="DIR",
                    help="folder of the current page backend_memory.{md,json} (default benchmarks/results)")
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args.graphs)))
        return 0

    current = run_info(__file__, {"graphs": args.graphs}, argv)
    runs = []
    for name in ("aot_eager", "rewrite"):
        out = subprocess.run([sys.executable, __file__, "--worker", name, "--graphs", str(args.graphs)],
                             capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    lines = [f"{args.graphs} distinct programs per backend, each compiled once (fullgraph) and called once; "
             "resident memory after gc.collect()", ""]
    lines.append(f"{'graphs':>7} " + " ".join(f"{r['backend'] + ' MiB':>14}" for r in runs)
                 + f" {'rewrite reports':>16} {'kept graphs':>12}")
    for rows in zip(*(r["samples"] for r in runs)):
        rw = rows[-1]
        lines.append(f"{rows[0]['graphs']:>7} " + " ".join(f"{s['rss_mib']:>14.1f}" for s in rows)
                     + f" {rw['reports']:>16} {rw['kept_graphs']:>12}")
    growth = {}
    for r in runs:
        s = r["samples"]
        mid = next((x for x in s if x["graphs"] >= args.graphs // 2), s[0])
        growth[r["backend"]] = (s[-1]["rss_mib"] - mid["rss_mib"]) / max(1, s[-1]["graphs"] - mid["graphs"]) * 1000
        lines.append(f"{r['backend']}: {s[-1]['seconds']} s; growth over the second half "
                     f"{growth[r['backend']]:.1f} MiB per 1000 graphs")
    lines.append(f"rewrite adds {growth['rewrite'] - growth['aot_eager']:.1f} MiB per 1000 graphs over aot_eager "
                 f"in the second half (reports kept: at most {runs[-1]['samples'][-1]['reports']})")
    print("\n".join(lines))
    current.update(runs=runs, growth_mib_per_1000=growth, text=lines)
    publish("backend_memory", TITLE, current, headline(current), lambda run: text_block(run["text"]), args.results)
    return 0


def headline(current: dict) -> dict:
    """The history row's figures: what rewrite adds over aot_eager, and the reports it keeps."""
    growth = current["growth_mib_per_1000"]
    last = current["runs"][-1]["samples"][-1]
    return {"graphs": last["graphs"],
            "growth MiB per 1000 graphs, aot_eager / rewrite": f"{growth['aot_eager']:.1f} / {growth['rewrite']:.1f}",
            "rewrite adds MiB per 1000 graphs": f"{growth['rewrite'] - growth['aot_eager']:.1f}",
            "reports kept": last["reports"]}


if __name__ == "__main__":
    sys.exit(main())
