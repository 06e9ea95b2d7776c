"""How long the first search on the atlas sample takes in the dock (needs a display:
xvfb-run -a python benchmarks/atlas_first_search.py).

A newcomer opens the dock, opens File > Open Sample > Atlas sample, and types a search. Each case
runs in a fresh process (first use is what is measured: imports, the sentence model, the sample's
pictures and vectors). ``--pause`` seconds pass between opening the sample and typing (a person
looking at the mosaic; default 8); ``--pause 0`` types at once. Printed per line: the seconds from
Enter to the reply, and :class:`dock_stalls.Meter`'s figures (the longest hold of the event loop,
napari-talk's own work in it); the idle event loop is the baseline, in the same window.
Target: the first search answers in <= 2 s, and no hold of the loop is long. The load average
is printed beside each case: the machine's other work stretches every figure.

``--cold`` runs each case with an empty model cache (``$NAPARI_TALK_MODEL_CACHE``): a newcomer's
very first run, whose first search waits for the sentence model's graph to be built and whose
canonical stage embeds every phrasing in the background.

    xvfb-run -a python benchmarks/atlas_first_search.py            # both pauses, each in its process
    xvfb-run -a python benchmarks/atlas_first_search.py --cold --pause 0
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

LINES = ("find similar to void walker", "show me pictures that look like a spiral")
"""The first is understood before and after the phrasings for pictures came: it compares both."""


def one(pause: float) -> None:
    import napari
    from dock_stalls import Meter
    from napari.utils._proxies import PublicOnlyProxy
    from qtpy.QtWidgets import QApplication

    from napari_talk._qt.dock import ChatDock

    def pump() -> None:
        QApplication.instance().processEvents()
        time.sleep(0.001)

    def wait(seconds: float) -> None:
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            pump()

    viewer = napari.Viewer()
    wait(1)
    dock = ChatDock(PublicOnlyProxy(viewer))
    viewer.window.add_dock_widget(dock, name="Chat")
    dock.session.workspace = Path(tempfile.mkdtemp(prefix="napari-talk-atlas-"))
    meter = Meter().start()
    idle = lambda: dock.job is None and dock.task is None  # noqa: E731
    viewer.open_sample("napari-talk", "atlas")
    wait(pause)
    cold = " (an empty model cache)" if os.environ.get("NAPARI_TALK_MODEL_CACHE") else ""
    print(f"-- typed {pause:.0f} s after opening the Atlas sample{cold}; load average {_load()}")
    for line in LINES:
        started = time.perf_counter()
        before = len(dock.transcript.entries)
        stall = meter.run(lambda line=line: dock.send(line), idle, pump)
        seconds = time.perf_counter() - started
        said = [e.text for e in dock.transcript.entries[before:] if e.kind in ("reply", "error")]
        print(f"   {line!r}: {seconds:5.2f} s  {stall}", flush=True)
        print(f"      {(said[0] if said else '').splitlines()[0][:100]}")
    baseline = meter.run(lambda: None, lambda: True, pump)
    meter.stop()
    print(f"   idle event loop (baseline): {baseline}")
    viewer.close()


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pause", type=float, action="append", help="seconds before typing (repeatable)")
    parser.add_argument("--cold", action="store_true", help="an empty model cache in each case")
    parser.add_argument("--one", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        return one(args.one)
    for pause in args.pause or [8.0, 0.0]:
        env = dict(os.environ)
        with tempfile.TemporaryDirectory(prefix="napari-talk-cold-") as empty:
            if args.cold:
                env["NAPARI_TALK_MODEL_CACHE"] = empty
            subprocess.run([sys.executable, __file__, "--one", str(pause)], check=False, env=env)


if __name__ == "__main__":
    main()
