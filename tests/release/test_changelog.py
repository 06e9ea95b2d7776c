"""CHANGELOG.md moves with the version: its newest released heading is the package's version, and
released headings go from newest to oldest."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from napari_talk.__about__ import __version__

CHANGELOG = Path(__file__).resolve().parents[2] / "CHANGELOG.md"
_RELEASED = re.compile(r"^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$", re.MULTILINE)


def released() -> list[tuple[tuple[int, int, int], date]]:
    return [
        ((int(a), int(b), int(c)), date.fromisoformat(day))
        for a, b, c, day in _RELEASED.findall(CHANGELOG.read_text(encoding="utf-8"))
    ]


def test_the_newest_released_heading_is_the_package_version():
    versions = released()
    assert versions, "CHANGELOG.md has no released heading"
    newest = ".".join(map(str, versions[0][0]))
    assert newest == __version__, f"CHANGELOG's newest release is {newest}, the package is {__version__}"


def test_released_headings_go_from_newest_to_oldest():
    versions = released()
    assert [v for v, _ in versions] == sorted((v for v, _ in versions), reverse=True)
    assert [d for _, d in versions] == sorted((d for _, d in versions), reverse=True)
    assert len({v for v, _ in versions}) == len(versions), "a version is released twice"
