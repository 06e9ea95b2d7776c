"""Scoring the parser on JSONL corpora, with the same judgement as the shared scorer."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


def _norm(value):
    if isinstance(value, str):
        return " ".join(value.split()).lower().rstrip("/")
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list):
        return [_norm(v) for v in value]
    return value


def same(expected, actual) -> bool:
    """Loose equality of an expected value and a parsed one: strings without case and surrounding
    space (paths without a trailing slash), numbers within 1e-6."""
    e, a = _norm(expected), _norm(actual)
    if isinstance(e, float) and isinstance(a, float):
        return abs(e - a) <= 1e-6 * max(1.0, abs(e))
    if isinstance(e, list) and isinstance(a, list):
        return len(e) == len(a) and all(same(x, y) for x, y in zip(expected, actual, strict=True))
    return e == a


def _matches(expected: dict, actual: dict) -> bool:
    return expected["action"] == actual.get("action") and all(
        same(v, actual.get(k)) for k, v in expected.items() if k != "action"
    )


@dataclass
class Score:
    positives: int = 0
    covered: int = 0
    wrong: list[tuple[str, list, list]] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    @property
    def coverage(self) -> float:
        return self.covered / max(1, self.positives)


def load(path: Path, actions: set[str] | None = None) -> list[dict]:
    """Corpus cases, keeping those whose expected commands all belong to ``actions``."""
    cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if actions is None:
        return cases
    return [c for c in cases if all(e["action"] in actions for e in c["expect"])]


def score(cases: list[dict], parse) -> Score:
    result = Score()
    for case in cases:
        got = [c.to_wire() for c in parse(case["text"], case.get("context", {}))]
        expect = case["expect"]
        if not expect:
            if any(g["action"] != "help" for g in got):
                result.wrong.append((case["text"], expect, got))
            continue
        result.positives += 1
        if not got:
            result.unknown.append(case["text"])
        elif len(got) == len(expect) and all(map(_matches, expect, got)):
            result.covered += 1
        else:
            result.wrong.append((case["text"], expect, got))
    return result
