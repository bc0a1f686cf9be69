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
  kernel that computes it.  "onto itself": `copy_(x, x)`, what a mutation reinplaced into input x
  leaves in the graph; Inductor emits no kernel for it (its traffic is counted all the same).
  "write-backs of a copy": `copy_` into a part (a view) of a graph input of a buffer one of the
  copies made, with their traffic: the way back of a part of an input copied out (not counted in
  the copy traffic, which counts the copy out).
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
        backs += f", {c['onto_itself']} onto itself" if c and c.get("onto_itself") else ""
        wb = (c or {}).get("write_backs") or []
        if wb:
            traffic_wb = None if any(x["bytes_read"] is None or x["bytes_written"] is None for x in wb) else \
                sum(x["bytes_read"] + x["bytes_written"] for x in wb)
            backs += f"; {len(wb)} write-backs of a copy ({mib(traffic_wb)})"
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


def copy_back_list(result: Dict[str, Any], backend: str = "inductor", field: str = "copy_back_list") -> List[str]:
    """Copy-backs (or another ``field`` of the same records) grouped by source line: how many,
    bytes written, how many write back a copy."""
    c = result["backends"].get(backend, {}).get("copies")
    if not c:
        return ["* none"]
    groups: Dict[str, List[Dict[str, Any]]] = {}
    for x in c.get(field, []):
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
    for what, field in (("copies", "list"), ("copy-backs", "copy_back_list"), ("write-backs of a copy", "write_backs")):
        a = Counter(_copy_key(x) for x in stock.get(field, []))
        b = Counter(_copy_key(x) for x in mine.get(field, []))
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
    if result.get("inductor_config"):
        lines.append("* Inductor config for every backend: "
                     + ", ".join(f"`{k} = {v}`" for k, v in result["inductor_config"].items()))
    if any(d.get("watched") for d in result["backends"].values()):
        lines += ["", "Copies by the op whose call they come from (count, MiB written, traffic MiB; "
                  "copy-backs and write-backs of a copy, their traffic):", ""] + watched_table(result)
    lines += ["", "Copies in stock Inductor's final graphs:", ""] + copy_list(result)
    lines += ["", "Copy-backs in stock Inductor's final graphs (by source line):", ""] + copy_back_list(result)
    if (result["backends"].get("inductor", {}).get("copies") or {}).get("write_backs"):
        lines += ["", "Write-backs of a copy into parts of inputs in stock Inductor's final graphs (by source line):",
                  ""] + copy_back_list(result, field="write_backs")
    lines += ["", "rewrite vs stock:", ""] + differences(result) + [""]
    return lines


def watched_table(result: Dict[str, Any]) -> List[str]:
    backends = [b for b, d in result["backends"].items() if d.get("watched")]
    labels = list(result["backends"][backends[0]]["watched"])
    lines = ["| op | " + " | ".join(backends) + " |", "|" + " --- |" * (len(backends) + 1)]
    for label in labels:
        cells = []
        for b in backends:
            w = result["backends"][b]["watched"][label]
            cell = f"{w['copies']} ({mib(w['bytes'])}, {mib(w['traffic'])})"
            if w["copy_backs_of_a_copy"]:
                cell += f"; {w['copy_backs_of_a_copy']} back ({mib(w['copy_back_traffic'])})"
            cells.append(cell)
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
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


def version_goals(results: List[Dict[str, Any]], v1: str, v2: str, watched_label: str) -> List[str]:
    """The goals of a program measured under auto_functionalized v1 (``v1``) and v2 (``v2``),
    as read off this run (reported, not asserted): under v1 rewrite moves no more copy bytes per
    call than stock under v2; no copy of the ``watched_label`` op left under either version;
    under v2 rewrite at most stock; rewrite's latency no worse than stock's; every backend
    correct."""
    by_name = {r["name"]: r for r in results if not r.get("error")}
    if v1 not in by_name or v2 not in by_name:
        return []
    b1, b2 = by_name[v1]["backends"], by_name[v2]["backends"]

    def copies(b, backend, key="bytes"):
        c = b.get(backend, {}).get("copies")
        return None if c is None or b[backend].get("error") else c[key]

    def met(flag) -> str:
        return "?" if flag is None else ("met" if flag else "**not met**")

    def at_most(a, b):
        return None if a is None or b is None else a <= b

    lines = [f"Read off this run, not asserted (v1 = `{v1}`, v2 = `{v2}`; bytes = copy bytes per call in the "
             "final graphs, traffic in brackets):", ""]
    rw1, st2, rw2, st1 = copies(b1, "rewrite"), copies(b2, "inductor"), copies(b2, "rewrite"), copies(b1, "inductor")
    t = lambda b, k: copies(b, k, "traffic")  # noqa: E731
    lines.append(f"* under v1, rewrite moves no more bytes than stock under v2: {met(at_most(rw1, st2))} "
                 f"(rewrite v1 {mib(rw1)} ({mib(t(b1, 'rewrite'))}) MiB, stock v2 {mib(st2)} ({mib(t(b2, 'inductor'))}) MiB; "
                 f"stock v1 {mib(st1)} ({mib(t(b1, 'inductor'))}) MiB)")
    left = []
    for version, b in (("v1", b1), ("v2", b2)):
        for backend in ("inductor", "rewrite"):
            w = (b.get(backend, {}).get("watched") or {}).get(watched_label)
            if w is not None:
                left.append((version, backend, w["copies"] + w["copy_backs_of_a_copy"], w["bytes"]))
    kept = [f"{'stock' if k == 'inductor' else k} {v} {n} ({mib(by)} MiB)" for v, k, n, by in left]
    lines.append(f"* no copy left at the {watched_label} under either version (rewrite): "
                 f"{met(all(n == 0 for _, k, n, _ in left if k == 'rewrite') if left else None)} "
                 f"(copies and copy-backs of a copy: {', '.join(kept)})")
    lines.append(f"* under v2, rewrite at most stock: {met(at_most(rw2, st2))} "
                 f"(rewrite {mib(rw2)} MiB, stock {mib(st2)} MiB)")
    ms = []
    for version, b in (("v1", b1), ("v2", b2)):
        s, r = b.get("inductor", {}).get("median_ms"), b.get("rewrite", {}).get("median_ms")
        ms.append((version, s, r))
    lines.append("* latency no worse (rewrite / stock, median ms per call, one run on a shared machine): "
                 + met(all(s is not None and r is not None and r <= s for _, s, r in ms)) + " ("
                 + ", ".join(f"{v} {r:.3f} / {s:.3f}" if s and r else f"{v} ?" for v, s, r in ms) + ")")
    wrong = [f"{'stock' if k == 'inductor' else k} {v}" for v, b in (("v1", b1), ("v2", b2))
             for k, d in b.items() if d.get("correct") and not d["correct"]["ok"] or d.get("error")]
    lines.append("* every backend matches eager: " + ("yes" if not wrong else "**no**: " + ", ".join(wrong)))
    return lines
