"""The release's sdist and wheel, built once for the session from the checkout (offline, with the
installed hatchling): they pass the package index's strict checks, declare the licence expression
with every licence file and ship those files, and the wheel holds what napari loads (the manifest
and the packs' data files)."""

from __future__ import annotations

import subprocess
import sys
from email.parser import Parser
from pathlib import Path

import yaml
from support.release_dists import Dists

from napari_talk.__about__ import __version__

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "napari_talk"
LICENSE_FILES = sorted(["LICENSE", "NOTICE", *(f"LICENSES/{p.name}" for p in (ROOT / "LICENSES").iterdir())])
EXPRESSION = "BSD-3-Clause AND Apache-2.0 AND MIT"


def test_the_licences_folder_holds_apache_and_mit_texts():
    names = [f for f in LICENSE_FILES if f.startswith("LICENSES/")]
    assert "LICENSES/Apache-2.0.txt" in names
    assert any(f.startswith("LICENSES/MIT-") for f in names), names


def test_twine_check_strict_passes_on_sdist_and_wheel(dists: Dists):
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(dists.sdist), str(dists.wheel)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2, checked.stdout


def test_wheel_metadata_declares_the_licence_expression_and_each_licence_file(dists: Dists):
    meta = dists.wheel_metadata()
    assert meta["Version"] == __version__
    assert meta["License-Expression"] == EXPRESSION
    assert sorted(meta.get_all("License-File")) == LICENSE_FILES
    classifiers = meta.get_all("Classifier")
    assert "Framework :: napari" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")], "PEP 639: no licence classifier"
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Documentation", "Source", "Issues", "Changelog"} <= set(urls)
    assert all(u.startswith("https://github.com/napari-talk/napari-talk") for u in urls.values()), urls


def test_wheel_ships_the_licence_files_as_they_are_in_the_checkout(dists: Dists):
    names = dists.wheel_names()
    (info,) = {n.split("/", 1)[0] for n in names if n.split("/", 1)[0].endswith(".dist-info")}
    for f in LICENSE_FILES:
        assert dists.wheel_read(f"{info}/licenses/{f}") == (ROOT / f).read_bytes(), f


def test_sdist_ships_the_licence_files_and_declares_them(dists: Dists):
    members = dists.sdist_members()
    for f in LICENSE_FILES:
        assert members.get(f) == (ROOT / f).read_bytes(), f
    pkg_info = Parser().parsestr(members["PKG-INFO"].decode("utf-8"))
    assert pkg_info["License-Expression"] == EXPRESSION
    assert sorted(pkg_info.get_all("License-File")) == LICENSE_FILES


def test_wheel_ships_the_manifest_and_every_data_file_of_the_package(dists: Dists):
    names = dists.wheel_names()
    data = [
        p.relative_to(PACKAGE.parent).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file() and p.suffix not in {".py", ".pyc"} and "__pycache__" not in p.parts
    ]
    assert "napari_talk/napari.yaml" in data
    assert "napari_talk/packs/atlas/sample_entities.jsonl" in data  # what the atlas sample reads
    missing = [d for d in data if d not in names]
    assert not missing, f"not in the wheel: {missing}"


def test_every_command_of_the_manifest_names_a_module_the_wheel_ships(dists: Dists):
    manifest = yaml.safe_load(dists.wheel_read("napari_talk/napari.yaml"))
    names = dists.wheel_names()
    for command in manifest["contributions"]["commands"]:
        module = command["python_name"].split(":")[0].replace(".", "/")
        assert f"{module}.py" in names or f"{module}/__init__.py" in names, command["id"]


def test_npe2_validates_the_installed_plugin_importing_its_commands():
    validated = subprocess.run(
        [sys.executable, "-m", "npe2", "validate", "napari-talk", "--imports"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert validated.returncode == 0, validated.stdout + validated.stderr


def test_npe2_validates_the_manifest_the_wheel_ships(dists: Dists, tmp_path: Path):
    manifest = tmp_path / "napari.yaml"
    manifest.write_bytes(dists.wheel_read("napari_talk/napari.yaml"))
    validated = subprocess.run(
        [sys.executable, "-m", "npe2", "validate", str(manifest)], capture_output=True, text=True, timeout=300
    )
    assert validated.returncode == 0, validated.stdout + validated.stderr
