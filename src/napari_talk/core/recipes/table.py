"""The results table of a batch: one CSV row per input, and which rows a rerun may skip."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .item import Row

if TYPE_CHECKING:
    from ..safety.workspace import Workspace

FIXED = ("input", "status", "error", "seconds", "outputs")
MAX_TABLE_BYTES = 64 << 20


def render(rows: Sequence[Row], lines: Sequence[str]) -> str:
    """The CSV: the fixed columns, then the reply to each of the recipe's lines."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*FIXED, *(f"reply {n}: {line}" for n, line in enumerate(lines, 1))])
    for row in rows:
        replies = [*row.replies, *[""] * (len(lines) - len(row.replies))]
        writer.writerow(
            [row.key, row.status, row.error, f"{row.seconds:.3f}", ";".join(row.outputs), *replies]
        )
    return out.getvalue()


def read(workspace: Workspace, relative: str) -> dict[str, Row]:
    """The rows of an earlier run of the table, by input (none when there is no table)."""
    if not workspace.exists(relative):
        return {}
    text = workspace.read_text(relative, limit=MAX_TABLE_BYTES, what="results tables")
    if csv.field_size_limit() < MAX_TABLE_BYTES:  # a reply or a recipe's line may pass csv's 128 KiB
        csv.field_size_limit(MAX_TABLE_BYTES)
    try:
        records = list(csv.reader(io.StringIO(text)))
    except csv.Error:  # not a table this batch wrote: every row runs again, and the table is rewritten
        return {}
    rows: dict[str, Row] = {}
    for record in records:
        if not record or record[0] == FIXED[0] or len(record) < len(FIXED):
            continue
        key, status, error, seconds, outputs, *replies = record
        try:
            took = float(seconds)
        except ValueError:
            took = 0.0
        rows[key] = Row(key, status, error, list(replies), [p for p in outputs.split(";") if p], took)
    return rows


def complete(row: Row | None, workspace: Workspace) -> bool:
    """Whether a row of an earlier run stands: it succeeded and every output it wrote is there."""
    if row is None or row.status != "ok" or not row.outputs:
        return False
    return all(workspace.exists(path) for path in row.outputs)
