"""Prints napari-talk's speed figures, each beside a baseline measured in the same process.

    python benchmarks/run.py            # all figures (the dock and latency ones need a display)
    python benchmarks/run.py --quick    # parser and import only

Targets: parser >= 20,000 lines/s; `import napari_talk` < 150 ms importing neither napari, Qt
nor openai; a parser-road command < 5 ms from text to viewer changed (drawing excluded).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = [HERE.parent / "tests" / "data" / name for name in ("phrasings_dev.jsonl", "phrasings_dev2.jsonl")]
HEAVY = ("napari", "qtpy", "PyQt5", "PyQt6", "PySide6", "openai")


def best_of(repeat: int, func) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def parser_throughput() -> None:
    from napari_talk.core.contract.registry import default_registry
    from napari_talk.core.grammar.parser import Parser, parse
    from napari_talk.core.rules.text import normalize

    cases = [json.loads(line) for path in CORPORA for line in path.read_text().splitlines() if line]
    lines = [(c["text"], c.get("context", {})) for c in cases]
    fresh = Parser(default_registry())
    start = time.perf_counter()
    for text, context in lines:  # a new session's first lines: its token caches still empty
        fresh.parse(text, context)
    cold = time.perf_counter() - start
    for text, context in lines:  # warm the per-context caches, as a session would be
        parse(text, context)
    parse_s = best_of(5, lambda: [parse(t, c) for t, c in lines])
    normalize_s = best_of(5, lambda: [normalize(t) for t, _ in lines])
    rate = len(lines) / parse_s
    print(f"parser, first pass of a new parser: {len(lines) / cold:,.0f} lines/s")
    print(
        f"parser: {rate:,.0f} lines/s over {len(lines)} corpus lines "
        f"({parse_s / len(lines) * 1e6:.1f} µs/line; baseline normalize-only "
        f"{normalize_s / len(lines) * 1e6:.1f} µs/line)  target >= 20,000: "
        f"{'ok' if rate >= 20_000 else 'MISSED'}"
    )


def import_time() -> None:
    probe = (
        "import sys, time; t = time.perf_counter(); import {mod}; t = time.perf_counter() - t; "
        "print(t, [m for m in {heavy!r} if m in sys.modules])"
    )

    def measure(mod: str) -> tuple[float, list[str]]:
        runs = []
        for _ in range(5):
            out = subprocess.run(
                [sys.executable, "-c", probe.format(mod=mod, heavy=HEAVY)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split(" ", 1)
            runs.append((float(out[0]), out[1].strip()))
        return min(r[0] for r in runs), runs[0][1]

    ours, heavy = measure("napari_talk")
    parse_ready, _ = measure("napari_talk.core.grammar.parser")
    baseline, _ = measure("json")
    print(
        f"import napari_talk: {ours * 1e3:.1f} ms (heavy modules imported: {heavy}); "
        f"parser module {parse_ready * 1e3:.1f} ms; baseline import json {baseline * 1e3:.1f} ms  "
        f"target < 150 ms: {'ok' if ours < 0.150 and heavy == '[]' else 'MISSED'}"
    )


def viewer_figures() -> None:
    import napari
    import numpy as np
    from qtpy.QtWidgets import QTextBrowser, QWidget

    from napari_talk._qt.dock import ChatDock
    from napari_talk.core.running.session import Session
    from napari_talk.samples import cells

    viewer = napari.Viewer(show=False)
    for data, kwargs, kind in cells():
        getattr(viewer, f"add_{kind}")(data, **kwargs)

    def bare_widget():
        w = QWidget()
        QTextBrowser(w)
        w.deleteLater()

    docks = []
    dock_s = statistics.median(best_of(1, lambda: docks.append(ChatDock(viewer))) for _ in range(7))
    baseline_s = statistics.median(best_of(1, bare_widget) for _ in range(7))
    print(
        f"dock creation: {dock_s * 1e3:.1f} ms (baseline bare QWidget+QTextBrowser {baseline_s * 1e3:.2f} ms)"
    )

    session = Session(viewer)
    layer = viewer.layers["nuclei"]
    camera = viewer.camera

    def visibility(i: int) -> tuple[str, object]:
        visible = i % 2 == 1
        return ("show nuclei" if visible else "hide nuclei"), lambda: setattr(layer, "visible", visible)

    def centre(i: int) -> tuple[str, object]:
        return f"center on {i} {2 * i}", lambda: setattr(camera, "center", (0, 2 * i + 1, i + 1))

    for label, case in (("'hide/show nuclei'", visibility), ("'center on x y'", centre)):
        through_talk, direct = [], []
        for i in range(60):
            text, napari_call = case(i)
            start = time.perf_counter()
            turn = session.run(text)
            through_talk.append(time.perf_counter() - start)
            assert turn.ok, turn.message
            start = time.perf_counter()
            napari_call()
            direct.append(time.perf_counter() - start)
        total, baseline = statistics.median(through_talk), statistics.median(direct)
        verdict = "ok" if total < 0.005 else "MISSED"
        print(
            f"text -> viewer changed, {label}: median {total * 1e3:.2f} ms (baseline: the same change "
            f"made directly in napari {baseline * 1e3:.2f} ms; napari-talk's own share "
            f"{(total - baseline) * 1e3:.2f} ms)  target < 5 ms: {verdict}"
        )
    viewer.close()
    del np


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--quick", action="store_true", help="parser and import figures only")
    args = options.parse_args()
    parser_throughput()
    import_time()
    if not args.quick:
        viewer_figures()


if __name__ == "__main__":
    main()
