"""One regex for many templates that share most of their text, without writing the shared text out
once per template.

A rule whose templates are variants of a few sentences (each sentence once per way of naming an
edge, say) repeats every sentence's long slots (numbers, ranges) in each variant: compiled as one
alternation, that is hundreds of thousands of characters, a second of ``re.compile`` and a parse
tree big enough to set off full garbage collections, which hold the GIL. :func:`union` writes the
same language as a trie over the templates' top-level items, so each shared item appears once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_QUANTIFIER = re.compile(r"(?:[?*+]|\{\d+(?:,\d*)?\}|\{,\d+\})[?+]?")
_ESCAPE_LENGTH = {"x": 4, "u": 6, "U": 10}
_PLACED = re.compile(r"\(\?(?:P=|\(|[aiLmsux-]+[:)])")
"""Groups whose meaning depends on where they stand (back references, conditionals, flags)."""


def items(source: str) -> tuple[str, ...] | None:
    """The top-level items of a regex, each with its quantifier; None when the regex cannot be cut
    into items whose concatenation means the same (a top-level ``|``, a back reference, flags)."""
    if _placed(source):
        return None
    found: list[str] = []
    i = 0
    while i < len(source):
        char = source[i]
        if char == "|":
            return None
        if char == "\\":
            end = _escape_end(source, i)
        elif char == "[":
            end = _class_end(source, i)
        elif char == "(":
            end = _group_end(source, i)
        else:
            end = i + 1
        if end is None:
            return None
        quantifier = _QUANTIFIER.match(source, end)
        if quantifier is not None:
            end = quantifier.end()
        found.append(source[i:end])
        i = end
    return tuple(found)


def _placed(source: str) -> bool:
    i = 0
    while i < len(source):
        char = source[i]
        if char == "\\":
            if _escape_end(source, i) is None:
                return True
            i += 2
        elif char == "[":
            end = _class_end(source, i)
            if end is None:
                return True
            i = end
        elif char == "(" and _PLACED.match(source, i):
            return True
        else:
            i += 1
    return False


def _escape_end(source: str, start: int) -> int | None:
    kind = source[start + 1 : start + 2]
    if not kind or kind.isdigit() or kind == "N":
        return None  # a back reference or octal, a named character: never in a template
    return start + _ESCAPE_LENGTH.get(kind, 2)


def _class_end(source: str, start: int) -> int | None:
    i = start + 1
    if source[i : i + 1] == "^":
        i += 1
    if source[i : i + 1] == "]":
        i += 1  # a "]" first in a class is a literal
    while i < len(source):
        if source[i] == "\\":
            i += 2
        elif source[i] == "]":
            return i + 1
        else:
            i += 1
    return None


def _group_end(source: str, start: int) -> int | None:
    depth, i = 0, start
    while i < len(source):
        char = source[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            end = _class_end(source, i)
            if end is None:
                return None
            i = end
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def union(sequences: Sequence[tuple[str, ...]]) -> str:
    """A regex matching exactly the strings one of ``sequences`` (items, as :func:`items` gives)
    matches: shared leading and trailing items written once, the rest branched on their first
    item. It says only whether a text fits, not which sequence fits it first."""
    unique = list(dict.fromkeys(sequences))
    if len(unique) == 1:
        return "".join(unique[0])
    head = _shared(unique)
    rests = [s[head:] for s in unique]
    tail = _shared([r[::-1] for r in rests], min(len(r) for r in rests))
    middles = [r[: len(r) - tail] for r in rests]
    branches: dict[str, list[tuple[str, ...]]] = {}
    for middle in middles:
        if middle:
            branches.setdefault(middle[0], []).append(middle)
    body = "(?:" + "|".join(union(group) for group in branches.values()) + ")"
    if not all(middles):
        body += "?"
    return "".join(unique[0][:head]) + body + "".join(rests[0][len(rests[0]) - tail :])


def _shared(sequences: Sequence[tuple[str, ...]], limit: int | None = None) -> int:
    """How many leading items all ``sequences`` have in common (at most ``limit``)."""
    count = 0
    for column in zip(*sequences, strict=False):
        if (limit is not None and count >= limit) or any(item != column[0] for item in column):
            break
        count += 1
    return count


def runs(sequences: Sequence[tuple[str, ...] | None], most: int) -> list[tuple[int, int]]:
    """Consecutive templates to write as one (``(start, end)`` ranges covering all): a template
    joins the run before it when that adds less than half its own length to the run's union, so a
    run holds the variants of one sentence (at most ``most``). A template that cannot be cut into
    items (None) stands alone."""
    found: list[tuple[int, int]] = []
    start = 0
    for index in range(1, len(sequences) + 1):
        run = sequences[start:index]
        if index < len(sequences) and len(run) < most and _joins(run, sequences[index]):
            continue
        found.append((start, index))
        start = index
    return found


def _joins(run: Sequence[tuple[str, ...] | None], candidate: tuple[str, ...] | None) -> bool:
    if candidate is None or any(s is None for s in run):
        return False
    known: list[tuple[str, ...]] = [s for s in run if s is not None]
    added = len(union([*known, candidate])) - len(union(known))
    return added < len("".join(candidate)) / 2
