"""Opening the dock and then a sample never races napari (each in a fresh process: what raced was
the first use of a module, once per process).

The dock imports the packs' handlers in a thread as it opens. It once also built pint's unit
registry there, and a sample opened in the same second found "'pixel' is not defined in the unit
registry": an empty canvas and a red notification. The rule now (``napari_talk._qt.warm_up``): no
module that napari imports on the GUI thread when layers come is first imported by a thread of the
dock's. The first test holds that rule module by module; the second does what the person did,
at random delays, and asks napari whether anything went wrong.

``NAPARI_TALK_START_TRIALS=50`` runs 50 openings instead of the default 10 (about 5 s each).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (Xvfb)")

TRIAL = Path(__file__).with_name("start_trial.py")
SAMPLES = ("cells", "prism_demo", "atlas", "mesh", "files")


def run_trial(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, str(TRIAL), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_no_thread_of_the_dock_first_imports_a_module_napari_imports_for_layers(workspace):
    with_dock = run_trial("imports", "dock")
    napari_alone = run_trial("imports", "plain")
    napari_needs = {m for m, thread in napari_alone.items() if thread.startswith("MainThread")}
    off_the_gui = {m for m, thread in with_dock.items() if not thread.startswith("MainThread")}
    assert off_the_gui, "the dock imported nothing in the background: the recorder saw no thread"
    assert any(m.startswith("napari_talk.packs.rays.handlers") for m in off_the_gui), off_the_gui
    # napari-talk's own modules may be imported by the warm-up and by a sample at once (they keep no
    # lazy shared state), and what numba imports while compiling is imported under its compiler
    # lock, which napari's own numba compilations wait for; nothing else napari needs may come first
    # in a thread of the dock's
    shared = sorted(
        m
        for m in off_the_gui & napari_needs
        if not m.startswith("napari_talk") and not with_dock[m].endswith("(compiling)")
    )
    assert not shared, f"imported in the dock's threads though napari imports them for layers: {shared}"
    assert "pint" not in off_the_gui
    # each pack's handlers come in the warm-up thread, so no pack's first command imports them (a
    # table declared by dotted name is imported by importlib, which the audit hook may see only
    # through the modules it binds: every handlers module seen must be the warm-up's)
    handlers = {m: t for m, t in with_dock.items() if m.startswith("napari_talk.packs.") and ".handlers" in m}
    assert {pack.split(".")[2] for pack in handlers} >= {"rays", "mesh", "atlas"}, handlers
    assert set(handlers.values()) == {"napari-talk-warm-up"}, handlers


def test_a_layer_that_comes_imports_no_packs_scene_or_handlers_on_the_gui_thread(workspace):
    """The packs hear of every layer on the GUI thread (``layer_added``, ``prepares_for``): a
    sample opened before the warm-up got to a pack once had the rays pack import its scene and
    drawing there (half a second, or a wait on the warm-up's import of the same modules)."""
    seen = run_trial("layers")
    assert seen["layers"] == 4 and seen["session"]
    handlers = [m for m in seen["imported"] if ".handlers" in m]
    rays = [m for m in seen["imported"] if m.startswith("napari_talk.packs.rays.")]
    assert not handlers, handlers
    assert rays == ["napari_talk.packs.rays.roles"], rays  # not its scene, drawing or tracer


def test_opening_a_sample_at_any_moment_after_the_dock_never_fails(workspace):
    trials = int(os.environ.get("NAPARI_TALK_START_TRIALS", "10"))
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    failures = []
    for index in range(trials):
        sample = SAMPLES[index % len(SAMPLES)]
        delay = round(rng.uniform(0.0, 1.5) if index % 2 == 0 else rng.uniform(0.0, 5.0), 2)
        opened = run_trial("open", str(delay), sample)
        if opened["errors"] or not opened["layers"]:
            failures.append(opened)
    assert not failures, f"seed {seed}: {failures}"


def test_closing_the_window_while_the_dock_gets_ready_ends_cleanly(workspace):
    """The packs' set-up tells the dock when it is done from its thread; a window closed before
    then once took the dock's messenger with it and the process died (a segmentation fault)."""
    closed = run_trial("close")
    assert closed["threads left"] == []
