"""ray-optics' own scene tests: ``napari-talk rays detect`` must print what ray-optics' simulator
measured on each scene's detector, by ray-optics' own comparison rule (positions within 1e-3,
values within relative error 1e-3), and the scene must load without a warning.

The scenes live beside the repository (``../shared/raysuite``, or one level further up for a
worktree); the test skips when they are absent.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CANDIDATES = [
    REPO.parent / "shared" / "raysuite" / "scenes",
    REPO.parent.parent / "shared" / "raysuite" / "scenes",
]
SUITE = next((p for p in CANDIDATES if p.is_dir()), None)
TOL = 1e-3


def _scenes() -> list[Path]:
    if SUITE is None:
        return []
    return sorted(p for p in SUITE.rglob("*.json") if p.with_suffix(".csv").exists())


def mismatch(actual: str, expected: str) -> str | None:
    """ray-optics' compareCSV: same header and rows, positions within TOL, values within TOL relative."""
    a = [line.strip() for line in actual.strip().splitlines() if line.strip()]
    e = [line.strip() for line in expected.strip().splitlines() if line.strip()]
    if not a or a[0] != e[0]:
        return f"header {a[:1]} != {e[:1]}"
    if len(a) != len(e):
        return f"{len(a) - 1} rows, expected {len(e) - 1}"
    for i, (la, le) in enumerate(zip(a[1:], e[1:], strict=True), 1):
        pa, va = map(float, la.split(","))
        pe, ve = map(float, le.split(","))
        if abs(pa - pe) > TOL:
            return f"row {i}: position {pa} != {pe}"
        if abs(va - ve) / (abs(ve) + TOL) > TOL:
            return f"row {i}: {va} != {ve}"
    return None


@pytest.mark.skipif(SUITE is None, reason="ray-optics' scene suite (../shared/raysuite) is not here")
@pytest.mark.parametrize("scene", _scenes(), ids=lambda p: str(p.relative_to(SUITE)) if SUITE else str(p))
def test_detector_reading_matches_ray_optics(scene: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "napari_talk", "rays", "detect", str(scene)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr, done.stderr
    assert mismatch(done.stdout, scene.with_suffix(".csv").read_text()) is None


def test_the_comparison_rule_rejects_a_wrong_reading() -> None:
    expected = "Position,Irradiance\n0,1\n5,0.5\n"
    assert mismatch("Position,Irradiance\n0,1\n5,0.5\n", expected) is None
    assert mismatch("Position,Irradiance\n0,1\n5,0.502\n", expected) is not None
    assert mismatch("Position,Irradiance\n0,1\n", expected) is not None
    assert mismatch("Position,Power\n0,1\n5,0.5\n", expected) is not None
