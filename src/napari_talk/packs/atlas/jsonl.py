"""Catalogue records as JSON Lines: one entity per line, the same fields as the catalogue.

    {"name": "Eigensage", "type": "Architect", "domain": "The Lattice", "class_name": "Eigensage",
     "description": "...", "image": "atlas/images/eigensage.png", "sref": "7777", "prompt": "...",
     "created": "2026-11-22T10:00:00Z"}

Only ``name`` is required. Lines that are not valid records are skipped and reported by number;
unknown keys are ignored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .catalogue import Entity

MAX_LINE = 100_000
MAX_ERRORS_LISTED = 5


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
    """``line N: why`` for each skipped line."""


def read_records(lines: Iterable[str]) -> ReadResult:
    result = ReadResult()
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        if len(text) > MAX_LINE:
            result.errors.append(f"line {number}: longer than {MAX_LINE:,} characters")
            continue
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            record = Record.model_validate({k: _text(v) for k, v in data.items()})
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(map(str, error["loc"]))
            result.errors.append(f"line {number}: {where}: {error['msg']}")
            continue
        except ValueError as exc:
            result.errors.append(f"line {number}: {exc}")
            continue
        result.entities.append(Entity(**record.model_dump()))
    return result


def _text(value: object) -> object:
    """Numbers people store as sref codes (``"sref": 42``) read as text."""
    return str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


def write_records(entities: Iterable[Entity], out: IO[str]) -> int:
    count = 0
    for entity in entities:
        out.write(json.dumps(entity.record(), ensure_ascii=False) + "\n")
        count += 1
    return count


def summarize_errors(errors: list[str]) -> str:
    shown = "; ".join(errors[:MAX_ERRORS_LISTED])
    more = f" (and {len(errors) - MAX_ERRORS_LISTED} more)" if len(errors) > MAX_ERRORS_LISTED else ""
    return f"{len(errors)} line(s) skipped: {shown}{more}"
