"""Every line the README tells people to type, typed into the dock on napari's viewer proxy, the
samples opened from File > Open Sample as the README says: the README is the specification here,
so a line added to it is tested by this file.

After each line the test looks at what the person sees (the layers, their visibility and look,
the camera, the dims, the grid, the panels, the workspace's files) and checks the line's effect:
derived from the command the line is read as where the command says it all ("hide nuclei": that
layer hidden and nothing else changed), from a small table where it does not (a ray query's
highlight, a segmented model). Then "undo" must bring back exactly what was seen before the line,
and "redo" exactly what was seen after it, before the next line builds on it.
"""

from __future__ import annotations

import copy
import hashlib
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from support.door import open_door, said, type_line

README = Path(__file__).resolve().parents[2] / "README.md"
SAMPLES = {
    "Prism demo": "prism_demo",
    "Mesh sample": "mesh",
    "Atlas sample": "atlas",
    "Files sample": "files",
}
HIGHLIGHTS = {"rays: selection"}
"""A query's highlight stays until "clear the ray selection": it is not a change to undo."""


def _backticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _viewer_table() -> str:
    return README.read_text().split("## What to type", 1)[1].split("##", 1)[0]


def viewer_lines() -> list[str]:
    rows = [line for line in _viewer_table().splitlines() if line.startswith("| `")]
    return [typed for row in rows for typed in _backticked(row.split("|")[1])]


STACK_LINES = set(re.findall(r"`([^`]+)` \(on a stack\)", _viewer_table()))
"""Lines the README says need data with more axes than are shown: a stack is opened beside the
cells for them."""


def pack_rows() -> list[tuple[str, list[str], list[str]]]:
    """(pack, samples to open, lines), from the bundled packs' table."""
    text = README.read_text().split("## The bundled packs", 1)[1].split("##", 1)[0]
    rows = []
    for line in text.splitlines():
        cells = line.split("|")
        if len(cells) < 4 or "—" not in cells[1]:
            continue
        pack = cells[1].split("—")[0].strip()
        samples = [key for title, key in SAMPLES.items() if f"*{title}*" in cells[2]]
        rows.append((pack, samples, _backticked(cells[2])))
    return rows


# -- the door ---------------------------------------------------------------------------------------


@pytest.fixture
def door(make_napari_viewer_proxy, workspace):
    return open_door(make_napari_viewer_proxy, workspace)


# -- what the person sees -----------------------------------------------------------------------------

Seen = dict[str, Any]


def _digest(values: Any) -> str | None:
    if values is None:
        return None
    return hashlib.sha1(np.round(np.asarray(values, float), 4).tobytes()).hexdigest()[:12]


def layer_seen(layer) -> dict[str, Any]:
    kind = layer.__class__.__name__  # the proxy hands on the layer's class
    seen: dict[str, Any] = {
        "kind": kind,
        "visible": bool(layer.visible),
        "opacity": round(float(layer.opacity), 4),
        "blending": str(layer.blending),
    }
    if hasattr(layer, "colormap") and kind != "Labels":
        seen["colormap"] = layer.colormap.name
    if hasattr(layer, "contrast_limits") and kind != "Labels":
        seen["contrast"] = tuple(round(float(v), 4) for v in layer.contrast_limits)
    if kind == "Surface":
        vertices, faces = layer.data[0], layer.data[1]
        colors = layer.vertex_colors
        seen |= {
            "vertices": len(vertices),
            "faces": len(faces),
            "geometry": _digest(vertices),
            "colors": _digest(colors),
            "distinct colours": 0 if colors is None else len(np.unique(np.round(colors, 3), axis=0)),
        }
    elif kind in ("Image", "Labels"):
        seen["shape"] = tuple(layer.data.shape)
    else:
        seen["items"] = len(layer.data)
    return seen


def files_seen(root: Path) -> dict[str, str]:
    """The person's files (the packs' own bookkeeping aside: state, catalogue database, tasks)."""
    files = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if path.is_file() and not relative.startswith(".") and "/." not in relative:
            if relative.endswith((".sqlite", ".sqlite-journal", ".sqlite-wal", ".sqlite-shm", "state.json")):
                continue
            files[relative] = hashlib.sha1(path.read_bytes()).hexdigest()[:12]
    return files


def seen(dock, root: Path) -> Seen:
    from qtpy.QtWidgets import QDockWidget

    from napari_talk.core.viewer.access import camera, grid, scale_bar

    viewer = dock.viewer
    cam = camera(viewer)
    shown = [layer for layer in viewer.layers if layer.name not in HIGHLIGHTS]
    selection = viewer.layers.selection
    active = selection.active
    docks = dock.window().findChildren(QDockWidget)
    orientation = getattr(cam, "orientation2d", ())
    return {
        "order": [layer.name for layer in shown],
        "layers": {layer.name: layer_seen(layer) for layer in shown},
        "selected": sorted(layer.name for layer in selection if layer.name not in HIGHLIGHTS),
        "active": active.name if active is not None and active.name not in HIGHLIGHTS else None,
        "zoom": round(float(cam.zoom), 5),
        "center": tuple(round(float(v), 3) for v in cam.center),
        "angles": tuple(round(float(v), 3) for v in cam.angles),
        "orientation": tuple(str(getattr(v, "value", v)) for v in orientation),
        "ndisplay": viewer.dims.ndisplay,
        "step": tuple(int(v) for v in viewer.dims.current_step),
        "grid": bool(grid(viewer).enabled),
        "scale bar": bool(scale_bar(viewer).visible),
        "panels": {d.windowTitle(): not d.isHidden() for d in docks if d.windowTitle()},
        "files": files_seen(root),
    }


def visible(state: Seen) -> set[str]:
    return {name for name, layer in state["layers"].items() if layer["visible"]}


def surfaces(state: Seen) -> list[str]:
    return [name for name, layer in state["layers"].items() if layer["kind"] == "Surface"]


def differences(got: Seen, wanted: Seen) -> list[str]:
    keys = sorted(set(got) | set(wanted))
    out = []
    for key in keys:
        if got.get(key) == wanted.get(key):
            continue
        if key == "layers":
            for name in sorted(set(got[key]) | set(wanted[key])):
                if got[key].get(name) != wanted[key].get(name):
                    out.append(f"layer {name!r}: {got[key].get(name)} != {wanted[key].get(name)}")
        else:
            out.append(f"{key}: {got.get(key)} != {wanted.get(key)}")
    return out


def assert_seen(got: Seen, wanted: Seen, what: str) -> None:
    diff = differences(got, wanted)
    assert not diff, f"{what}:\n  " + "\n  ".join(diff)


# -- each command's visible effect, derived from the command --------------------------------------

Check = Callable[[Any, Seen, Seen, Any, Any], Seen]
"""``check(command, before, after, dock, reply)`` asserts what it can about ``after`` and returns
what the whole of it should be: ``before`` with the command's effect applied."""


def _set(state: Seen, name: str, **changes: Any) -> Seen:
    state["layers"][name] = {**state["layers"][name], **changes}
    return state


def _visibility(c, before, after, dock, reply) -> Seen:
    was = before["layers"][c.name]["visible"]
    return _set(copy.deepcopy(before), c.name, visible={"hide": False, "show": True}.get(c.op, not was))


def _solo(c, before, after, dock, reply) -> Seen:
    assert visible(after) == {c.name}, f"only {c.name} is seen, not {sorted(visible(after))}"
    wanted = copy.deepcopy(before)
    for name in wanted["layers"]:
        _set(wanted, name, visible=name == c.name)
    return wanted


def _all_visibility(c, before, after, dock, reply) -> Seen:
    wanted = copy.deepcopy(before)
    for name in wanted["layers"]:
        _set(wanted, name, visible=c.op == "show")
    return wanted


def _camera(after: Seen, before: Seen) -> Seen:
    """``before`` with ``after``'s camera: for commands whose camera the check has looked at."""
    assert (after["zoom"], after["center"]) != (before["zoom"], before["center"]), "the camera moved"
    return {**copy.deepcopy(before), **{k: after[k] for k in ("zoom", "center", "angles")}}


def _middle(after: Seen) -> tuple[float, float]:
    return after["center"][-2], after["center"][-1]


def _set_zoom(c, before, after, dock, reply) -> Seen:
    assert after["zoom"] == pytest.approx(c.zoom, rel=1e-3)
    return _camera(after, before)


def _zoom_by(c, before, after, dock, reply) -> Seen:
    assert after["zoom"] == pytest.approx(before["zoom"] * c.factor, rel=1e-3)
    return _camera(after, before)


def _zoom_box(c, before, after, dock, reply) -> Seen:
    x1, y1, x2, y2 = c.box  # x is napari's column, y its row
    assert _middle(after) == pytest.approx(((y1 + y2) / 2, (x1 + x2) / 2), abs=1.0)
    return _camera(after, before)


def _center_on(c, before, after, dock, reply) -> Seen:
    x, y = c.point
    assert _middle(after) == pytest.approx((y, x), abs=1e-3)
    return _camera(after, before)


def _fit(c, before, after, dock, reply) -> Seen:
    extent = np.asarray(dock.viewer.layers[c.name].extent.world, float)[:, -2:]
    assert _middle(after) == pytest.approx(tuple(extent.mean(axis=0)), abs=1.0), "the layer's middle"
    return _camera(after, before)


def _reset(c, before, after, dock, reply) -> Seen:
    dock.viewer.reset_view()  # napari's own reset: the dock's did the same if nothing moves now
    assert_seen(seen(dock, Path(dock.session.workspace)), after, "napari's reset_view moves nothing more")
    return {**copy.deepcopy(before), **{k: after[k] for k in ("zoom", "center", "angles")}}


def _opacity(c, before, after, dock, reply) -> Seen:
    return _set(copy.deepcopy(before), c.name, opacity=round(c.opacity, 4))


def _colormap(c, before, after, dock, reply) -> Seen:
    return _set(copy.deepcopy(before), c.name, colormap=c.colormap)


def _contrast(c, before, after, dock, reply) -> Seen:
    return _set(copy.deepcopy(before), c.name, contrast=tuple(round(float(v), 4) for v in c.limits))


def _auto_contrast(c, before, after, dock, reply) -> Seen:
    data = np.asarray(dock.viewer.layers[c.name].data)
    low, high = after["layers"][c.name]["contrast"]
    assert (low, high) == (data.min(), data.max()), "the contrast spans the layer's data"
    return _set(copy.deepcopy(before), c.name, contrast=(low, high))


def _select(c, before, after, dock, reply) -> Seen:
    return {**copy.deepcopy(before), "selected": [c.name], "active": c.name}


def _rename(c, before, after, dock, reply) -> Seen:
    wanted = copy.deepcopy(before)
    wanted["layers"][c.new_name] = wanted["layers"].pop(c.name)
    wanted["order"] = [c.new_name if n == c.name else n for n in wanted["order"]]
    wanted["selected"] = sorted(c.new_name if n == c.name else n for n in wanted["selected"])
    wanted["active"] = c.new_name if wanted["active"] == c.name else wanted["active"]
    return wanted


def _remove(c, before, after, dock, reply) -> Seen:
    wanted = copy.deepcopy(before)
    del wanted["layers"][c.name]
    wanted["order"].remove(c.name)
    wanted["selected"] = after["selected"]  # napari chooses what is selected next
    wanted["active"] = after["active"]
    assert c.name not in after["selected"]
    return wanted


def _panel(c, before, after, dock, reply) -> Seen:
    titles = [t for t in before["panels"] if t.casefold() == c.name.casefold()]
    assert titles, f"a panel {c.name!r} in {sorted(before['panels'])}"
    return {**copy.deepcopy(before), "panels": {**before["panels"], titles[0]: c.op == "open"}}


def _grid(c, before, after, dock, reply) -> Seen:
    return {**copy.deepcopy(before), "grid": c.op == "on"}


def _scale_bar(c, before, after, dock, reply) -> Seen:
    return {**copy.deepcopy(before), "scale bar": c.op == "show"}


def _ndisplay(c, before, after, dock, reply) -> Seen:
    wanted = {**copy.deepcopy(before), "ndisplay": c.ndisplay}
    return {**wanted, **{k: after[k] for k in ("zoom", "center", "angles")}}  # napari's 3-D camera


def _slice(c, before, after, dock, reply) -> Seen:
    moved = [axis for axis, (a, b) in enumerate(zip(before["step"], after["step"], strict=True)) if a != b]
    assert len(moved) == 1 and after["step"][moved[0]] == c.index, (before["step"], after["step"])
    return {**copy.deepcopy(before), "step": after["step"]}


def _screenshot(c, before, after, dock, reply) -> Seen:
    from imageio.v3 import imread

    picture = imread(Path(dock.session.workspace) / c.path)
    assert picture.ndim == 3 and picture.shape[0] > 100 and picture.std() > 0, "a picture of the canvas"
    new = set(after["files"]) - set(before["files"])
    assert new == {c.path}
    return {**copy.deepcopy(before), "files": after["files"]}


def _list_layers(c, before, after, dock, reply) -> Seen:
    assert all(name in reply.text for name in before["order"]), reply.text
    return before


def _help(c, before, after, dock, reply) -> Seen:
    assert len(reply.text.splitlines()) <= 20, "help is short"
    assert (c.topic or "undo") in reply.text, reply.text
    return before


EFFECTS: dict[str, Check] = {
    "layer_visibility": _visibility,
    "solo_layer": _solo,
    "all_layers_visibility": _all_visibility,
    "set_zoom": _set_zoom,
    "zoom_by": _zoom_by,
    "zoom_box": _zoom_box,
    "center_on": _center_on,
    "fit_to_layer": _fit,
    "reset_view": _reset,
    "layer_opacity": _opacity,
    "layer_colormap": _colormap,
    "layer_contrast": _contrast,
    "auto_contrast": _auto_contrast,
    "select_layer": _select,
    "rename_layer": _rename,
    "remove_layer": _remove,
    "panel_toggle": _panel,
    "grid_mode": _grid,
    "scale_bar": _scale_bar,
    "set_ndisplay": _ndisplay,
    "set_slice": _slice,
    "screenshot": _screenshot,
    "list_layers": _list_layers,
    "help": _help,
}


# -- the pack lines' effects, where the command alone does not say enough ------------------------------


def _fresnel_rs(n1: float, n2: float, degrees: float) -> float:
    i = math.radians(degrees)
    t = math.asin(n1 * math.sin(i) / n2)
    r = (n1 * math.cos(i) - n2 * math.cos(t)) / (n1 * math.cos(i) + n2 * math.cos(t))
    return r * r


def _reply_says(*words: str) -> Check:
    def check(c, before, after, dock, reply) -> Seen:
        for word in words:
            assert word in reply.text, f"{word!r} in {reply.text!r}"
        return before

    return check


def _highlighted(c, before, after, dock, reply) -> Seen:
    counted = re.search(r"(\d+) of (\d+) ray segments", reply.text)
    assert counted, reply.text
    highlight = dock.viewer.layers["rays: selection"]
    assert highlight.visible and len(highlight.data) == int(counted[1]) > 0, "the rays found are lit"
    return before


def _one_model(after: Seen) -> dict[str, Any]:
    assert surfaces(after) == ["model"], f"one model, not {surfaces(after)}"
    assert after["ndisplay"] == 3
    return after["layers"]["model"]


def _segmented(c, before, after, dock, reply) -> Seen:
    model = _one_model(after)
    assert model["distinct colours"] >= 3, "each segment has its colour"
    assert model["distinct colours"] > before["layers"]["model"]["distinct colours"]
    return {**copy.deepcopy(after), "files": before["files"]}


def _material(c, before, after, dock, reply) -> Seen:
    model = _one_model(after)
    assert model["colors"] != before["layers"]["model"]["colors"], "segment 2 took the material's colour"
    assert "rust" in reply.text, reply.text
    return _set(copy.deepcopy(before), "model", colors=model["colors"],
                **{"distinct colours": model["distinct colours"]})  # fmt: skip


def _exported(c, before, after, dock, reply) -> Seen:
    new = set(after["files"]) - set(before["files"])
    assert any(path.endswith(".glb") for path in new), sorted(new)
    return {**copy.deepcopy(before), "files": after["files"]}


def _torus(c, before, after, dock, reply) -> Seen:
    from napari_talk.packs.mesh.primitives import build

    model = _one_model(after)
    assert model["faces"] == build("Torus").n_faces, "the torus replaced the body"
    return {**copy.deepcopy(after), "files": before["files"]}


def _table(rows: int) -> Check:
    def check(c, before, after, dock, reply) -> Seen:
        assert reply.kind == "table" and reply.text == f"{rows} rows", reply
        return before

    return check


def _rays_taken_up(c, before, after, dock, reply) -> Seen:
    assert after["orientation"] == ("up", "right"), "the rays drawn +y up, edge N on top"
    assert "N" in reply.text
    return {**copy.deepcopy(before), "orientation": after["orientation"]}


def _model_taken_up(c, before, after, dock, reply) -> Seen:
    assert surfaces(before) == ["model"]
    assert after["layers"] == before["layers"], "the sample's layer is the model, unchanged"
    assert after["ndisplay"] == 3, "framed in 3-D"
    return {**copy.deepcopy(before), **{k: after[k] for k in ("ndisplay", "zoom", "center", "angles")}}


def _catalogue_taken_up(c, before, after, dock, reply) -> Seen:
    new = set(after["files"]) - set(before["files"])
    assert len(new) >= 50 and all(path.startswith("atlas/images/") for path in new), sorted(new)[:5]
    said = dock.transcript.entries[-2].text  # the reply, then its table
    assert reply.kind == "table" and "56" in said, (said, reply)
    return {**copy.deepcopy(before), "files": after["files"]}


TAKE_UP: dict[str, tuple[str, Check]] = {
    "rays": ("describe the edges of Prism", _rays_taken_up),
    "mesh": ("describe the model", _model_taken_up),
    "atlas": ("list entities", _catalogue_taken_up),
}
"""A pack takes up the sample the person opened on its first line (the rays drawn +y up, the model
framed in 3-D, the catalogue filled), which no undo takes back: a line that only reads does it
first, checked to do no more, so each README line's undo is measured from there."""


def _sample_lines_with(text: str) -> int:
    from napari_talk.packs import atlas

    catalogue = Path(atlas.__file__).parent / "sample_entities.jsonl"
    return sum(text in line for line in catalogue.read_text().splitlines())


PACK_EFFECTS: dict[str, Check] = {
    "list files in sample": _reply_says("notes", "chapters"),
    "read sample/notes/plan.md": _reply_says("image the GFP series"),
    "search 'castle' in sample/chapters": _reply_says("ch01.md"),
    "in sample/notes/a.md replace 'teh' with 'the'": lambda c, before, after, dock, reply: {
        **copy.deepcopy(before),
        "files": {
            **before["files"],
            "sample/notes/a.md": hashlib.sha1(b"the cells divide\n").hexdigest()[:12],
        },
    },
    "rays inside Prism": _highlighted,
    "which rays cross edge N of Prism": _highlighted,
    "critical angle from glass 1.5 to air": _reply_says("41.8103°", "total internal reflection"),
    "fresnel from 1 to 1.5 at 45 degrees": _reply_says(f"R_s = {_fresnel_rs(1, 1.5, 45):.6f}", "Brewster"),
    "segment it": _segmented,
    "apply dark rusty metal to segment 2": _material,
    "export the model": _exported,
    "spawn a torus": _torus,
    "find similar to a golden desert guardian": _table(5),
    "analyze the GFP layer": _reply_says("GFP"),
    "sref 3050518": _table(_sample_lines_with("3050518")),
}


# -- typing the README --------------------------------------------------------------------------------


class Tour:
    """Types lines as the README has them, in order (later lines build on earlier ones). After each
    line that changed something: "undo" shows what was seen before it, "redo" what was seen after."""

    def __init__(self, qtbot, dock, root: Path, effects: dict[str, Check]) -> None:
        self.qtbot, self.dock, self.root, self.effects = qtbot, dock, root, effects
        self.done: list[tuple[str, Seen, Seen]] = []
        self.undone: list[tuple[str, Seen, Seen]] = []
        self.kept: set[str] = set()
        """Files written by lines with nothing to undo (an export): they stay."""
        self.start = self.look()

    def look(self) -> Seen:
        return seen(self.dock, self.root)

    def type(self, line: str) -> None:
        session = self.dock.session
        commands = session.parser.parse(line, session.known_names())
        assert commands, f"{line!r} is understood by the parser"
        actions = [c.action for c in commands]
        before, entry = self.look(), session.history.next_undo()
        reply = type_line(self.qtbot, self.dock, line)
        assert reply.kind in ("reply", "table"), f"{line!r}: {reply.text}"
        after = self.look()
        if actions == ["undo_last_action"]:
            line_done, was, then = self.done.pop()
            assert reply.text.startswith("undid"), reply.text
            assert_seen(after, was, f"{line!r} takes back {line_done!r}")
            self.undone.append((line_done, was, then))
            return
        if actions == ["redo_last_action"]:
            line_undone, was, wanted = self.undone.pop()
            assert said(self.dock).text.startswith("redid"), said(self.dock).text
            assert_seen(after, wanted, f"{line!r} does {line_undone!r} again")
            self.done.append((line_undone, was, after))
            return
        self.undone.clear()
        check = self.effects.get(line) or EFFECTS.get(actions[0])
        assert check is not None and len(commands) == 1, f"no expectation written for {line!r} ({actions})"
        wanted = check(commands[0], before, after, self.dock, reply)
        assert_seen(after, wanted, f"what {line!r} shows")
        if session.history.next_undo() is entry:
            assert type(commands[0]).risk == "read" or line in self.effects, f"{line!r} left no undo"
            self.kept |= set(after["files"]) - set(before["files"])
            return
        undone = type_line(self.qtbot, self.dock, "undo")
        assert undone.kind == "reply" and undone.text.startswith("undid"), undone.text
        assert_seen(self.look(), before, f"undo after {line!r}")
        type_line(self.qtbot, self.dock, "redo")
        redone = said(self.dock)
        assert redone.kind == "reply" and redone.text.startswith("redid"), redone.text
        again = self.look()
        assert_seen(again, after, f"redo of {line!r}")
        self.done.append((line, before, again))

    def undo_all(self) -> None:
        while self.dock.session.history.can_undo:
            undone = type_line(self.qtbot, self.dock, "undo")
            assert undone.kind == "reply" and undone.text.startswith("undid"), undone.text
        now = self.look()
        kept = {path: now["files"].get(path) for path in self.kept}
        assert_seen(now, {**self.start, "files": {**self.start["files"], **kept}}, "every change undone")


def test_the_readme_names_lines_for_the_viewer_and_every_pack():
    assert len(viewer_lines()) >= 25
    assert {pack for pack, _, _ in pack_rows()} == {"files", "rays", "mesh", "atlas"}
    assert all(samples for _, samples, _ in pack_rows()), "every pack's lines are tried on its sample"
    lines = [line for _, _, lines in pack_rows() for line in lines]
    assert set(lines) <= set(PACK_EFFECTS), "an expectation for every pack line of the README"


def test_every_viewer_line_of_the_readme_through_the_door(qtbot, door, workspace):
    door.viewer.open_sample("napari-talk", "cells")
    if STACK_LINES:
        door.viewer.add_image(np.zeros((40, 30, 16, 16), np.uint8), name="stack")  # t, z, y, x
    tour = Tour(qtbot, door, workspace, {})
    for line in viewer_lines():
        tour.type(line)
    tour.undo_all()


@pytest.mark.parametrize(("pack", "samples", "lines"), pack_rows(), ids=[row[0] for row in pack_rows()])
def test_every_pack_line_of_the_readme_through_the_door(qtbot, door, workspace, pack, samples, lines):
    """On a fresh workspace: what a line reads, the pack's sample made (the files sample's folder)."""
    assert not (workspace / "sample").exists()
    door.viewer.open_sample("napari-talk", "cells")
    for sample in samples:
        door.viewer.open_sample("napari-talk", sample)
    effects = dict(PACK_EFFECTS)
    if pack in TAKE_UP:
        first, taken_up = TAKE_UP[pack]
        effects[first] = taken_up
    tour = Tour(qtbot, door, workspace, effects)
    if pack in TAKE_UP:
        tour.type(first)
        tour.start = tour.look()
    for line in lines:
        tour.type(line)
    tour.undo_all()
    if pack == "files":
        assert (workspace / "sample" / "notes" / "a.md").read_text() == "teh cells divide\n"
