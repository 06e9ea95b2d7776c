"""The chat transcript: what the person typed, what it was read as, and the replies."""

from __future__ import annotations

import html
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from qtpy.QtCore import QUrl
from qtpy.QtGui import QDesktopServices, QTextBlockFormat, QTextCharFormat, QTextCursor, QTextOption
from qtpy.QtWidgets import QTextBrowser

from ..core.running.session import Turn
from .rich_text import files_named, shortened, swatch, to_html

STYLE = {
    "road": "color:#8a8a8a; font-size:small;",
    "you": "font-weight:600;",
    "command": "font-family:monospace; color:#8a8a8a; font-size:small;",
    "reply": "",
    "error": "color:#e0675a;",
}

ECHOED = ("you", "command")
"""Entries that repeat what was typed or read: shortened when long, a reply is what matters."""


@dataclass(frozen=True)
class Entry:
    kind: str
    text: str


def _open_folder(url: QUrl) -> None:
    """A file link opens the folder holding the file, where the person can take it further."""
    path = Path(url.toLocalFile())
    QDesktopServices.openUrl(QUrl.fromLocalFile(str(path if path.is_dir() else path.parent)))


class Transcript(QTextBrowser):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.anchorClicked.connect(_open_folder)
        # lines wrap between words ("Solanthe, the Dune Warden" keeps "Warden" whole); a word wider
        # than the dock (a long path, a pasted blob) wraps inside itself rather than widen the page
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.entries: list[Entry] = []

    def add(self, kind: str, text: str, files: Iterable[str] = ()) -> None:
        self.entries.append(Entry(kind, text))
        shown = shortened(text) if kind in ECHOED else text
        prefix = "› " if kind == "you" else ""
        markup = f'<div style="{STYLE[kind]}">{html.escape(prefix)}{to_html(shown, files)}</div>'
        self._append_html(markup, space=10 if kind == "you" else 3)

    def _append_html(self, markup: str, space: int = 3) -> None:
        """Each entry in a block of its own with the default format: a block appended after a
        fixed-width one must not inherit its no-wrap lines (every later reply would run off to the
        right)."""
        document = self.document()
        assert document is not None  # a QTextBrowser always has one
        cursor = QTextCursor(document)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        if not document.isEmpty():
            spaced = QTextBlockFormat()
            spaced.setTopMargin(space)
            cursor.insertBlock(spaced, QTextCharFormat())
        cursor.insertHtml(markup)
        bar = self.verticalScrollBar()
        if bar is not None:
            bar.setValue(bar.maximum())

    def add_turn(self, turn: Turn, *, echo: bool = True) -> None:
        if echo:
            self.add("you", turn.text)
        if turn.road == "llm":
            self.add("road", f"answered by {turn.model or 'the model'}")
        for note in turn.notes:
            self.add("road", note)
        if turn.spoken:
            self.add("reply", turn.spoken)
        if turn.commands:
            wire = [c.to_wire() for c in turn.commands]
            # spaced, so a narrow dock wraps it between its words, never inside a name or a value
            self.add("command", json.dumps(wire[0] if len(wire) == 1 else wire, ensure_ascii=False))
        for result in turn.results:
            self.add("reply" if result.ok else "error", result.message, files_named(result.data))
            chart = result.meta.get("chart")
            if isinstance(chart, dict) and str(chart.get("image", "")).startswith("data:image/png;base64,"):
                self.add_chart(chart["image"], str(chart.get("caption", "")))
            table = result.meta.get("table")
            if isinstance(table, dict) and table.get("rows"):
                self.add_table(table)

    def add_chart(self, image: str, caption: str) -> None:
        """A pack's chart (``meta["chart"]``: a PNG data URL and what it shows), at its own size:
        shown with the reply before it, not an entry of its own."""
        self._append_html(
            f'<img src="{image}"><br><span style="{STYLE["reply"]}">{html.escape(caption)}</span>'
        )

    def add_table(self, table: dict) -> None:
        """Rows a pack put in ``meta["table"]``: ``{"columns", "rows", "thumbnails"?, "swatches"?}``;
        each row gets its thumbnail (a ``data:image/...`` URL) or its colour swatch (``#rrggbb``)
        in a first column, whose heading the columns may name first (one more column than each
        row has). The table spans the dock's width and its cells wrap."""
        rows = table["rows"]
        pictures = table.get("thumbnails") or [None] * len(rows)
        swatches = table.get("swatches") or [None] * len(rows)
        columns = list(table["columns"])
        if rows and len(columns) == len(rows[0]) + 1:
            columns = columns[1:]  # the thumbnails' heading: they have a column of their own
        head = "<th></th>" + "".join(f"<th align='left'>{html.escape(str(c))}</th>" for c in columns)
        body = []
        for row, thumb, colour in zip(rows, pictures, swatches, strict=False):
            if str(thumb).startswith("data:image/"):
                picture = f'<img src="{thumb}" width="32" height="32">'
            else:
                picture = swatch(str(colour)) if colour else ""
            cells = "".join(
                f"<td>{html.escape(f'{v:.2f}' if isinstance(v, float) else str(v))}</td>" for v in row
            )
            body.append(f"<tr><td>{picture}</td>{cells}</tr>")
        self.entries.append(Entry("table", f"{len(rows)} rows"))
        self._append_html(f'<table width="100%" cellspacing="4"><tr>{head}</tr>{"".join(body)}</table>')

    def reset(self) -> None:
        self.entries.clear()
        self.clear()
