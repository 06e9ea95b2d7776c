"""``scripts/setup`` (run by every ``scripts/start``) skips the steps already done: a second run
installs nothing, loads no kernels and asks npm nothing (the system packages are checked, in one
dpkg-query); a changed pyproject.toml reinstalls and loads the kernels again. Run in a copy of the
script whose python, npm, apt-get and dpkg-query record their calls instead of doing anything."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
SETUP = (ROOT / "scripts" / "setup").read_text()

RECORDER = """#!/usr/bin/env bash
echo "{name} $*" >> "$CALLS"
{extra}
"""


def tool(folder: Path, name: str, extra: str = "") -> None:
    path = folder / name
    path.write_text(RECORDER.format(name=name, extra=extra))
    path.chmod(0o755)


@pytest.fixture
def checkout(tmp_path):
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup", tmp_path / "scripts" / "setup")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "src" / "napari_talk" / "packs" / "rays").mkdir(parents=True)
    (tmp_path / "src" / "napari_talk" / "packs" / "rays" / "engine.py").write_text("")
    bin_dir, venv_bin = tmp_path / "bin", tmp_path / ".venv" / "bin"
    bin_dir.mkdir()
    venv_bin.mkdir(parents=True)
    tool(venv_bin, "python")
    packages = SETUP.split("SYSTEM_PACKAGES=(", 1)[1].split(")", 1)[0].split()
    tool(bin_dir, "apt-get")
    tool(bin_dir, "sudo")
    tool(bin_dir, "dpkg-query", f'for p in {" ".join(packages)}; do printf "%s=installed " "$p"; done')
    (tmp_path / "node_modules" / "gltf-validator").mkdir(parents=True)
    tool(bin_dir, "npm", f'[ "$1" = root ] && echo {tmp_path / "node_modules"}; true')
    return tmp_path


def setup(checkout: Path) -> list[str]:
    calls = checkout / "calls.txt"
    calls.write_text("")
    env = {**os.environ, "PATH": f"{checkout / 'bin'}:{os.environ['PATH']}", "CALLS": str(calls)}
    done = subprocess.run(
        ["bash", str(checkout / "scripts" / "setup")], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return [call for call in calls.read_text().splitlines() if not call.startswith("dpkg-query")]


def test_a_second_setup_skips_what_is_done_and_a_changed_pyproject_redoes_it(checkout):
    first = setup(checkout)
    assert any("pip install -q -e .[test]" in call for call in first)
    assert any("load_kernels()" in call for call in first)
    assert any(call.startswith("npm root") for call in first)
    assert not any(call.startswith(("apt-get", "sudo")) for call in first), "every system package is there"

    assert setup(checkout) == [], "nothing to do: no install, no kernels, no npm"

    time.sleep(1.1)  # a later modification time than the stamps
    (checkout / "pyproject.toml").write_text("[project]\nname = 'x'\nversion = '2'\n")
    third = setup(checkout)
    assert any("pip install -q -e .[test]" in call for call in third)
    assert any("load_kernels()" in call for call in third), "a reinstall may bring another numba"
    assert not any(call.startswith("npm") for call in third)


def test_a_changed_tracer_source_loads_the_kernels_again_only(checkout):
    setup(checkout)
    time.sleep(1.1)
    (checkout / "src" / "napari_talk" / "packs" / "rays" / "engine.py").write_text("# changed\n")
    again = setup(checkout)
    assert len(again) == 1 and "load_kernels()" in again[0]
