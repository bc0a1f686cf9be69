"""benchmarks/results/ keeps one current page per benchmark (markdown rendered from its JSON, with
the run's commit and machine and a history of every run), the folder stays small, and the docs
link only pages that exist; the writer replaces the current run and appends to the history."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
sys.path.insert(0, str(ROOT / "benchmarks"))
import fuzz_run  # noqa: E402
import results_page  # noqa: E402

BENCHMARKS = ("engine_scaling", "mutation_cases", "mutation_cases_cuda", "check_scale", "models", "fuzz_run",
              "backend_memory", "rule_load", "compile_time")


def renderer(name):
    if name == "fuzz_run":
        return fuzz_run.report
    if name == "models":
        import models

        return models.report
    if name == "rule_load":
        import rule_load

        return rule_load.render
    if name == "compile_time":
        import compile_time

        return compile_time.render
    return lambda run: results_page.text_block(run["text"])


def test_one_current_page_per_benchmark_and_nothing_else():
    files = sorted(p.name for p in RESULTS.iterdir())
    assert files == sorted(f"{name}.{ext}" for name in BENCHMARKS for ext in ("md", "json"))
    size = sum(p.stat().st_size for p in RESULTS.iterdir())
    assert size < 1_000_000, f"benchmarks/results/ holds {size} bytes"


@pytest.mark.parametrize("name", BENCHMARKS)
def test_page_names_its_run_and_is_rendered_from_its_json(name):
    page = json.loads((RESULTS / f"{name}.json").read_text())
    current = page["current"]
    assert page["benchmark"] == name
    for key in ("date", "commit", "machine", "torch", "settings"):
        assert current.get(key), f"{name}.json: current run without {key}"
    assert re.match(r"[0-9a-f]{7}", current["commit"])
    last = page["history"][-1]
    assert (last["date"], last["commit"]) == (current["date"][:10], current["commit"])
    assert all(row["headline"] for row in page["history"])
    md = (RESULTS / f"{name}.md").read_text()
    assert md == "\n".join(results_page.render_page(page, renderer(name))) + "\n"
    assert (RESULTS / f"{name}.json").read_text() == results_page.dumps(page) + "\n"


def test_docs_link_only_pages_that_exist():
    missing = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for path in re.findall(r"benchmarks/results/([\w.*-]+)", doc.read_text()):
            if not (RESULTS / path).exists():
                missing.append(f"{doc.name}: {path}")
    assert missing == []


# --------------------------------------------------------------------------- the writer


def test_a_new_run_replaces_the_page_and_appends_its_history_row(tmp_path):
    def run(value):
        current = results_page.run_info("example.py", {"size": value}, ["--size", str(value)])
        current["text"] = [f"value {value}"]
        return current

    render = lambda run: results_page.text_block(run["text"])  # noqa: E731
    results_page.publish("example", "a test page", run(1), {"value": 1}, render, tmp_path, note="first")
    md = results_page.publish("example", "a test page", run(2), {"value": 2}, render, tmp_path)
    page = json.loads((tmp_path / "example.json").read_text())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["example.json", "example.md"]
    assert page["current"]["settings"] == {"size": 2}
    assert page["current"]["command"] == "python benchmarks/example.py --size 2"
    assert [row["headline"] for row in page["history"]] == [{"value": 1}, {"value": 2}]
    assert page["history"][0]["note"] == "first"
    text = md.read_text()
    assert "value 2" in text and "value 1\n" not in text
    assert "| value 1 | first |" in text and "| value 2 |  |" in text


def _git(repo, *args):
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def test_commit_is_dirty_for_code_changes_not_for_result_pages(tmp_path):
    _git(tmp_path, "init", "-q")
    (tmp_path / "benchmarks" / "results").mkdir(parents=True)
    (tmp_path / "code.py").write_text("x = 1\n")
    (tmp_path / "benchmarks" / "results" / "page.md").write_text("old\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c")
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tmp_path, capture_output=True,
                          text=True).stdout.strip()
    assert results_page.code_commit(tmp_path) == head
    (tmp_path / "benchmarks" / "results" / "page.md").write_text("new\n")
    assert results_page.code_commit(tmp_path) == head
    (tmp_path / "code.py").write_text("x = 2\n")
    assert results_page.code_commit(tmp_path) == head + "-dirty"
    assert results_page.code_commit(tmp_path / "nowhere") == "unknown"


# --------------------------------------------------------------------------- the fuzz page


def _summary(indices, seed=0, commit="abc1234", failures=()):
    return {
        "config": {"n": max(indices) + 1, "seed": seed, "bases": ["eager", "inductor"], "rules": None, "jobs": 2,
                   "features": None, "dynamic": "mixed", "only": list(indices)},
        "programs": len(indices), "seconds": 12.0, "programs_seconds": 10.0, "programs_per_second": len(indices) / 10,
        "counts": {"all": {"ok": len(indices) - len(failures), **({"ours": len(failures)} if failures else {})},
                   "inductor": {"ok": len(indices)}},
        "backend_seconds": {"inductor": {"runs": len(indices), "mean_s": 1.0, "median_s": 0.5}},
        "failures": list(failures), "errors": [],
        "coverage": [{"rule": "r", "location": "r.rules:1", "fired": 1,
                      "sections": {"match": {"reached": 2, "stopped": 1}}}],
        "run": {"date": "2026-12-03T00:00:00", "commit": commit, "machine": "cpu; 2 cores available", "torch": "2.13",
                "command": "rewrite fuzz", "jobs": 2, "scratch": f"bench_out/p{min(indices)}",
                "cache": "fresh"},
    }


OURS = {"index": 3, "class": "ours", "base": "inductor", "classes": {"inductor": "ours"}, "mode": "inference",
        "dynamic": False, "statements": 2, "fired": ["rule_a"],
        "outcomes": {"rewrite-inductor": "differs from eager on call 1: " + "x" * 400, "inductor": "matches eager"},
        "source": "def fn(x):\n    torch.cond(p, f, g, (x,))\n",
        "minimized": {"source": "header\n\n\ndef fn(x):\n    x.add_(1)\n", "statements": 1, "evaluations": 5,
                      "complete": True, "seconds": 1.0, "outcomes": {"inductor": "matches eager"}},
        "case": "bench_out/p0/cases/fuzz_s0_p3.py"}


def test_fuzz_splits_merge_into_one_run():
    current = fuzz_run.merge([_summary(range(2, 4), failures=[OURS]), _summary(range(0, 2))])
    assert current["programs"] == 4 and current["settings"]["programs"] == "0..3"
    assert current["counts"]["all"] == {"ok": 3, "ours": 1}
    assert [s["programs"] for s in current["splits"]] == ["0..1", "2..3"]
    assert current["backend_seconds"]["inductor"] == {"runs": 4, "mean_s": 1.0, "median_s": [0.5, 0.5]}
    assert current["coverage"][0]["fired"] == 2 and current["coverage"][0]["sections"]["match"]["reached"] == 4
    [failure] = current["failures"]
    assert "source" not in failure and failure["control_flow"] is True
    assert list(failure["outcomes"]) == ["rewrite-inductor"]
    assert len(failure["outcomes"]["rewrite-inductor"]) == fuzz_run.OUTCOME_CHARS
    text = "\n".join(fuzz_run.report(current))
    assert "## ours (1)" in text and "- p3 on base inductor" in text and "        x.add_(1)" in text
    assert fuzz_run.headline(current)["ours"] == 1


@pytest.mark.parametrize("other, message", [
    (_summary(range(2, 4), seed=1), "differ in seed"),
    (_summary(range(1, 3)), "programs run twice, e.g. p1"),
    (_summary(range(2, 4), commit="def5678"), "different code"),
])
def test_fuzz_merge_refuses_summaries_of_different_runs(other, message):
    with pytest.raises(fuzz_run.MergeError, match=message):
        fuzz_run.merge([_summary(range(0, 2)), other])


def test_fuzz_merge_command_reports_a_bad_summary_without_a_traceback(tmp_path, capsys):
    bad = tmp_path / "summary.json"
    bad.write_text("{not json")
    assert fuzz_run.main(["--merge", str(bad), "--results", str(tmp_path / "pages")]) == 2
    assert "cannot merge" in capsys.readouterr().err
    assert not (tmp_path / "pages").exists()


def test_fuzz_merge_reads_gzipped_splits(tmp_path):
    """The splits of a run that spans sessions are kept gzipped (benchmarks/fuzz_splits/)."""
    import gzip
    import json

    paths = []
    for indices in (range(0, 2), range(2, 4)):
        path = tmp_path / f"p{indices[0]}.json.gz"
        path.write_bytes(gzip.compress(json.dumps(_summary(indices)).encode()))
        paths.append(str(path))
    assert fuzz_run.main(["--merge", *paths, "--results", str(tmp_path / "pages")]) == 0
    page = json.loads((tmp_path / "pages" / "fuzz_run.json").read_text())
    assert "0..3" in json.dumps(page)
