"""The model zoo's markdown report: the table, the copies stock Inductor keeps, what rewrite
changes, the recompile sweeps."""
from __future__ import annotations

from collections import Counter
from typing import Any, Dict, List, Optional

MIB = 2 ** 20

DEFINITIONS = """\
Definitions (details in rewrite/testing/final_graphs.py):
* final graph: each post-grad FX graph exactly as Inductor lowers it, after all of its passes
  (its own `reinplace_inplaceable_ops` included), captured from Inductor's `post_grad_graphs` log
  with its caches off; per call = the graphs of the latest compilation of every frame (forward,
  backward, optimizer, DDP pieces), each counted once.
* copies: nodes that allocate a new buffer and fill all of it from existing tensors: clone, a
  same-dtype `_to_copy`, functional `copy`, functional scatters and indexed updates (`*_scatter`,
  `index_put`, `index_copy`, `scatter*` ...), `roll`, a gather at least as large as what it reads
  (Inductor's `roll`), `cat`/`stack` of a graph input.  MiB = their outputs.
* copy traffic per call: sum over copies of bytes read (every tensor operand in full, a broadcast
  one once; a functional `copy` reads only its source) + bytes written (the output).  A model of
  the data movement the graph asks for: Inductor may fuse some of it.
* copy-backs: `copy_` into a graph input (the epilogue that writes a functionalized mutation back),
  counted apart, with their traffic (source read + input written); "of a copy": the value written
  back is a buffer one of the copies made (then updated in place or not), i.e. the input is copied
  out and back in.  A copy-back of a freshly computed value is usually fused by Inductor into the
  kernel that computes it.
* correct?: every output and every state tensor (caches, buffers, parameters, gradients, optimizer
  state) after each of the first 3 calls against eager's, max|diff| <= rtol x max|eager| (+ a
  parameter drift for AdamW, see each program); "exact" when all are bit-identical.
* ms/call: median over the timed calls, the three backends interleaved call by call (rotating who
  goes first) in one process; speed-up vs eager = eager's median / this one.
* compile s: wall time inside Dynamo's compilation callbacks (tracing, AOTAutograd, Inductor, C++
  builds, lazy backward), each backend with its own empty Inductor cache, after an unmeasured
  `aot_eager` trace of the program.  recompiles: compilations of a frame the backend had already
  compiled."""


def mib(b: Optional[int]) -> str:
    return "?" if b is None else f"{b / MIB:.3f}"


def correct_cell(d: Dict[str, Any]) -> str:
    if d.get("error"):
        return "FAILED"
    c = d.get("correct")
    if c is None:
        return "(reference)"
    if c["exact"]:
        return "exact"
    return ("yes" if c["ok"] else "NO") + f" ({c['max_abs_diff']:.1e})"


def _ms(d: Dict[str, Any], eager: Optional[float]) -> List[str]:
    ms = d.get("median_ms")
    if ms is None:
        return ["-", "-"]
    return [f"{ms:.3f}", f"{eager / ms:.2f}" if eager else "-"]


def program_rows(result: Dict[str, Any]) -> List[str]:
    eager = result["backends"].get("eager", {}).get("median_ms")
    rows = []
    for backend, d in result["backends"].items():
        c = None if d.get("error") else d.get("copies")
        copies = "-" if c is None else f"{c['count']} ({mib(c['bytes'])})"
        traffic = "-" if c is None else mib(c["traffic"])
        fed = 0 if c is None else sum(1 for x in c["copy_back_list"] if x.get("fed_by"))
        backs = "-" if c is None else f"{c['copy_backs']} ({mib(c['copy_back_traffic'])})"
        backs += f", {fed} of a copy" if fed else ""
        fired = "" if d.get("fired") is None else (
            ", ".join(f"{k} x{v}" for k, v in sorted(d["fired"].items())) or "none")
        compile_s = "-" if backend == "eager" else f"{d['compile_s']:.1f}"
        rs = d.get("rule_seconds")
        if rs:
            compile_s += f" (rules {rs.get('total', 0):.2f}, legality {rs.get('legality', 0):.2f})"
        recompiles = "-" if backend == "eager" else str(d["recompiles"])
        rows.append("| " + " | ".join([result["name"], backend, correct_cell(d), copies, traffic, backs,
                                        *_ms(d, eager), compile_s, recompiles, fired]) + " |")
    return rows


def table(results: List[Dict[str, Any]]) -> List[str]:
    head = ["program", "backend", "correct? (max abs diff)", "copies (MiB)", "copy traffic MiB/call",
            "copy-backs (traffic MiB)", "ms/call", "speed-up vs eager", "compile s", "recompiles", "rules fired"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in results:
        if r.get("error"):
            lines.append(f"| {r['name']} | all | FAILED: {r['error'][:200]} |" + " |" * (len(head) - 3))
        else:
            lines += program_rows(r)
    return lines


def _copy_key(c: Dict[str, Any]):
    return (c["graph"].split()[-1], c["op"], c["type"], c["source"])


def copy_list(result: Dict[str, Any], backend: str = "inductor") -> List[str]:
    """The copies a backend's final graphs keep, identical ones grouped."""
    d = result["backends"].get(backend, {})
    c = d.get("copies")
    if not c:
        return [f"* {backend}: no final graph ({d.get('error') or 'nothing compiled'})"]
    groups = Counter(_copy_key(x) for x in c["list"])
    sizes = {_copy_key(x): x["bytes_written"] for x in c["list"]}
    lines = []
    for (kind, op, typ, source), n in sorted(groups.items(), key=lambda kv: -(sizes[kv[0]] or 0) * kv[1]):
        lines.append(f"* {n} x `{op}` -> `{typ}` ({mib(sizes[(kind, op, typ, source)])} MiB each), {kind} graph: "
                     f"{source or '(no source line)'}")
    return lines or ["* none"]


def copy_back_list(result: Dict[str, Any], backend: str = "inductor") -> List[str]:
    """Copy-backs grouped by source line: how many, bytes written, how many write back a copy."""
    c = result["backends"].get(backend, {}).get("copies")
    if not c:
        return ["* none"]
    groups: Dict[str, List[Dict[str, Any]]] = {}
    for x in c["copy_back_list"]:
        groups.setdefault(x["source"], []).append(x)
    lines = []
    for source, xs in sorted(groups.items(), key=lambda kv: -sum(x["bytes_written"] or 0 for x in kv[1])):
        fed = [x["fed_by"] for x in xs if x.get("fed_by")]
        written = sum(x["bytes_written"] or 0 for x in xs)
        lines.append(f"* {len(xs)} x into inputs ({written / MIB:.3f} MiB written)"
                     + (f", {len(fed)} of them writing back a copy ({', '.join(sorted(set(fed)))})" if fed else "")
                     + f": {source or '(no source line)'}")
    return lines or ["* none"]


def differences(result: Dict[str, Any]) -> List[str]:
    """Copies and copy-backs in one of stock's and rewrite's final graphs and not the other."""
    stock = result["backends"].get("inductor", {}).get("copies")
    mine = result["backends"].get("rewrite", {}).get("copies")
    if not stock or not mine:
        return []
    lines = []
    for what, field in (("copies", "list"), ("copy-backs", "copy_back_list")):
        a = Counter(_copy_key(x) for x in stock[field])
        b = Counter(_copy_key(x) for x in mine[field])
        for key, n in (a - b).items():
            lines.append(f"* removed by rewrite ({what}): {n} x `{key[1]}` -> `{key[2]}` ({key[0]}): {key[3]}")
        for key, n in (b - a).items():
            lines.append(f"* added by rewrite ({what}): {n} x `{key[1]}` -> `{key[2]}` ({key[0]}): {key[3]}")
    return lines or ["* none: the same copies and copy-backs"]


def program_details(result: Dict[str, Any]) -> List[str]:
    lines = [f"### {result['name']}", "", result["what"], "",
             f"Tolerance: rtol {result['tolerance']['rtol']:g} x max|eager|"
             + (f", + {result['tolerance']['param_drift']:g} per call on parameters"
                if result["tolerance"].get("param_drift") else "") + f" ({result['tolerance']['why']})."]
    for backend, d in result["backends"].items():
        if d.get("error"):
            lines.append(f"* **{backend} failed**: {d['error']}")
        c = d.get("correct")
        if c and not c["ok"]:
            lines += [f"* {backend} differs from eager: " + "; ".join(c["problems"])]
        if d.get("recompile_reasons"):
            lines.append(f"* {backend} recompiled: " + "; ".join(f"`{r}`" for r in d["recompile_reasons"][:3]))
    if result.get("graph_breaks"):
        lines.append("* graph breaks (Dynamo, every backend): "
                     + "; ".join(f"`{k[:160]}`" for k in result["graph_breaks"]))
    lines += ["", "Copies in stock Inductor's final graphs:", ""] + copy_list(result)
    lines += ["", "Copy-backs in stock Inductor's final graphs (by source line):", ""] + copy_back_list(result)
    lines += ["", "rewrite vs stock:", ""] + differences(result) + [""]
    return lines


def sweep_lines(sweeps: List[Dict[str, Any]]) -> List[str]:
    head = ["sweep", "dynamic", "backend", "calls", "correct?", "compiles", "recompiles", "compile s",
            "why (first reasons)"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for s in sweeps:
        for backend, d in s["backends"].items():
            if backend == "eager":
                continue
            reasons = "; ".join(f"`{r[:120]}`" for r in d["recompile_reasons"][:2])
            dynamic = "default" if s["dynamic"] is None else str(s["dynamic"])
            lines.append("| " + " | ".join([s["name"], dynamic, backend, str(s["points"] * s["calls_per_point"]),
                                            "FAILED: " + d["error"] if d["error"] else correct_cell(d),
                                            str(d["compiles"]), str(d["recompiles"]), f"{d['compile_s']:.1f}",
                                            reasons]) + " |")
    return lines
