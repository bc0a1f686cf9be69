"""One current page per benchmark: ``benchmarks/results/<benchmark>.json`` and ``.md``.

The JSON holds the latest run (``current``: date, commit, machine, torch version, settings and
the benchmark's own figures) and ``history``: one row per run so far (date, commit, machine,
headline figures, a short note), oldest first, the latest run last.  The markdown page is
rendered from it.  A new run replaces ``current`` and appends its row to ``history``, so the
folder keeps exactly one current result per benchmark and every earlier run's headline figures;
the full earlier pages are in git history.  Bulky by-products of a run (minimized fuzz cases,
program sources, graph excerpts) go to a scratch folder outside git (``bench_out/``, ignored),
which the page names.
"""
from __future__ import annotations

import datetime
import json
import os
import platform
import re
import shlex
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Callable, Dict, List, Optional

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
REPO = HERE.parent
SCRATCH = REPO / "bench_out"          # ignored by git (.gitignore)


def code_commit(repo: Path = REPO) -> str:
    """``git rev-parse --short HEAD``, with ``-dirty`` when a tracked file other than the result
    pages differs from it (a page written by an earlier run does not make the code dirty);
    ``unknown`` outside a git checkout."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True,
                              text=True, check=True).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                                  ":(exclude)benchmarks/results"], cwd=repo, capture_output=True, text=True,
                                 check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("-dirty" if changed else "")


def torch_version() -> str:
    """The installed torch's version, read without importing torch (check_scale keeps torch out)."""
    try:
        return metadata.version("torch")
    except metadata.PackageNotFoundError:
        return "not installed"


def cpu_machine() -> str:
    """The CPU model, the cores this process may use, Python and the OS."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return (f"{cpu}; {len(os.sched_getaffinity(0))} cores available; Python {platform.python_version()}; "
            f"{platform.system()} {platform.release()}")


def stamp() -> str:
    return datetime.datetime.now().isoformat(timespec="seconds")


def run_info(script: str, settings: Dict, argv: Optional[List[str]] = None, machine: Optional[str] = None) -> Dict:
    """What every current run records: date, commit, machine, torch version, the command line
    (``script``, a file in benchmarks/, with ``argv``, default the process's arguments) and the
    settings."""
    args = sys.argv[1:] if argv is None else argv
    return {"date": stamp(), "commit": code_commit(), "machine": machine or cpu_machine(),
            "torch": torch_version(), "command": f"python benchmarks/{Path(script).name} {shlex.join(args)}".strip(),
            "settings": settings}


def shown_path(path) -> str:
    """``path`` relative to the repository when inside it (as pages name scratch folders)."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def short_machine(machine: str) -> str:
    """``AMD EPYC; 2 cores available; ...`` -> ``AMD EPYC, 2 cores`` (plus a GPU where named)."""
    cpu = re.split(r"[;,]", machine, maxsplit=1)[0].strip()
    cores = re.search(r"(\d+) (?:cores|cpus)", machine)
    gpu = re.search(r"GPU: ([^;]+)", machine)
    return cpu + (f", {cores.group(1)} cores" if cores else "") + (f", {gpu.group(1).strip()}" if gpu else "")


def load(name: str, folder: Path = RESULTS) -> Optional[Dict]:
    path = folder / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def history_row(current: Dict, headline: Dict, note: str = "") -> Dict:
    return {"date": current["date"][:10], "commit": current["commit"],
            "machine": f"{short_machine(current['machine'])}, torch {current['torch']}",
            "headline": headline, "note": note}


def publish(name: str, title: str, current: Dict, headline: Dict, render: Callable[[Dict], List[str]],
            folder: Path = RESULTS, note: str = "") -> Path:
    """Make ``current`` the benchmark's current run: append its history row to the rows kept in
    ``folder/<name>.json`` and write that file and ``<name>.md`` (``render(current)`` gives the
    page's body).  Returns the markdown page's path."""
    old = load(name, folder) or {}
    page = {"benchmark": name, "title": title, "current": current,
            "history": old.get("history", []) + [history_row(current, headline, note)]}
    return write(page, render, folder)


def write(page: Dict, render: Callable[[Dict], List[str]], folder: Path = RESULTS) -> Path:
    """Write ``page`` as ``<benchmark>.json`` and its markdown rendering as ``<benchmark>.md``."""
    folder.mkdir(parents=True, exist_ok=True)
    name = page["benchmark"]
    (folder / f"{name}.json").write_text(dumps(page) + "\n")
    md = folder / f"{name}.md"
    md.write_text("\n".join(render_page(page, render)) + "\n")
    print(f"written to {md} and {name}.json")
    return md


def dumps(value, width: int = 200, indent: int = 0) -> str:
    """JSON with one value per line where the value is long, on one line where it fits ``width``
    (a page's JSON stays small and its diffs readable)."""
    flat = json.dumps(value, separators=(", ", ": "), default=str)
    if len(flat) + indent <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {dumps(v, width, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + dumps(v, width, indent + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def render_page(page: Dict, render: Callable[[Dict], List[str]]) -> List[str]:
    current = page["current"]
    lines = [f"# {page['benchmark']}: {page['title']}", "",
             "The current result: the latest run, whose data is in "
             f"`{page['benchmark']}.json`; every run's headline figures are in the history table at the end.", "",
             f"- date: {current['date']}", f"- commit: {commit_text(current['commit'])}", f"- machine: {current['machine']}",
             f"- torch: {current['torch']}"]
    if current.get("command"):
        lines.append(f"- command: `{current['command']}`")
    lines += [f"- settings: {settings_text(current.get('settings'))}", ""]
    lines += render(current)
    notes = current.get("notes") or []
    if notes:
        lines += ["", "## Notes on this run", ""]
        for paragraph in notes:
            lines += [paragraph, ""]
        lines.pop()
    lines += ["", "## History", "", "Every run so far, oldest first; the last row is the run above."]
    if any(RECORDED in row["commit"] for row in page["history"]):
        lines[-1] += (f"  Runs from before the pages named their commit give the commit that recorded them "
                      f"(\"{RECORDED}\"): the code measured is that commit's or its parent's.")
    lines += ["", "| date | commit | machine | headline figures | note |", "| --- | --- | --- | --- | --- |"]
    for row in page["history"]:
        lines.append(f"| {row['date']} | {commit_text(row['commit'])} | {row['machine']} | "
                     f"{headline_text(row['headline'])} | {row.get('note', '')} |")
    return lines


RECORDED = "(recorded)"


def commit_text(commit: str) -> str:
    """``b984f7c`` -> ```b984f7c```; ``4f1800c (recorded)`` -> ```4f1800c` (recorded)``."""
    return re.sub(r"\b([0-9a-f]{7,40}(?:-dirty)?)\b", r"`\1`", commit)


def settings_text(settings) -> str:
    if isinstance(settings, dict):
        return "; ".join(f"{k} {', '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in settings.items())
    return str(settings or "defaults")


def headline_text(headline) -> str:
    if isinstance(headline, dict):
        return "; ".join(f"{k} {v}" for k, v in headline.items())
    return str(headline)


def text_block(lines: List[str]) -> List[str]:
    return ["```text", *lines, "```"]
