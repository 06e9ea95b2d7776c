"""The command line: ``parse`` without Qt or napari, ``run`` in a real viewer without a window."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest


def napari_talk(*args, stdin=None, timeout=120, display=True):
    """``napari-talk ARGS`` as a subprocess; without DISPLAY (a server, CI) when ``display`` is False."""
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    if not display:
        env = {k: v for k, v in env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return subprocess.run(
        [sys.executable, "-m", "napari_talk", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def test_parse_prints_the_commands_as_json():
    done = napari_talk("parse", "hide cell boundaries then zoom to 300%", "--layer", "cell boundaries")
    assert done.returncode == 0
    assert json.loads(done.stdout) == [
        {"action": "layer_visibility", "name": "cell boundaries", "op": "hide"},
        {"action": "set_zoom", "zoom": 3.0},
    ]


def test_parse_says_so_when_it_does_not_understand():
    done = napari_talk("parse", "blur the image")
    assert done.returncode == 1 and json.loads(done.stdout) == []
    assert done.stderr.startswith("napari-talk: not understood: 'blur the image'"), done.stderr
    assert "napari-talk commands" in done.stderr


def test_parse_jsonl_answers_one_line_per_input_even_for_junk():
    lines = [
        {"text": "hide GFP", "context": {"layers": ["GFP"]}},
        {"text": "what time is it"},
        "not an object",
        {"text": "zoom box 1 2"},
    ]
    feed = "\n".join(json.dumps(x) if isinstance(x, dict) else x for x in lines) + "\n"
    done = napari_talk("parse", "--jsonl", stdin=feed)
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0
    assert out == [
        {"commands": [{"action": "layer_visibility", "name": "GFP", "op": "hide"}]},
        {"commands": []},
        {"commands": []},
        {"commands": []},
    ]


def test_parse_imports_neither_qt_nor_napari():
    code = (
        "import sys; from napari_talk.cli import main; main(['parse', 'hide nuclei']);"
        "bad = [m for m in ('napari', 'qtpy', 'PyQt6', 'PyQt5', 'PySide6', 'openai') if m in sys.modules];"
        "sys.exit(f'imported {bad}' if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (Xvfb)")
def test_run_executes_lines_on_a_sample_and_saves_a_screenshot(tmp_path):
    from PIL import Image

    script = tmp_path / "tour.txt"
    script.write_text("# a comment\nhide actin\n")
    shot = tmp_path / "shot.png"
    done = napari_talk(
        "run", "--sample", "cells", "--script", str(script), "--screenshot", str(shot),
        "fit nuclei", "list layers", timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "› hide actin\n✓ actin hidden." in done.stdout
    assert "6 layers, top first: spots (points, visible)" in done.stdout
    pixels = np.asarray(Image.open(shot))[..., :3]
    assert pixels.mean() > 5  # the cells were drawn, not a black canvas


@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (Xvfb)")
def test_run_exits_non_zero_when_a_line_fails():
    done = napari_talk("run", "--sample", "cells", "hide nonexistent", timeout=300)
    assert done.returncode == 1
    assert "✗" in done.stdout


def test_run_without_a_display_works_on_the_viewer_model(workspace):
    """No DISPLAY: no window opens and no Qt is needed; viewer lines and pack lines run, and what
    needs napari's window says so in a sentence."""
    done = napari_talk(
        "run", "--sample", "cells", "hide actin", "zoom to 2", "list layers",
        "fresnel from 1 to 1.5 at 45 degrees", "screenshot shot.png", display=False, timeout=300,
    )  # fmt: skip
    assert "› hide actin\n✓ actin hidden." in done.stdout, done.stdout + done.stderr
    assert "✓ zoom set to 2." in done.stdout and "actin (image, hidden)" in done.stdout
    assert "Brewster angle" in done.stdout
    assert "✗ a screenshot needs napari's canvas" in done.stdout
    assert done.returncode == 1 and "did not run (marked ✗ above)" in done.stderr
    assert "Traceback" not in done.stderr and not (workspace / "shot.png").exists()


def test_run_without_a_display_opens_every_sample(workspace):
    for sample in ("prism_demo", "mesh", "atlas"):
        done = napari_talk("run", "--sample", sample, "list layers", display=False, timeout=300)
        assert done.returncode == 0, (sample, done.stdout, done.stderr)


@pytest.mark.parametrize(
    ("args", "status", "said"),
    [
        (("run", "--sample", "nope", "hide nuclei"), 3, "there is no sample 'nope'; samples are: cells"),
        (("run", "--screenshot", "x.png", "hide nuclei"), 3, "there is no display here"),
        (("run", "--script", "/no/such/script.txt"), 2, "cannot read the script /no/such/script.txt"),
        (("run",), 2, "give lines to run"),
        (("parse",), 2, "give a line to parse"),
        (("start",), 3, "napari's window needs a display"),
        (("frobnicate",), 2, "invalid choice"),
    ],
)
def test_every_failure_is_a_sentence_and_a_documented_status(args, status, said):
    from napari_talk.cli import EXIT_CODES

    done = napari_talk(*args, display=False)
    assert done.returncode == status, done.stderr
    assert said in done.stderr and "Traceback" not in done.stderr
    assert f"  {status}  " in EXIT_CODES


def test_version_names_napari_talk_and_what_it_runs_on():
    from napari_talk import __version__

    done = napari_talk("--version")
    assert done.returncode == 0 and done.stdout.startswith(f"napari-talk {__version__} (napari ")
