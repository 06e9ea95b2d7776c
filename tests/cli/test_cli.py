"""The command line: ``parse`` without Qt or napari, ``run`` in a real viewer without a window."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest


def napari_talk(*args, stdin=None, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "napari_talk", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
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
