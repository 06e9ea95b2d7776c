"""How long lines typed into the dock hold napari's event loop, and how much of that is
napari-talk's own work (needs a display: xvfb-run -a python benchmarks/dock_stalls.py), under
software rendering (Mesa's llvmpipe, as on a machine without a GPU).

A napari window opens with the cells sample; the dock is added on the viewer proxy napari gives
plugins and the first line is sent at once, as a person who opens the dock and types would (the
parser's rules for the layers' names may still be compiling). Then each pack's sample is opened as
File > Open Sample opens it and the pack's first line is typed (its code's first use in the
process), then a warm line of the same kind; then more lines. For every line:

- **held**: the longest gap between ticks of a 5 ms timer, from Enter until the line's answer is
  shown: how long the GUI could not answer, napari's and vispy's work (adding layers, drawing)
  included. A slow part that runs in a thread while the loop turns does not count.
- **in send()**: the time the dock's ``send`` took (for a line with a slow part, the turning loop
  that waits for it included).
- **napari-talk's own work**: CPU time of the GUI thread spent in napari-talk, in the one hold
  that had the most of it (and in all of the line's holds together). A sampler thread reads the
  GUI thread's stack and CPU clock every millisecond; a sample is napari-talk's when, going out
  from the innermost frame, a napari-talk frame comes before any frame of napari, vispy, Qt's
  bindings or the test harness: numpy, scipy, PIL or ``re`` called from napari-talk count as
  napari-talk's, and so do napari-talk's callbacks that napari calls; napari's work called from
  napari-talk (adding a layer) does not, nor does a job's nested event loop while it waits. CPU
  time, not wall time, so other programs on the machine do not inflate it.

``--where`` says where the GUI thread was in a hold over the target; ``--lines FILE.jsonl`` types
every line of a file of typed lines instead (see :func:`typed_lines`).

Baseline: the same figures for the idle event loop, in the same window. Target: no line holds the
loop for more than 100 ms of napari-talk's own work. ``tests/test_dock_stalls.py`` holds every
README line to it with the same :class:`Meter`.
"""

from __future__ import annotations

import itertools
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

OWN = "napari-talk:"
TARGET_MS = 100.0
TICK_MS = 5
SAMPLE_S = 0.001

PACK_LINES = (  # (pack, sample to open first, its first line, a warm line of the same kind)
    ("viewer", None, "hide nuclei", "show nuclei"),  # the first: the moment the dock opens
    ("files", "files", "list files in sample", "list files in sample/notes"),
    ("rays", "prism_demo", "which rays cross edge N of Prism", "rays inside Prism"),
    ("mesh", "mesh", "segment it", "segment it"),
    ("atlas", "atlas", "find similar to a golden desert guardian", "find similar to a forgotten kings' tomb"),
)  # fmt: skip

LINES = (  # (what, sample to open first, line): more lines, warm
    ("grid on", None, "grid on"),
    ("grid off", None, "grid off"),
    ("load the prism demo", None, "load the prism demo"),
    ("a ray query on the loaded demo", None, "which rays cross edge N of Main Prism"),
    ("spawn a body", None, "spawn a body"),
    ("segmentation of the body", None, "segment it"),
    ("a material", None, "apply dark rusty metal to segment 2"),
    ("isolate a segment", None, "isolate segment 2"),
    ("show the whole model", None, "show the whole model"),
    ("export", None, "export the model"),
    ("analyze a layer", None, "analyze the GFP layer"),
    ("load the sample catalogue", None, "load the sample catalogue"),
    ("undo", None, "undo"),
)

BOUNDARY = (
    "/napari/", "/vispy/", "/qtpy/", "/superqt/", "/magicgui/", "/psygnal/", "/app_model/",
    "/in_n_out/", "/npe2/", "/pytestqt/", "/_pytest/", "/pluggy/",
)  # fmt: skip
"""Where napari's (and the harness's) work begins: a frame from these is not napari-talk's."""


def owner(frame: Any) -> str:
    """Whose work the GUI thread is doing: "napari-talk" (with the napari-talk function at work,
    after a colon), "napari", "waiting" (a job's nested event loop) or "other" (the harness's own
    loop, Qt's C++ with no Python frame of either)."""
    while frame is not None:
        path = frame.f_code.co_filename
        if "/napari_talk/" in path:
            if frame.f_code.co_name == "run_job":
                return "waiting"
            return f"napari-talk:{path.rsplit('/napari_talk/', 1)[1]}:{frame.f_code.co_name}"
        if any(part in path for part in BOUNDARY):
            return "napari"
        frame = frame.f_back
    return "other"


@dataclass(frozen=True)
class Stall:
    held_ms: float
    """The longest gap between the timer's ticks."""
    send_ms: float
    """How long the action (typing the line and Enter) blocked its caller."""
    own_ms: float
    """napari-talk's own work (GUI thread CPU time) in the hold that had the most of it."""
    own_total_ms: float
    """napari-talk's own work in all the line's holds together."""

    def __str__(self) -> str:
        return (
            f"held {self.held_ms:7.1f} ms · in send() {self.send_ms:7.1f} ms · napari-talk's own work "
            f"in one hold {self.own_ms:6.1f} ms (in all {self.own_total_ms:6.1f} ms)"
        )


class Meter:
    """Watches the GUI thread: a timer's ticks (a gap between ticks is the loop held) and a
    sampler thread that reads the GUI thread's stack and CPU clock. Make it on the GUI thread."""

    def __init__(self) -> None:
        from qtpy.QtCore import QTimer

        self._gui = threading.main_thread().ident
        assert threading.get_ident() == self._gui, "a Meter watches the thread that makes it"
        self._clock = time.pthread_getcpuclockid(self._gui)
        self.ticks: list[float] = []
        self.samples: list[tuple[float, float, str]] = []
        self.spots: list[str] = []
        """Beside each sample, the innermost frame the GUI thread was in (and its caller in
        napari-talk, if any): where a hold's wall time went, waits on a lock included."""
        self._longest: tuple[float, float] = (0.0, 0.0)
        self._timer = QTimer()
        self._timer.timeout.connect(lambda: self.ticks.append(time.perf_counter()))
        self._stop = threading.Event()
        self._sampler: threading.Thread | None = None
        self._switch = sys.getswitchinterval()
        self._first = 0

    def start(self) -> Meter:
        sys.setswitchinterval(SAMPLE_S / 2)  # the sampler gets its turn however busy the GUI is
        self._stop.clear()
        self._sampler = threading.Thread(target=self._sample, name="stall-sampler", daemon=True)
        self._sampler.start()
        self._timer.start(TICK_MS)
        return self

    def stop(self) -> None:
        self._timer.stop()
        self._stop.set()
        if self._sampler is not None:
            self._sampler.join()
        sys.setswitchinterval(self._switch)

    def _sample(self) -> None:
        frames = sys._current_frames
        while not self._stop.is_set():
            frame = frames().get(self._gui)
            self.samples.append((time.perf_counter(), time.clock_gettime(self._clock), owner(frame)))
            self.spots.append(spot(frame))
            del frame
            time.sleep(SAMPLE_S)

    def run(self, action: Callable[[], Any], done: Callable[[], bool], pump: Callable[[], None]) -> Stall:
        """Time ``action`` (typing a line), then turn the loop with ``pump`` until ``done()`` and
        at least 0.3 s more (what the line makes napari draw is part of it)."""
        self.ticks.clear()
        start = time.perf_counter()
        self.ticks.append(start)  # a line that holds the loop from Enter on shows as a gap from here
        first = self._first = len(self.samples)
        action()
        sent = time.perf_counter()
        while time.perf_counter() - sent < 0.3 or not done():
            pump()
        self.ticks.append(time.perf_counter())
        samples = self.samples[max(first - 1, 0) :]
        gaps = list(itertools.pairwise(self.ticks))
        own = [self._own(samples, a, b) for a, b in gaps]
        self._longest = max(gaps, key=lambda gap: gap[1] - gap[0])
        return Stall(
            held_ms=1e3 * max(b - a for a, b in gaps),
            send_ms=1e3 * (sent - start),
            own_ms=1e3 * max(own),
            own_total_ms=1e3 * sum(own),
        )

    @staticmethod
    def _own(samples: list[tuple[float, float, str]], a: float, b: float) -> float:
        """napari-talk's CPU seconds between ``a`` and ``b``: each interval between two samples
        counts half for what each of them saw."""
        total = 0.0
        for (t0, c0, o0), (t1, c1, o1) in itertools.pairwise(samples):
            if a <= (t0 + t1) / 2 < b:
                total += (c1 - c0) * (o0.startswith(OWN) + o1.startswith(OWN)) / 2
        return total

    def where(self, top: int = 3) -> str:
        """The napari-talk functions the last line's own work was in, most sampled first."""
        counts = Counter(o.split(":", 1)[1] for _, _, o in self.samples[self._first :] if o.startswith(OWN))
        return ", ".join(f"{name} ×{n}" for name, n in counts.most_common(top))

    def held_where(self, top: int = 4) -> str:
        """Where the GUI thread was (innermost frame) during the last line's longest hold, by wall
        time (samples): CPU work, and waits (an import lock, a join) the CPU figure misses."""
        a, b = self._longest
        n = min(len(self.samples), len(self.spots))  # the sampler may be between its two appends
        held = zip(self.samples[:n], self.spots[:n], strict=True)
        counts = Counter(spot for (t, _, _), spot in held if a <= t < b)
        return ", ".join(f"{name} ×{n}" for name, n in counts.most_common(top))


def spot(frame: Any) -> str:
    """The innermost frame (file:function), with the innermost napari-talk frame that led to it."""
    if frame is None:
        return "-"
    code = frame.f_code
    inner = f"{code.co_filename.rsplit('/', 2)[-1]}:{code.co_name}"
    while frame is not None and "/napari_talk/" not in frame.f_code.co_filename:
        frame = frame.f_back
    if frame is None or frame.f_code.co_name == "run_job":
        return inner
    ours = f"{frame.f_code.co_filename.rsplit('/napari_talk/', 1)[1]}:{frame.f_code.co_name}"
    return inner if inner.endswith(ours.rsplit("/", 1)[-1]) else f"{inner} < {ours}"


def main() -> None:
    os.environ.setdefault("LIBGL_ALWAYS_SOFTWARE", "1")
    import napari
    from napari.utils._proxies import PublicOnlyProxy
    from qtpy.QtWidgets import QApplication

    from napari_talk._qt.dock import ChatDock

    workspace = Path(tempfile.mkdtemp(prefix="napari-talk-stalls-"))
    os.environ["NAPARI_TALK_WORKSPACE"] = str(workspace)  # where the files sample is made
    viewer = napari.Viewer()
    app = QApplication.instance()

    def pump() -> None:
        app.processEvents()
        time.sleep(0.001)

    def open_sample(sample: str) -> None:
        viewer.open_sample("napari-talk", sample)
        for _ in range(300):
            pump()

    open_sample("cells")
    print(f"software rendering: LIBGL_ALWAYS_SOFTWARE={os.environ['LIBGL_ALWAYS_SOFTWARE']}", flush=True)
    meter = Meter().start()
    opened = time.perf_counter()
    dock = ChatDock(PublicOnlyProxy(viewer))
    viewer.window.add_dock_widget(dock, name="Chat")
    dock.session.workspace = workspace
    dock_ms = (time.perf_counter() - opened) * 1e3
    idle = lambda: dock.job is None and dock.task is None  # noqa: E731

    def measure(label: str, line: str) -> Stall:
        stall = meter.run(lambda: dock.send(line), idle, pump)
        reply = dock.transcript.entries[-1]
        said = " ".join(reply.text.split())[:50]
        print(f"{label:44s} {stall}   [{reply.kind}] {said}", flush=True)
        if "--where" in sys.argv and stall.own_ms > 20:
            print(f"{'':44s} in {meter.where()}", flush=True)
        if "--where" in sys.argv and stall.held_ms > TARGET_MS:
            print(f"{'':44s} held in {meter.held_where()}", flush=True)
        return stall

    results, pairs = [], []
    for pack, sample, first_line, warm_line in PACK_LINES:  # the first right after the dock opens
        if sample:
            open_sample(sample)
        first = measure(f"{pack}, first: {first_line}", first_line)
        warm = measure(f"{pack}, warm: {warm_line}", warm_line)
        pairs.append((pack, first, warm))
        results += [first, warm]
    for label, sample, line in LINES:
        if sample:
            open_sample(sample)
        results.append(measure(label, line))
    baseline = meter.run(lambda: None, lambda: True, pump)
    meter.stop()
    print(f"\nthe dock opened in {dock_ms:.0f} ms; the idle event loop (baseline): {baseline}")
    print(f"\n{'pack':8s} {'first line: own / held (ms)':>30s} {'warm line: own / held (ms)':>30s}")
    for pack, first, warm in pairs:
        print(
            f"{pack:8s} {first.own_ms:14.1f} / {first.held_ms:8.1f}    "
            f"{warm.own_ms:14.1f} / {warm.held_ms:8.1f}"
        )
    worst = max(results, key=lambda s: s.own_ms)
    verdict = "ok" if worst.own_ms <= TARGET_MS else "MISSED"
    print(
        f"longest hold of the loop: {max(s.held_ms for s in results):.0f} ms (napari and vispy included); "
        f"most of napari-talk's own work in one hold: {worst.own_ms:.1f} ms  "
        f"target <= {TARGET_MS:.0f} ms: {verdict}"
    )
    viewer.close()


def record_kernels() -> list[dict[str, Any]]:
    """Every numba compile or cache load from now on: whose function (``ours``: napari-talk's), on
    which thread (``gui``: the main one), how long. numba compiles one function at a time under
    one lock, so napari's own kernels may wait for ours: a stall this list explains."""
    from numba.core.dispatcher import Dispatcher

    loads: list[dict[str, Any]] = []
    compile_or_load = Dispatcher.compile

    def recorded(self: Any, sig: Any) -> Any:
        started = time.perf_counter()
        try:
            return compile_or_load(self, sig)
        finally:
            module = self.py_func.__module__
            loads.append(
                {
                    "ours": module.startswith("napari_talk."),
                    "gui": threading.current_thread() is threading.main_thread(),
                    "name": f"{module}.{self.py_func.__qualname__}",
                    "seconds": time.perf_counter() - started,
                }
            )

    Dispatcher.compile = recorded
    return loads


def typed_lines(path: Path) -> None:
    """``--lines FILE.jsonl``: every line of a file of typed lines (``{"pack", "sample", "text"}``
    rows, as ``benchmarks/data/newcomer_lines2.jsonl``), in its order, each row's sample opened
    as File > Open Sample opens it before its first line: the first line of each pack is its
    first use. Printed per line, then per pack: the longest hold of the loop, the most of
    napari-talk's own work in one hold, and the lines that held the loop over the target."""
    import json

    import napari
    from napari.utils._proxies import PublicOnlyProxy
    from qtpy.QtWidgets import QApplication

    from napari_talk._qt.dock import ChatDock

    os.environ.setdefault("LIBGL_ALWAYS_SOFTWARE", "1")
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    workspace = Path(tempfile.mkdtemp(prefix="napari-talk-stalls-"))
    os.environ["NAPARI_TALK_WORKSPACE"] = str(workspace)
    viewer = napari.Viewer()
    app = QApplication.instance()

    def pump() -> None:
        app.processEvents()
        time.sleep(0.001)

    print(f"{len(rows)} lines of {path.name}; load average at the start {_load()}", flush=True)
    meter = Meter().start()
    dock = ChatDock(PublicOnlyProxy(viewer))
    viewer.window.add_dock_widget(dock, name="Chat")
    dock.session.workspace = workspace
    idle = lambda: dock.job is None and dock.task is None  # noqa: E731
    opened: set[str] = set()
    measured: list[tuple[str, str, Stall, str]] = []
    for row in rows:
        if row.get("sample") and row["sample"] not in opened:
            opened.add(row["sample"])
            viewer.open_sample("napari-talk", row["sample"])
            for _ in range(300):
                pump()
        stall = meter.run(lambda row=row: dock.send(row["text"]), idle, pump)
        where = meter.held_where() if stall.held_ms > TARGET_MS else ""
        measured.append((row["pack"], row["text"], stall, where))
        reply = dock.transcript.entries[-1]
        print(f"{row['pack']:7s} {row['text'][:44]:44s} {stall}   [{reply.kind}]", flush=True)
        if where and "--where" in sys.argv:
            print(f"{'':52s} held in {where}", flush=True)
    meter.stop()
    print(f"\nload average at the end {_load()}")
    heads = ("lines", "longest hold (ms)", "most own work (ms)", "over 100 ms")
    print(f"{'pack':8s} {heads[0]:>5s} {heads[1]:>18s} {heads[2]:>19s} {heads[3]:>12s}")
    for pack in dict.fromkeys(p for p, _, _, _ in measured):
        mine = [s for p, _, s, _ in measured if p == pack]
        over = sum(s.held_ms > TARGET_MS for s in mine)
        longest, own = max(s.held_ms for s in mine), max(s.own_ms for s in mine)
        print(f"{pack:8s} {len(mine):5d} {longest:18.0f} {own:19.1f} {over:12d}")
    print("\nlines that held the loop over the target:")
    for pack, text, stall, where in measured:
        if stall.held_ms > TARGET_MS:
            figures = f"held {stall.held_ms:6.0f} ms, own {stall.own_ms:5.1f} ms"
            print(f"  {pack:7s} {text[:50]!r:54s} {figures}; {where}")
    viewer.close()


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    if "--lines" in sys.argv:
        typed_lines(Path(sys.argv[sys.argv.index("--lines") + 1]))
    else:
        main()
