"""Screenshots of ``rewrite explain --html`` pages in headless Chromium: the page of a real
function (``x[1:-1].add_(d)``) and of a 299-node synthetic graph must render their pictures in
the legend's colours.  Marked ``browser``; skipped when no Chromium is installed (``.ci/run``
installs Debian's)."""
from __future__ import annotations

import re
import shutil
from collections import Counter
import subprocess
from pathlib import Path

import pytest
import torch

from explain_samples import synthetic_report
from png_pixels import colour_counts, near
from rewrite.explain import explain_reports, render_html
from rewrite.explain import style

pytestmark = pytest.mark.browser

BROWSER = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
WIDTH, HEIGHT = 1280, 1800
#: How far (per channel) a painted pixel may be from its colour and still count as it.
TOLERANCE = 2
#: How far a painted shade may be from the colour asked for (the legend tells which shade it is).
CALIBRATION = 6


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


def painted(legend_only, key: str) -> str:
    """The colour the browser paints for ``key``: the commonest colour of the legend page within
    CALIBRATION of the one asked for (the legend draws every colour; this browser may paint it a
    shade off, see :func:`png_pixels.near`)."""
    want = style.colour(key)
    close = [(v, k) for k, v in legend_only.items() if near({k: 1}, want, CALIBRATION)]
    return max(close)[1] if close else want


def drawn(counts, legend_only, key: str) -> int:
    """Pixels of the colour painted for ``key`` (give or take TOLERANCE) outside the legend."""
    colour = painted(legend_only, key)
    return near(counts, colour, TOLERANCE) - near(legend_only, colour, TOLERANCE)


def _why(counts, legend_only, key: str) -> str:
    """What a failed colour check saw: the colours painted near the one wanted."""
    want = style.colour(key)
    close = {k: (v, legend_only[k]) for k, v in counts.items() if near({k: 1}, want, 24)}
    return (f"{key} ({want}, painted {painted(legend_only, key)}): page and legend pixels of the colours "
            f"near it: {close}")


def _ink(counts) -> float:
    """The share of pixels that are not the page's white."""
    total = sum(counts.values())
    return 1 - counts["#ffffff"] / total


#: The colours the checks count: each is told from every other colour a page paints.
CHECKED = ("input", "output", "removed", "added", "in_place", "fired", "rejected", "writes", "region")


def test_the_checked_colours_are_told_apart():
    """A pixel counted for a key is at most CALIBRATION + TOLERANCE from the key's colour: no
    other colour of the page (the legend's, page.css's) may be that close."""
    css = set(re.findall(r"#[0-9a-f]{6}\b", (Path(style.__file__).with_name("page.css")).read_text().lower()))
    others = css | {s.colour for s in style.ALL} | {style.TEXT, style.TEXT_SOFT, style.BORDER}
    for key in CHECKED:
        mine = style.colour(key)
        for other in others - {mine}:
            assert near({other: 1}, mine, CALIBRATION + TOLERANCE) == 0, (key, mine, other)


def test_real_function_page_renders(tmp_path, legend_only):
    def slice_add(x, d):
        x[1:-1].add_(d)

    page = render_html(explain_reports(slice_add, torch.randn(8), torch.randn(6)), title="slice_add")
    # tall enough for the graphs below the candidate table: at HEIGHT the removed boxes began a
    # few pixels above the bottom edge, and a font a pixel taller hid them
    width, height, counts = screenshot(page, tmp_path, "slice_add", height=2600)
    assert (width, height) == (WIDTH, 2600)
    assert 0.05 < _ink(counts) < 0.6
    for key in ("input", "output", "removed", "added", "in_place", "fired", "rejected", "writes"):
        assert drawn(counts, legend_only, key) > 200, _why(counts, legend_only, key)


def test_synthetic_300_node_page_renders_collapsed(tmp_path, legend_only):
    page = render_html([synthetic_report()], title="synthetic")
    width, height, counts = screenshot(page, tmp_path, "synthetic", height=2600)
    assert (width, height) == (WIDTH, 2600)
    assert 0.05 < _ink(counts) < 0.6
    for key in ("input", "removed", "region", "in_place", "fired", "rejected"):
        assert drawn(counts, legend_only, key) > 200, _why(counts, legend_only, key)
    assert drawn(counts, legend_only, "region") > 10_000    # several "... N nodes ..." boxes on screen


def test_a_colour_painted_a_shade_off_still_counts():
    """As in CI once: the browser painted every "removed" box (#f9cfca) a shade beside it."""
    legend = Counter({"#f9cfcc": 470, "#f9cfca": 2, "#ffffff": 1000})
    page = Counter({"#f9cfcc": 470 + 2000, "#f8cfcb": 40, "#c9ecd0": 900, "#ffffff": 5000})
    assert painted(legend, "removed") == "#f9cfcc"
    assert drawn(page, legend, "removed") == 2000 + 40 - 2    # the legend's 2 at #f9cfca are near it too
    assert drawn(page, legend, "added") == 900       # not in the legend at all: its own colour
