"""Catalogue records as JSON Lines: one entity per line, the same fields as the catalogue.

    {"name": "Eigensage", "type": "Architect", "domain": "The Lattice", "class_name": "Eigensage",
     "description": "...", "image": "atlas/images/eigensage.png", "sref": "7777", "prompt": "...",
     "created": "2026-11-22T10:00:00Z"}

Only ``name`` is required. Lines that are not valid records are skipped and reported by number;
unknown keys are ignored. Lines end at LF, CRLF or CR and nowhere else (Python's ``splitlines``
also breaks at U+2028 and other characters JSON allows inside a string); each line is UTF-8 on
its own, so one bad byte skips its line, not the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .entities import Entity, name_key

MAX_LINE = 100_000
MAX_ERRORS_LISTED = 5
MAX_ERRORS_KEPT = 1000
"""Skipped lines whose reasons are kept (a million bad lines are counted, not all described)."""
LINE_END = re.compile(rb"\r\n|\r|\n")
BOM = b"\xef\xbb\xbf"


class Record(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    name: str = Field(min_length=1, max_length=200)
    type: str = Field("", max_length=200)
    domain: str = Field("", max_length=200)
    class_name: str = Field("", max_length=200)
    description: str = Field("", max_length=5000)
    image: str = Field("", max_length=2000)
    sref: str = Field("", max_length=500)
    prompt: str = Field("", max_length=5000)
    created: str = Field("", max_length=40)


@dataclass
class ReadResult:
    entities: list[Entity] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """``line N: why`` for the first :data:`MAX_ERRORS_KEPT` skipped lines."""
    skipped: int = 0
    """How many lines were skipped in all."""
    repeated: int = 0
    """Records that gave way to a later line naming the same entity (only the last is imported)."""

    def skip(self, number: int, why: str) -> None:
        self.skipped += 1
        if len(self.errors) < MAX_ERRORS_KEPT:
            self.errors.append(f"line {number}: {why}")


def read_bytes(data: bytes) -> ReadResult:
    """The records of a JSON Lines file as it is on disk (a leading byte-order mark is no data)."""
    return read_records(_decoded(data.removeprefix(BOM)))


def _decoded(data: bytes) -> Iterator[str | UnicodeDecodeError]:
    for raw in LINE_END.split(data):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield exc


def read_records(lines: Iterable[str | UnicodeDecodeError]) -> ReadResult:
    """Each line a record, or a reason it is skipped (a line that was not UTF-8 comes as its error)."""
    result = ReadResult()
    for number, line in enumerate(lines, start=1):
        if isinstance(line, UnicodeDecodeError):
            result.skip(
                number, f"not UTF-8 text (byte {line.object[line.start]:#04x} at column {line.start + 1})"
            )
            continue
        text = line.strip()
        if not text:
            continue
        if len(text) > MAX_LINE:
            result.skip(number, f"longer than {MAX_LINE:,} characters")
            continue
        try:
            result.entities.append(Entity(**_record(text).model_dump()))
        except ValueError as exc:
            result.skip(number, str(exc))
    last = last_of_each(result.entities)
    result.repeated = len(result.entities) - len(last)
    result.entities = last
    return result


def last_of_each(entities: list[Entity]) -> list[Entity]:
    """A name given twice: its last record (in the place of its first)."""
    last = {name_key(entity.name): entity for entity in entities}
    return list(last.values()) if len(last) < len(entities) else entities


def _record(text: str) -> Record:
    """One line's record; ValueError saying in a few words why it is none."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg.lower()} at column {exc.colno})") from None
    except RecursionError:
        raise ValueError("nested deeper than JSON can be read") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    try:
        return Record.model_validate({k: _text(k, v) for k, v in data.items()})
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(map(str, error["loc"]))
        raise ValueError(f"{where}: {error['msg']}") from None


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON value (JSON has no NaN or Infinity)")


def _text(key: str, value: object) -> object:
    """Numbers people store as sref codes (``"sref": 42``) read as text; text that is not
    Unicode (an unpaired surrogate escaped as ``"\\ud800"``) is refused: no file could hold it."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError(
                f"{key}: holds {value[exc.start]!a}, half of a character, which is not text"
            ) from None
    return str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


def write_records(entities: Iterable[Entity], out: IO[str]) -> int:
    count = 0
    for entity in entities:
        out.write(json.dumps(entity.record(), ensure_ascii=False) + "\n")
        count += 1
    return count


def summarize_errors(errors: list[str], skipped: int | None = None) -> str:
    """``skipped`` lines in all (``len(errors)`` when not given), the first few with their reasons."""
    count = len(errors) if skipped is None else skipped
    shown = "; ".join(errors[:MAX_ERRORS_LISTED])
    more = f" (and {count - MAX_ERRORS_LISTED:,} more)" if count > MAX_ERRORS_LISTED else ""
    return f"{count:,} line(s) skipped: {shown}{more}"
