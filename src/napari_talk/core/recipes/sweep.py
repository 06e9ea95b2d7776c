"""Parameter sweeps: a name and the values it takes, one row of the batch per value.

    --sweep index=1.4:1.7:0.05         index takes 1.4, 1.45, ... 1.7
    --sweep colormap=magma,viridis     or listed values
    for index from 1.4 to 1.7 step 0.05: set the index of Prism to {index}; detector readings

Steps are counted in decimals, so 1.4 + 6 × 0.05 is 1.7 exactly, not 1.7000000000000002.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

MAX_VALUES = 10_000
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_SPEC = re.compile(rf"\s*({_NAME})\s*=\s*(.+)")
_FOR = re.compile(
    rf"\s*for\s+({_NAME})\s+from\s+(\S+)\s+to\s+(\S+)(?:\s+(?:step|by)\s+(\S+))?\s*:\s*(.+)", re.IGNORECASE
)


class SweepError(ValueError):
    """A sweep that cannot be read; its message says how it is written."""


@dataclass(frozen=True)
class Sweep:
    name: str
    values: tuple[str, ...]


def parse_spec(spec: str) -> Sweep:
    """``name=start:stop:step`` or ``name=a,b,c``."""
    found = _SPEC.fullmatch(spec)
    if not found:
        raise SweepError(f"{spec!r} is not a sweep: write name=start:stop:step or name=a,b,c")
    name, rest = found.groups()
    if ":" in rest:
        parts = rest.split(":")
        if len(parts) != 3:
            raise SweepError(f"{spec!r}: a range is start:stop:step")
        return Sweep(name, steps(*parts))
    values = tuple(v.strip() for v in rest.split(",") if v.strip())
    if not values:
        raise SweepError(f"{spec!r} gives no values")
    return Sweep(name, values)


def steps(start: str, stop: str, step: str = "1") -> tuple[str, ...]:
    try:
        first, last, by = Decimal(start), Decimal(stop), Decimal(step)
    except InvalidOperation:
        raise SweepError(f"{start}, {stop} and {step} must be numbers") from None
    if by <= 0:
        raise SweepError(f"the step must be above 0, not {step}")
    count = int((last - first) / by) + 1
    if count < 1:
        raise SweepError(f"{start} to {stop} holds no value: the start is past the end")
    if count > MAX_VALUES:
        raise SweepError(f"{count} values; a sweep takes at most {MAX_VALUES}")
    return tuple(_plain(first + by * n) for n in range(count))


def parse_for_line(text: str) -> tuple[Sweep, list[str]] | None:
    """``for NAME from A to B step C: line; line`` as a sweep and its lines, or None."""
    found = _FOR.fullmatch(text)
    if not found:
        return None
    name, start, stop, step, body = found.groups()
    lines = [line.strip() for line in body.split(";") if line.strip()]
    return Sweep(name, steps(start, stop, step or "1")), lines


def combinations(sweeps: Sequence[Sweep]) -> list[tuple[tuple[str, str], ...]]:
    """Every combination of the sweeps' values (one empty combination without sweeps)."""
    found: list[tuple[tuple[str, str], ...]] = [()]
    for sweep in sweeps:
        found = [(*done, (sweep.name, value)) for done in found for value in sweep.values]
        if len(found) > MAX_VALUES:
            raise SweepError(f"the sweeps make more than {MAX_VALUES} combinations")
    return found


def _plain(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return text if text not in ("-0",) else "0"
