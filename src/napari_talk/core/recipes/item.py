"""One input of a batch: opened in its own viewer model, the recipe run on it, its row made.

:func:`run_item` is what a Dask worker runs: it takes plain data (the recipe's text, the item, the
options) and returns a plain :class:`Row`, never raising for anything an input or a line does, so a
bad input is a failed row and never the end of the batch. It builds a :class:`Session` on the
workspace as every door does: the gate, the limits and the consent rules are the same on a worker.
"""

from __future__ import annotations

import copy
import json
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from .inputs import MAX_INPUT_BYTES, MAX_PIXEL_BYTES, read_image
from .recipe import PLACEHOLDER, parse_recipe, values_for

if TYPE_CHECKING:
    from ..running.session import Session
    from ..safety.risk import Approval


QUOTED = 80
"""How much of a failed line a row's error quotes (a recipe's JSON line may be megabytes)."""


@dataclass(frozen=True)
class Item:
    """One row of a batch: an input file (workspace-relative) or a sample, and a sweep's values."""

    input: str = ""
    sample: str = ""
    values: tuple[tuple[str, str], ...] = ()

    @property
    def stem(self) -> str:
        return PurePosixPath(self.input).stem if self.input else self.sample

    @property
    def label(self) -> str:
        """A file-name-safe name for the row's own outputs: the stem, then each sweep value."""
        swept = "".join(f"-{name}={value}" for name, value in self.values)
        return re.sub(r"[^\w.=-]", "_", (self.stem + swept).lstrip("-")) or "row"

    @property
    def key(self) -> str:
        swept = " ".join(f"{name}={value}" for name, value in self.values)
        source = self.input or (f"sample:{self.sample}" if self.sample else "")
        return " ".join(part for part in (source, swept) if part)


@dataclass(frozen=True)
class Options:
    workspace: str
    out_folder: str
    """Workspace-relative folder of the batch's own outputs (each row's replies, the table)."""
    yes: bool = False
    max_input_bytes: int = MAX_INPUT_BYTES
    max_pixel_bytes: int = MAX_PIXEL_BYTES
    layers: tuple[tuple[Any, dict[str, Any], str], ...] = ()
    """Layers every row starts from, as napari's layer data tuples (a sweep typed in the dock starts
    each value from the viewer's layers as they were)."""


@dataclass
class Row:
    key: str
    status: str = "failed"
    error: str = ""
    replies: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def run_item(recipe_text: str, item: Item, options: Options) -> Row:
    """Run the recipe on one item; every failure is the row's one sentence."""
    started = time.perf_counter()
    row = Row(item.key)
    try:
        _run(recipe_text, item, options, row)
    except Exception as exc:  # the row says it; the batch goes on
        row.status, row.error = "failed", _sentence(exc)
    row.seconds = round(time.perf_counter() - started, 3)
    return row


def _run(recipe_text: str, item: Item, options: Options, row: Row) -> None:
    from ..running.session import Session

    recipe = parse_recipe(recipe_text)
    viewer = _viewer(item)
    session = Session(viewer, workspace=options.workspace)
    for data, kwargs, kind in options.layers:  # each row its own copy: a line may change data in place
        layer = getattr(viewer, f"add_{kind}")(copy.deepcopy(data), **copy.deepcopy(kwargs))
        session.layer_added(layer)  # as the dock does: a ray scene's layers are its scene again
    if item.input:
        image = read_image(
            session.workspace, item.input,
            max_bytes=options.max_input_bytes, max_pixel_bytes=options.max_pixel_bytes,
        )  # fmt: skip
        viewer.add_image(image, name=item.stem)
    names = [layer.name for layer in viewer.layers]
    if recipe.layers_needed > len(names):
        raise ValueError(
            f"the recipe works on {recipe.layers_needed} layers of its input, and this one has {len(names)}"
        )
    values = values_for(names, item.stem, dict(item.values))
    ask = _approve_all if options.yes else None
    record: list[dict[str, Any]] = []
    outputs: list[str] = []
    for number, step in enumerate(recipe.steps, 1):
        line = _bind(step.line, values)
        ok, reply, data = _run_line(session, line, ask)
        row.replies.append(reply)
        record.append({"line": line, "ok": ok, "reply": reply, "data": data})
        if not ok:
            quoted = line if len(line) <= QUOTED else line[: QUOTED - 1] + "…"
            row.error = f"line {number} ({quoted}) failed: {reply.splitlines()[0] if reply else 'no reply'}"
            break
        if step.wire is not None:
            outputs += _written(session, step.wire, values)
    results = f"{options.out_folder}/{item.label}.json"
    session.workspace.write_text(results, json.dumps(record, indent=1, default=str, sort_keys=True) + "\n")
    row.outputs = [results, *dict.fromkeys(outputs)]
    row.status = "failed" if row.error else "ok"


def _viewer(item: Item) -> Any:
    viewer = batch_viewer_class()(title="napari-talk batch")
    if item.sample:
        import npe2

        from ...headless import open_sample

        npe2.PluginManager.instance().discover(include_npe1=False)
        open_sample(viewer, item.sample)
    return viewer


_viewer_class: list[type] = []


def batch_viewer_class() -> type:
    """napari's ``ViewerModel`` that takes screenshots off screen (:mod:`.offscreen`): a batch's
    viewer has no window, on a worker with no display."""
    if not _viewer_class:
        from napari.components import ViewerModel

        class BatchViewer(ViewerModel):
            def screenshot(self, path: str | None = None, *, size: Any = None, **_: Any) -> Any:
                from .offscreen import render

                image = render(self, tuple(size) if size else None)
                if path:
                    from imageio.v3 import imwrite

                    imwrite(path, image)
                return image

        _viewer_class.append(BatchViewer)
    return _viewer_class[0]


def _bind(line: str, values: dict[str, str]) -> str:
    missing = sorted(set(PLACEHOLDER.findall(line)) - set(values))
    if missing:
        raise ValueError(f"the line {line!r} names {{{missing[0]}}}, which this batch does not give a value")
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], line)


def _run_line(session: Session, line: str, ask: Any) -> tuple[bool, str, Any]:
    if line.startswith("{"):
        try:
            wire = json.loads(line)
        except ValueError as exc:
            return False, f"not a command in JSON: {exc}", None
        except RecursionError:
            return False, "not a command in JSON: it nests too deep to read", None
        result = session.execute(wire, ask=ask)
        return result.ok, result.message, result.data
    turn = session.run(line, ask=ask)
    return turn.ok, turn.message, [result.data for result in turn.results]


def _written(session: Session, wire: dict[str, Any], values: dict[str, str]) -> list[str]:
    """Files the step names with an input's placeholder in them ("figures/{stem}.png") that exist now."""
    found = []
    for value in wire.values():
        if isinstance(value, str) and PLACEHOLDER.search(value):
            path = PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), value)
            try:
                if session.workspace.exists(path):
                    found.append(path)
            except Exception:  # not a path after all
                continue
    return found


def _approve_all(approval: Approval) -> bool:
    """``--yes``: what a line replaces or removes is agreed to, inside the workspace (the gate holds)."""
    return True


def _sentence(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:300]
