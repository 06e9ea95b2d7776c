"""A recipe over many inputs: the items fan out as Dask tasks, the rows come back into one table.

    run_batch(recipe_text, items, options, scheduler="local")

``scheduler`` is ``"local"`` (a ``LocalCluster`` on this machine's cores, one thread per worker
process: a viewer model is not shared between threads), an address (``tcp://host:8786``, an
existing cluster whose workers have napari-talk installed and see the same workspace folder), or
``"in-process"`` (no Dask: one after another here, the baseline the others are held to). A task
whose worker dies is run again by Dask on another; the table is rewritten as each row arrives, so
a batch stopped half-way is resumed by running it again: rows that succeeded and whose outputs are
all there are kept, not run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from . import table
from .cluster import IN_PROCESS, LOCAL, fan_out
from .item import Item, Options, Row, run_item
from .recipe import Recipe, bind, parse_recipe

if TYPE_CHECKING:
    from ..contract.registry import Registry
    from ..safety.workspace import Workspace

Stop = Callable[[], bool]
"""``stop()``: True once the person asked to stop (rows under way finish; the rest are not run)."""
OnRow = Callable[[Row, int, int], None]
"""``on_row(row, done, total)``: a row has come in (progress)."""
TABLE_NAME = "results.csv"
TABLE_EVERY_SECONDS = 2.0
"""The table is rewritten as rows come in at most this often, and once at the end."""


class BatchRefused(ValueError):
    """The batch cannot start (a recipe that removes or replaces without --yes, no inputs)."""


@dataclass
class Batch:
    rows: list[Row]
    table: str
    """Workspace-relative path of the results table."""
    skipped: int
    """Rows kept from an earlier run, not run again."""

    @property
    def failed(self) -> list[Row]:
        return [row for row in self.rows if row.status != "ok"]


def inputs_matching(workspace: Workspace, pattern: str) -> list[str]:
    """The workspace's files matching ``pattern`` (relative to it; ``**`` reaches into folders), or
    a folder's images, sorted; a pattern that would leave the workspace is refused."""
    from .inputs import IMAGE_SUFFIXES

    pure = PurePosixPath(pattern.strip())
    if pure.is_absolute() or ".." in pure.parts or not pure.parts:
        raise BatchRefused(f"{pattern!r} is not inside the workspace: give a pattern such as 'data/*.tif'")
    root = workspace.root
    folder = not any(c in pattern for c in "*?[") and (root / pure).is_dir()
    found = sorted(root.glob(f"{pure.as_posix()}/*" if folder else pure.as_posix()))
    return [
        path.relative_to(root).as_posix()
        for path in found
        if path.is_file() and (not folder or path.suffix.lower() in IMAGE_SUFFIXES)
    ]


def check_risks(recipe: Recipe, registry: Registry, yes: bool) -> None:
    """Refuse, up front, a recipe that changes or removes the person's data unless ``yes``."""
    if yes:
        return
    from ..grammar.parser import Parser

    parser = Parser(registry)
    names = {"layers": [f"layer{n}" for n in range(1, recipe.layers_needed + 1)]}
    for number, step in enumerate(recipe.steps, 1):
        actions = [step.wire["action"]] if step.wire and "action" in step.wire else []
        if not actions:
            line = bind(step.line, {f"layer{n}": f"layer{n}" for n in range(1, recipe.layers_needed + 1)})
            actions = [command.action for command in parser.parse(line, names)]
        for action in actions:
            command = registry.commands.get(action)
            risk = command.risk if command is not None else "read"
            if risk in ("data", "send"):
                does = "removes or replaces data" if risk == "data" else "sends data"
                raise BatchRefused(
                    f"line {number} ({step.line}) {does}; a batch runs such a line only when --yes says "
                    "so up front (and then only inside the workspace)"
                )


def run_batch(
    recipe_text: str,
    items: Sequence[Item],
    options: Options,
    *,
    scheduler: str = LOCAL,
    workers: int | None = None,
    on_row: OnRow | None = None,
    registry: Registry | None = None,
    stop: Stop | None = None,
    keep_cluster: bool = False,
) -> Batch:
    """``keep_cluster``: a local cluster stays up for the next batch of this process (the dock's),
    its workers warm: their imports and the grammar are paid once, not once a batch."""
    from ..contract.registry import default_registry
    from ..safety.workspace import Workspace

    recipe = parse_recipe(recipe_text)
    if not items:
        raise BatchRefused("no inputs: the pattern matched no file in the workspace")
    check_risks(recipe, registry or default_registry(), options.yes)
    workspace = Workspace(options.workspace)
    where = f"{options.out_folder}/{TABLE_NAME}"
    earlier = table.read(workspace, where)
    rows: dict[str, Row] = {}
    todo = []
    for item in items:
        kept = earlier.get(item.key)
        if table.complete(kept, workspace):
            assert kept is not None
            rows[item.key] = kept
        else:
            todo.append(item)
    skipped = len(rows)
    lines = [step.line for step in recipe.steps]
    order = {item.key: n for n, item in enumerate(items)}

    written = [0.0]

    def write_table() -> None:
        ordered = sorted(rows.values(), key=lambda r: order.get(r.key, len(order)))
        workspace.write_text(where, table.render(ordered, lines))
        written[0] = time.monotonic()

    def arrived(row: Row) -> None:
        rows[row.key] = row
        if time.monotonic() - written[0] > TABLE_EVERY_SECONDS:  # a long batch's table is never stale long
            write_table()
        if on_row is not None:
            on_row(row, len(rows), len(items))

    try:
        if todo:
            if scheduler == IN_PROCESS:
                _in_process(recipe_text, todo, options, arrived, stop or (lambda: False))
            else:
                _on_dask(recipe_text, todo, options, scheduler, workers, arrived, stop or (lambda: False),
                         keep_cluster)  # fmt: skip
    finally:
        write_table()
    return Batch([rows[item.key] for item in items if item.key in rows], where, skipped)


def _in_process(text: str, items: Iterable[Item], options: Options, arrived: Callable[[Row], None],
                stop: Stop) -> None:  # fmt: skip
    for item in items:
        if stop():
            return
        arrived(run_item(text, item, options))


def _on_dask(text: str, items: Sequence[Item], options: Options, scheduler: str, workers: int | None,
             arrived: Callable[[Row], None], stop: Stop, keep_cluster: bool = False) -> None:  # fmt: skip
    def row_of(index: int, value: Any) -> None:
        if isinstance(value, BaseException):  # the task itself died (its workers killed more than once)
            why = f"its task failed on the cluster: {type(value).__name__}: {value}"
            value = Row(items[index].key, error=why[:300])
        arrived(value)

    payloads = [(text, item, options) for item in items]
    fan_out(run_item, payloads, row_of, scheduler=scheduler, workers=workers, stop=stop,
            keep_cluster=keep_cluster, name="recipe")  # fmt: skip
