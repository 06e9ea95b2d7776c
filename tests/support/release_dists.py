"""The release's sdist and wheel, built from the checkout offline with the installed hatchling
(``python -m build --no-isolation``), and what the release tests read of them."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from email.message import Message
from email.parser import Parser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Dists:
    sdist: Path
    wheel: Path

    def wheel_names(self) -> set[str]:
        with zipfile.ZipFile(self.wheel) as zf:
            return set(zf.namelist())

    def wheel_read(self, name: str) -> bytes:
        with zipfile.ZipFile(self.wheel) as zf:
            return zf.read(name)

    def wheel_metadata(self) -> Message:
        (name,) = [n for n in self.wheel_names() if n.endswith(".dist-info/METADATA")]
        return Parser().parsestr(self.wheel_read(name).decode("utf-8"))

    def sdist_members(self) -> dict[str, bytes]:
        """The sdist's files by their path below its top folder."""
        with tarfile.open(self.sdist) as tf:
            return {
                m.name.split("/", 1)[1]: tf.extractfile(m).read()  # type: ignore[union-attr]
                for m in tf.getmembers()
                if m.isfile() and "/" in m.name
            }


def build(out: Path) -> Dists:
    """Build the sdist and the wheel into ``out``; an AssertionError with build's output when it fails."""
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return Dists(sdist, wheel)
