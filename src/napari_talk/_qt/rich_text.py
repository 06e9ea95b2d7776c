"""A reply's text as the transcript's HTML: prose that wraps, tables and code in blocks of their
own that wrap inside themselves, long lines shortened, the files a reply names as links.

Qt's rich text has no local horizontal scrolling, so a block that is too wide wraps
(``white-space: pre-wrap``) rather than widening the whole transcript.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from pathlib import Path

ECHO_LIMIT = 300
"""Characters of a typed line (or a command's JSON) shown in the transcript; the rest is counted."""

BLOCK_STYLE = "font-family:monospace; font-size:small; white-space:pre-wrap;"
CODE_STYLE = BLOCK_STYLE + " background-color:rgba(128,128,128,0.15);"

FENCE = re.compile(r"^\s*```")


def shortened(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit].rstrip()} … ({len(text):,} characters)"


def blocks(text: str) -> list[tuple[str, list[str]]]:
    """The text's runs of lines: ``("code", ...)`` inside a ``` fence, ``("table", ...)`` for
    indented lines (a pack's columns, help's examples), ``("prose", ...)`` for the rest."""
    out: list[tuple[str, list[str]]] = []
    in_code = False
    for line in text.split("\n"):
        if FENCE.match(line):
            in_code = not in_code
            if in_code:
                out.append(("code", []))
            continue
        if in_code:
            out[-1][1].append(line)
            continue
        kind = "table" if line.startswith("  ") else "prose"
        if out and out[-1][0] == kind:
            out[-1][1].append(line)
        else:
            out.append((kind, [line]))
    return out


def to_html(text: str, files: Iterable[str] = ()) -> str:
    """``text`` as HTML; each of ``files`` (absolute paths) it mentions becomes a link to it."""
    parts = []
    for kind, lines in blocks(text):
        escaped = "\n".join(html.escape(line) for line in lines)
        escaped = _linked(escaped, files)
        if kind == "prose":
            parts.append(escaped.replace("\n", "<br>"))
        else:
            style = CODE_STYLE if kind == "code" else BLOCK_STYLE
            parts.append(f'<pre style="{style}">{escaped}</pre>')
    return "".join(parts)


def _linked(escaped: str, files: Iterable[str]) -> str:
    for path in sorted(set(files), key=len, reverse=True):
        shown = html.escape(path)
        if shown in escaped:
            escaped = escaped.replace(shown, file_link(path))
    return escaped


def file_link(path: str) -> str:
    """An anchor for ``path``; the transcript opens the folder holding it when it is clicked."""
    return f'<a href="{html.escape(Path(path).as_uri())}">{html.escape(path)}</a>'


def files_named(data: object) -> list[str]:
    """The absolute paths a Result's data names (``path``, ``paths``, ``folder``), existing ones only."""
    if not isinstance(data, dict):
        return []
    found: list[str] = []
    for key in ("path", "folder"):
        if isinstance(data.get(key), str):
            found.append(data[key])
    if isinstance(data.get("paths"), list):
        found += [p for p in data["paths"] if isinstance(p, str)]
    return [p for p in found if Path(p).is_absolute() and Path(p).exists()]


def swatch(colour: str) -> str:
    """A small square of ``colour`` (a CSS colour such as ``#a0522d``) for a table's row."""
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
        return ""
    return f'<span style="background-color:{colour}; color:{colour};">&#9608;&#9608;</span>'
