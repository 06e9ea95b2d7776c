"""Screenshots in a batch: each input's picture drawn off screen (EGL), with no display at all; where
nothing can draw, the screenshot line fails its row in one sentence and the other rows' lines ran."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

import numpy as np
from support.recipe_inputs import small_tiffs

RECIPE = """# napari-talk recipe: shots
auto contrast {layer1}
set the colormap of {layer1} to magma
zoom to 4
save a screenshot to figures/{stem}.png
#> {"action": "screenshot", "path": "figures/{stem}.png"}
write done to notes/{stem}.txt
#> {"action": "write_file", "path": "notes/{stem}.txt", "content": "done"}
"""


def _batch(workspace, **env_extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    args = ["run", "--recipe", "shots", "--each", "data/*.tif", "--yes", "--scheduler", "in-process"]
    return subprocess.run(
        [sys.executable, "-m", "napari_talk", *args], capture_output=True, text=True, timeout=300,
        env={**env, "PYTHONWARNINGS": "ignore", **env_extra},
    )  # fmt: skip


def _rows(workspace) -> dict[str, dict[str, str]]:
    with open(workspace / "batches" / "shots" / "results.csv", newline="") as table:
        return {row["input"]: row for row in csv.DictReader(table)}


def _recipe(workspace) -> None:
    (workspace / "recipes").mkdir()
    (workspace / "recipes" / "shots.recipe").write_text(RECIPE)
    small_tiffs(workspace / "data", 2, size=32)


def test_each_input_gets_its_own_screenshot_without_a_display(workspace):
    from imageio.v3 import imread
    from napari.utils.colormaps import ensure_colormap

    magma = ensure_colormap("magma").map(np.linspace(0, 1, 1024))[:, :3] * 255
    _recipe(workspace)
    done = _batch(workspace)
    assert done.returncode == 0, done.stdout + done.stderr
    table = _rows(workspace)
    assert [row["status"] for row in table.values()] == ["ok", "ok"]
    assert "figures/img00.png" in table["data/img00.tif"]["outputs"].split(";")
    pictures = [imread(workspace / "figures" / f"img0{n}.png") for n in range(2)]
    for picture in pictures:
        height, width = picture.shape[:2]
        assert picture.shape[2] in (3, 4) and height > 100 and width > 100
        middle = picture[height // 2 - 20 : height // 2 + 20, width // 2 - 20 : width // 2 + 20, :3]
        corner = picture[:10, :10, :3]
        assert middle.std() > 5, "the image's pixels are not in the middle of the picture"
        assert (corner == corner[0, 0]).all(), "the canvas's background is not plain around the image"
        # every pixel of the image is a colour of napari's magma
        shown = middle.reshape(-1, 3).astype(float)
        distance = np.abs(shown[:, None, :] - magma[None, :, :]).max(axis=2).min(axis=1)
        assert distance.max() <= 3, distance.max()
        # zoom 4: the 32-pixel image spans 128 canvas pixels, each image pixel a 4×4 block
        lit = np.argwhere(picture[..., :3].astype(int).sum(axis=2) != int(corner[0, 0].sum()))
        span = lit.max(axis=0) - lit.min(axis=0) + 1
        assert 120 <= span[0] <= 130 and 120 <= span[1] <= 130, span
    assert not np.array_equal(pictures[0], pictures[1]), "two different inputs gave the same picture"


def test_where_nothing_can_draw_the_screenshot_line_fails_its_row_in_one_sentence(workspace):
    _recipe(workspace)
    done = _batch(workspace, EGL_PLATFORM="no-such-platform")
    assert done.returncode == 1
    table = _rows(workspace)
    assert [row["status"] for row in table.values()] == ["failed", "failed"]
    for stem, row in zip(("img00", "img01"), table.values(), strict=True):
        error = row["error"]
        assert error.startswith(f"line 4 (save a screenshot to figures/{stem}.png) failed: ")
        assert "offscreen OpenGL" in error and "\n" not in error and "Traceback" not in error
        assert row["reply 3: zoom to 4"], "the lines before the screenshot ran"
    assert not (workspace / "figures").exists()
    assert "Traceback" not in done.stdout + done.stderr
