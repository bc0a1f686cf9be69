"""Screenshots of ``rewrite explain --html`` pages in headless Chromium: the page of a real
function (``x[1:-1].add_(d)``) and of a 299-node synthetic graph must render their pictures in
the legend's colours.  Marked ``browser``; skipped when no Chromium is installed (``.ci/run``
installs Debian's)."""
from __future__ import annotations

import shutil
import subprocess

import pytest
import torch

from explain_samples import synthetic_report
from png_pixels import colour_counts
from rewrite.explain import explain_reports, render_html
from rewrite.explain import style

pytestmark = pytest.mark.browser

BROWSER = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
WIDTH, HEIGHT = 1280, 1800


def screenshot(page: str, tmp_path, name: str, height: int = HEIGHT):
    if BROWSER is None:
        pytest.skip("no Chromium installed (apt-get install -y chromium)")
    html, png = tmp_path / f"{name}.html", tmp_path / f"{name}.png"
    html.write_text(page)
    proc = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                           "--no-first-run", "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}",
                           f"--window-size={WIDTH},{height}", f"--screenshot={png}", html.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and png.is_file(), proc.stderr[-2000:]
    assert png.stat().st_size > 20_000          # a blank page compresses to a few kB
    return colour_counts(png)


@pytest.fixture(scope="module")
def legend_only(tmp_path_factory):
    """Pixels of each colour on a page with no graph: the legend's swatches."""
    return screenshot(render_html([], title="legend"), tmp_path_factory.mktemp("legend"), "legend")[2]


def drawn(counts, legend_only, key: str) -> int:
    """Pixels of the colour of ``key`` outside the legend."""
    return counts[style.colour(key)] - legend_only[style.colour(key)]


def _ink(counts) -> float:
    """The share of pixels that are not the page's white."""
    total = sum(counts.values())
    return 1 - counts["#ffffff"] / total


def test_real_function_page_renders(tmp_path, legend_only):
    def slice_add(x, d):
        x[1:-1].add_(d)

    page = render_html(explain_reports(slice_add, torch.randn(8), torch.randn(6)), title="slice_add")
    width, height, counts = screenshot(page, tmp_path, "slice_add")
    assert (width, height) == (WIDTH, HEIGHT)
    assert 0.05 < _ink(counts) < 0.6
    for key in ("input", "output", "removed", "added", "in_place", "fired", "rejected", "writes"):
        assert drawn(counts, legend_only, key) > 200, key


def test_synthetic_300_node_page_renders_collapsed(tmp_path, legend_only):
    page = render_html([synthetic_report()], title="synthetic")
    width, height, counts = screenshot(page, tmp_path, "synthetic", height=2600)
    assert (width, height) == (WIDTH, 2600)
    assert 0.05 < _ink(counts) < 0.6
    for key in ("input", "removed", "region", "in_place", "fired", "rejected"):
        assert drawn(counts, legend_only, key) > 200, key
    assert drawn(counts, legend_only, "region") > 10_000    # several "... N nodes ..." boxes on screen
