"""Triangles that OBJ, PLY and OFF polygons fan out to, counted from the bytes before a reader
allocates for them.

A face of ``k`` corners becomes ``k - 2`` triangles, so one declared face may be millions of
triangles (an OBJ line or a PLY list of ten million indices). The counts here are exact for
well-formed files and never lower than what a reader makes of a malformed one; they stop as soon
as they pass ``budget`` (the caller refuses then), and never hold more than a chunk of the file
beside it.
"""

from __future__ import annotations

import re

import numpy as np

CHUNK = 1 << 22
"""Bytes looked at in one numpy pass (so a count's own memory stays a few times this)."""
_SHORT_LINE = 512
_FACE_LINE = re.compile(rb"^[ \t]*f[ \t]([^\n]*)", re.MULTILINE)
_POLYGON_LINES = {
    corners: re.compile(rb"^[ \t]*f(?:[ \t]+[^\s]+){%d}[ \t\r]*$" % corners, re.MULTILINE)
    for corners in (3, 4)
}
"""Face lines of exactly three or four corners, most files' every face: counted in one pass each."""
_PLY_SIZES = {
    "char": 1, "uchar": 1, "int8": 1, "uint8": 1, "short": 2, "ushort": 2, "int16": 2, "uint16": 2,
    "int": 4, "uint": 4, "int32": 4, "uint32": 4, "float": 4, "float32": 4, "double": 8, "float64": 8,
}  # fmt: skip


class CornerError(ValueError):
    """The file's structure cannot be counted (the message says why)."""


def tokens(data: bytes, start: int = 0, end: int | None = None) -> int:
    """Whitespace-separated words in ``data[start:end]``, counted a chunk at a time."""
    end = len(data) if end is None else end
    view = memoryview(data)
    total, after_space = 0, True
    for low in range(start, end, CHUNK):
        chunk = np.frombuffer(view[low : min(low + CHUNK, end)], dtype=np.uint8)
        space = chunk <= 32
        total += int(np.count_nonzero(~space[1:] & space[:-1])) + int(after_space and not space[0])
        after_space = bool(space[-1])
    return total


def obj_triangles(data: bytes, budget: int) -> int:
    """Triangles of an OBJ's face lines (``f a b c d`` is two), stopping once over ``budget``."""
    if b"\\\n" in data:  # readers join a line ending in a backslash with the next
        data = data.replace(b"\\\n", b"")
    triangles = 0
    for corners, lines in _POLYGON_LINES.items():
        data, count = lines.subn(b"", data)
        triangles += count * (corners - 2)
    if triangles > budget:
        return triangles
    for match in _FACE_LINE.finditer(data):  # the other face lines, one by one
        start, end = match.span(1)
        short = end - start < _SHORT_LINE  # a long line is counted where it lies, not copied
        corners = len(match.group(1).split()) if short else tokens(data, start, end)
        triangles += max(corners - 2, 0)
        if triangles > budget:
            break
    return triangles


def ply_triangles(data: bytes, header_end: int, budget: int) -> int:
    """Triangles of a PLY's face element: its lists' corners less two per face."""
    header = data[:header_end].decode("ascii", "replace").splitlines()
    body = data.find(b"\n", header_end) + 1
    fmt = next((line.split()[1] for line in header if line.startswith("format ")), "ascii")
    elements: list[tuple[str, int, list[list[str]]]] = []
    for line in header:
        words = line.split()
        if words[:1] == ["element"] and len(words) >= 3:
            if not words[2].isdigit():
                raise CornerError(f"its PLY header gives no count for the element {words[1]!r}")
            elements.append((words[1], int(words[2]), []))
        elif words[:1] == ["property"] and elements:
            elements[-1][2].append(words[1:])
    names = [name for name, _, _ in elements]
    if "face" not in names:
        return 0
    where = names.index("face")
    _, faces, properties = elements[where]
    lists = [p for p in properties if p[:1] == ["list"]]
    if not lists:
        return 0
    scalars = len(properties) - len(lists)
    if fmt == "ascii":
        start = _after_lines(data, body, sum(count for _, count, _ in elements[:where]))
        end = _after_lines(data, start, faces)
        # per face: each list's length word, its items, the scalars; the first list's items beyond
        # two are triangles, any other list's items only make this an upper bound
        return max(tokens(data, start, end) - faces * (2 + len(lists) + scalars), 0)
    try:
        fixed = sum(_min_record(props) * count for n, count, props in elements if n != "face")
        record = _min_record(properties)
        width = _PLY_SIZES[lists[0][2]]
    except (KeyError, IndexError):
        raise CornerError("its PLY header names a property type this reader does not know") from None
    if width == 0:
        raise CornerError("its PLY header lists faces of zero-byte indices")
    # the face element's list items fill at most what the other elements and the faces' fixed
    # parts leave of the body: exact when the corner list is the face's only list
    items = max(len(data) - body - fixed - faces * record, 0) // width
    return max(items - 2 * faces, 0)


def off_triangles(data: bytes, body: int, vertices: int, faces: int) -> int:
    """Triangles of an OFF's face lines (``k i1 ... ik`` with optional colour words): an upper
    bound, as comment lines among the vertices only move more words into the count."""
    start = _after_lines(data, body, vertices)
    return max(tokens(data, start) - 3 * faces, 0)


def _min_record(properties: list[list[str]]) -> int:
    """Bytes of one binary record with every list empty (its length field only)."""
    return sum(_PLY_SIZES[p[1]] if p[0] == "list" else _PLY_SIZES[p[0]] for p in properties)


def _after_lines(data: bytes, start: int, lines: int) -> int:
    """The offset just after ``lines`` more newlines from ``start`` (the end when there are fewer)."""
    position = start
    while lines > 0:
        chunk_end = min(position + CHUNK, len(data))
        if position >= chunk_end:
            return len(data)
        here = data.count(b"\n", position, chunk_end)
        if here < lines:
            lines -= here
            position = chunk_end
            continue
        chunk = np.frombuffer(memoryview(data)[position:chunk_end], dtype=np.uint8)
        return position + int(np.flatnonzero(chunk == 10)[lines - 1]) + 1
    return position
