"""A newcomer's hour: each bundled sample opened in a real napari window, the chat dock added as
napari adds a plugin's, and the lines someone new to the tool types on that sample typed into it
(needs a display: xvfb-run -a python benchmarks/newcomer_hour.py), with no language model set up.

    xvfb-run -a python benchmarks/newcomer_hour.py                       # the second set (the default)
    xvfb-run -a python benchmarks/newcomer_hour.py --data benchmarks/data/newcomer_lines.jsonl

The lines are ``benchmarks/data/newcomer_lines2.jsonl`` by default (see ``benchmarks/data/README.md``),
written blind on what each sample contains and frozen; ``--data`` picks another set (the first,
``newcomer_lines.jsonl``, was scored and read, so it is no longer blind). A line that asks what no
command can do carries ``"unsupported": true``; a remark that asks for nothing carries
``"remark": true`` and ``expect: []``. For every line it records

- the commands that ran, as the transcript shows them (a question the line raises, such as "move
  this file to the trash?", is answered Run, as the person who typed it would);
- the verdict: for a line a command can carry out, **right** (the commands do what the labels
  say, in order: judged by effect, in the session the line ran in, by :mod:`newcomer_judge`, so
  "chapter 1" and ``sample/chapters/ch01.md`` are the same file), **wrong action** (other commands
  ran) or **not understood** (none ran); for a remark, **right** when nothing ran (or only
  ``help``); for an unsupported line, **honest can't** (nothing ran and the reply says it cannot,
  rather than that it did not understand), **not understood**, or **wrong action** (something ran);
- the reply's first line;
- the longest hold of the event loop from Enter until the answer is shown (``dock_stalls.Meter``).

and prints a table per pack, then every line that was not right. ``--out FILE`` writes every
line's record as JSON Lines.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
from dock_stalls import Meter  # noqa: E402  how long a line holds the loop, as the stall benchmark meters it
from newcomer_judge import Effects  # noqa: E402  a command judged by what it does, not its spelling
from support.door import open_door, type_line  # noqa: E402  a line typed into the dock as a person types it
from understanding import load  # noqa: E402

DATA = HERE / "data" / "newcomer_lines2.jsonl"
SAMPLE_OF_PACK = {"viewer": "cells", "files": "files", "rays": "prism_demo", "mesh": "mesh", "atlas": "atlas"}
VERDICTS = ("right", "wrong action", "not understood", "honest can't")
NOT_UNDERSTOOD = "I did not understand"
"""How the dock's reply to a line nothing read begins."""
SAYS_CANNOT = ("help", "cannot_do_with_files")
"""Commands that do nothing to the data: on an unsupported line they are a way of saying "can't"."""
TIMEOUT_MS = 120_000


def commands_shown(entries: list[Any]) -> list[dict[str, Any]]:
    """The commands the transcript's ``command`` entries show, in order."""
    shown: list[dict[str, Any]] = []
    for entry in entries:
        if entry.kind == "command":
            wire = json.loads(entry.text)
            shown += wire if isinstance(wire, list) else [wire]
    return shown


def first_reply(entries: list[Any]) -> str:
    """The first line of the first reply (or error) a typed line got."""
    for entry in entries:
        if entry.kind in ("reply", "error"):
            return (entry.text.strip().splitlines() or [""])[0]
    return ""


def verdict(case: dict[str, Any], commands: list[dict[str, Any]], reply: str, effects: Effects) -> str:
    """One of :data:`VERDICTS` for a line, from what ran (judged by ``effects``, the session the
    line ran in) and what the reply said."""
    if case.get("unsupported"):
        if any(c.get("action") not in SAYS_CANNOT for c in commands):
            return "wrong action"
        return "not understood" if reply.startswith(NOT_UNDERSTOOD) else "honest can't"
    found = effects.judge(case["expect"], commands)
    return {"covered": "right", "wrong": "wrong action"}.get(found, "not understood")


def type_and_confirm(qtbot: Any, dock: Any, text: str) -> int:
    """Type a line; answer Run to every question it raises, as the person who typed it would. How
    many questions there were."""
    from qtpy.QtCore import Qt

    type_line(qtbot, dock, text)
    asked = 0
    while not dock.run_button.isHidden():
        asked += 1
        qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: dock.job is None and dock.task is None, timeout=TIMEOUT_MS)
    return asked


def typing(qtbot: Any, dock: Any, text: str, asked: list[int]) -> Callable[[], None]:
    """What the meter times for a line: typing it (and answering its questions); ``asked`` gets
    how many questions it raised."""
    return lambda: asked.append(type_and_confirm(qtbot, dock, text))


def a_qtbot() -> Any:
    """pytest-qt's typing robot outside pytest: its key and mouse methods need no test request."""
    from pytestqt.qt_compat import qt_api
    from pytestqt.qtbot import QtBot

    qt_api.set_qt_api(None)
    return QtBot(None)  # type: ignore[arg-type]


def run_pack(pack: str, cases: list[dict[str, Any]], meter_box: list[Meter], qtbot: Any) -> list[dict]:
    """Open the pack's sample in a new window, add the dock, type the pack's lines in order."""
    import napari
    from napari.utils._proxies import PublicOnlyProxy
    from qtpy.QtWidgets import QApplication

    workspace = Path(tempfile.mkdtemp(prefix=f"napari-talk-newcomer-{pack}-"))
    os.environ["NAPARI_TALK_WORKSPACE"] = str(workspace)  # where the files sample writes its folder
    viewer = napari.Viewer()
    app = QApplication.instance()
    assert app is not None, "napari.Viewer() makes the QApplication"

    def pump() -> None:
        app.processEvents()
        time.sleep(0.001)

    viewer.open_sample("napari-talk", SAMPLE_OF_PACK[pack])
    for _ in range(300):
        pump()
    dock = open_door(lambda: PublicOnlyProxy(viewer), workspace)
    if dock.session.llm_ready:
        raise SystemExit("a language model is set up: this benchmark measures the dock without one")
    if not meter_box:
        meter_box.append(Meter().start())
    meter = meter_box[0]
    effects = Effects(dock.session)
    records = []
    for case in cases:
        before = len(dock.transcript.entries)
        asked: list[int] = []
        stall = meter.run(typing(qtbot, dock, case["text"], asked), lambda: True, pump)
        entries = dock.transcript.entries[before:]
        commands = commands_shown(entries)
        reply = first_reply(entries)
        records.append(
            {
                "pack": pack,
                "sample": case.get("sample", SAMPLE_OF_PACK[pack]),
                "text": case["text"],
                "unsupported": bool(case.get("unsupported")),
                "remark": bool(case.get("remark")),
                "expect": case["expect"],
                "ran": commands,
                "verdict": verdict(case, commands, reply, effects),
                "reply": reply,
                "questions": asked[0] if asked else 0,
                "held_ms": round(stall.held_ms, 1),
                "own_ms": round(stall.own_ms, 1),
            }
        )
        print(f"{pack:7s} {records[-1]['verdict']:15s} {stall.held_ms:7.0f} ms  {case['text']}", flush=True)
    viewer.close()
    return records


def print_table(records: list[dict]) -> None:
    packs = list(dict.fromkeys(r["pack"] for r in records))
    print(
        f"\n{'pack':8s} {'lines':>5s} " + " ".join(f"{v:>15s}" for v in VERDICTS) + f" {'max stall ms':>13s}"
    )
    for pack in [*packs, "all"]:
        rows = [r for r in records if pack in ("all", r["pack"])]
        counts = [sum(r["verdict"] == v for r in rows) for v in VERDICTS]
        stall = max(r["held_ms"] for r in rows)
        print(f"{pack:8s} {len(rows):5d} " + " ".join(f"{n:15d}" for n in counts) + f" {stall:13.0f}")
    supported = [r for r in records if not r["unsupported"] and not r.get("remark")]
    unsupported = [r for r in records if r["unsupported"]]
    remarks = [r for r in records if r.get("remark")]
    right = sum(r["verdict"] == "right" for r in supported)
    honest = sum(r["verdict"] == "honest can't" for r in unsupported)
    quiet = sum(r["verdict"] == "right" for r in remarks)
    print(
        f"\nright on {right}/{len(supported)} lines a command can carry out; "
        f'an honest "can\'t" on {honest}/{len(unsupported)} lines none can; '
        f"nothing run on {quiet}/{len(remarks)} remarks"
    )


def print_misses(records: list[dict]) -> None:
    """Every line that was not right: what ran, or what the reply said."""
    missed = [r for r in records if r["verdict"] not in ("right", "honest can't")]
    if missed:
        print("\nlines not right:")
    for r in missed:
        ran = json.dumps(r["ran"], ensure_ascii=False) if r["ran"] else r["reply"][:100]
        print(f"  {r['pack']:7s} {r['verdict']:15s} {r['text']!r}\n      ran: {ran}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--data", "--lines", type=Path, default=DATA, help=f"a newcomer-lines set (JSON Lines; {DATA.name})"
    )
    ap.add_argument("--packs", nargs="*", default=list(SAMPLE_OF_PACK), choices=list(SAMPLE_OF_PACK))
    ap.add_argument("--out", type=Path, default=None, help="write every line's record here (JSON Lines)")
    args = ap.parse_args(argv)

    os.environ.setdefault("LIBGL_ALWAYS_SOFTWARE", "1")
    config = Path(tempfile.mkdtemp(prefix="napari-talk-newcomer-config-")) / "settings.json"
    os.environ["NAPARI_TALK_CONFIG"] = str(config)  # default settings: no language model
    cases = load(args.data)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    qtbot = a_qtbot()
    meter_box: list[Meter] = []
    records: list[dict] = []
    try:
        for pack in args.packs:
            mine = [c for c in cases if c.get("pack") == pack]
            if mine:
                records += run_pack(pack, mine, meter_box, qtbot)
    finally:
        if meter_box:
            meter_box[0].stop()
    print_table(records)
    print_misses(records)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.out is not None:
        args.out.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
