"""The chat transcript: what the person typed, what it was read as, and the replies."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

from qtpy.QtGui import QTextOption
from qtpy.QtWidgets import QTextBrowser

from ..core.session import Turn

STYLE = {
    "road": "color:#8a8a8a; font-size:small;",
    "you": "font-weight:600;",
    "command": "font-family:monospace; color:#8a8a8a; font-size:small;",
    "reply": "",
    "error": "color:#e0675a;",
}


TABLE_STYLE = "font-family:monospace; font-size:small; white-space:pre;"


def _body(text: str) -> str:
    """Text as HTML: indented lines (the columns of a ray list, an edge table) in a fixed-width
    block that keeps them aligned and whole; other lines as prose that wraps."""
    blocks: list[tuple[bool, list[str]]] = []
    for line in text.split("\n"):
        fixed = line.startswith("  ")
        if blocks and blocks[-1][0] == fixed:
            blocks[-1][1].append(line)
        else:
            blocks.append((fixed, [line]))
    parts = []
    for fixed, lines in blocks:
        escaped = [html.escape(line) for line in lines]
        if fixed:
            parts.append(f'<pre style="{TABLE_STYLE}">' + "\n".join(escaped) + "</pre>")
        else:
            parts.append("<br>".join(escaped))
    return "".join(parts)


@dataclass(frozen=True)
class Entry:
    kind: str
    text: str


class Transcript(QTextBrowser):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        # lines and a table's cells wrap between words, never inside one ("Solanthe, the Dune
        # Warden" keeps "Warden" whole), so a table fits a narrow dock instead of scrolling sideways
        self.setWordWrapMode(QTextOption.WrapMode.WordWrap)
        self.entries: list[Entry] = []

    def add(self, kind: str, text: str) -> None:
        self.entries.append(Entry(kind, text))
        prefix = "› " if kind == "you" else ""
        self.append(f'<div style="{STYLE[kind]}">{prefix}{_body(text)}</div>')
        bar = self.verticalScrollBar()
        if bar is not None:
            bar.setValue(bar.maximum())

    def add_turn(self, turn: Turn, *, echo: bool = True) -> None:
        if echo:
            self.add("you", turn.text)
        if turn.road == "llm":
            self.add("road", f"answered by {turn.model or 'the model'}")
        if turn.spoken:
            self.add("reply", turn.spoken)
        if turn.commands:
            wire = [c.to_wire() for c in turn.commands]
            # spaced, so a narrow dock wraps it between its words, never inside a name or a value
            self.add("command", json.dumps(wire[0] if len(wire) == 1 else wire, ensure_ascii=False))
        for result in turn.results:
            self.add("reply" if result.ok else "error", result.message)
            table = result.meta.get("table")
            if isinstance(table, dict) and table.get("rows"):
                self.add_table(table)

    def add_table(self, table: dict) -> None:
        """Rows a pack put in ``meta["table"]``: ``{"columns", "rows", "thumbnails"?}``; each row
        gets its thumbnail (a ``data:image/...`` URL) in a first column, whose heading the columns
        may name first (one more column than each row has)."""
        rows = table["rows"]
        thumbs = table.get("thumbnails") or [None] * len(rows)
        columns = list(table["columns"])
        if rows and len(columns) == len(rows[0]) + 1:
            columns = columns[1:]  # the thumbnails' heading: they have a column of their own
        head = "<th></th>" + "".join(f"<th align='left'>{html.escape(str(c))}</th>" for c in columns)
        body = []
        for row, thumb in zip(rows, thumbs, strict=False):
            picture = (
                f'<img src="{thumb}" width="32" height="32">' if str(thumb).startswith("data:image/") else ""
            )
            cells = "".join(
                f"<td>{html.escape(f'{v:.2f}' if isinstance(v, float) else str(v))}</td>" for v in row
            )
            body.append(f"<tr><td>{picture}</td>{cells}</tr>")
        self.entries.append(Entry("table", f"{len(rows)} rows"))
        self.append(f'<table cellspacing="4"><tr>{head}</tr>{"".join(body)}</table>')

    def reset(self) -> None:
        self.entries.clear()
        self.clear()
