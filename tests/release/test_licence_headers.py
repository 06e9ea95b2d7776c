"""Translated code says so, file by file: every file NOTICE lists under an upstream project starts
with that project's SPDX licence, its copyright and the upstream files NOTICE names for it (Apache-2.0
§4 b and c, MIT's notice); no file NOTICE does not list claims such a header; and the package's
licence expression names exactly the licences those headers use."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTICE = ROOT / "NOTICE"
PACKAGE = ROOT / "src" / "napari_talk"
APACHE = "LICENSES/Apache-2.0.txt"
UPSTREAMS = {
    # NOTICE's section: (SPDX identifier, copyright holder in the header, licence text)
    "ray-optics": ("Apache-2.0", "The Ray Optics Simulation authors and contributors", APACHE),
    "ray_tracing_shapely": ("Apache-2.0", "The ray-tracing-shapely author and contributors", APACHE),
    "seedrandom": ("MIT", "David Bau", "LICENSES/MIT-seedrandom.txt"),
    "bezier-js": ("MIT", "Pomax", "LICENSES/MIT-bezier-js.txt"),
}
EXPRESSION = "BSD-3-Clause AND Apache-2.0 AND MIT"
_SECTION = re.compile(r"^\d+\. (\S+)$")
_LISTED = re.compile(r"^\s+(src/napari_talk/\S+\.py): (.+)$")


def translations() -> dict[str, dict[str, list[str]]]:
    """NOTICE's listing: file → {upstream project: the upstream files it translates}."""
    listed: dict[str, dict[str, list[str]]] = {}
    section = None
    for line in NOTICE.read_text(encoding="utf-8").splitlines():
        if m := _SECTION.match(line):
            section = m.group(1)
        elif (m := _LISTED.match(line)) and section is not None:
            listed.setdefault(m.group(1), {})[section] = [f.strip() for f in m.group(2).split(",")]
    return listed


def header(path: Path) -> list[str]:
    """The comment lines above a module's docstring, without their ``#``."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    return lines


def tagged(lines: list[str], tag: str) -> list[str]:
    """The values of the header's ``SPDX-<tag>:`` lines."""
    return [line.split(":", 1)[1].strip() for line in lines if line.startswith(f"SPDX-{tag}:")]


def spdx(path: Path) -> set[str]:
    """The licences the header's SPDX expression names."""
    expressions = tagged(header(path), "License-Identifier")
    return {term for expression in expressions for term in expression.split(" AND ")}


LISTED = translations()


def test_notice_lists_files_for_every_upstream_and_each_file_exists():
    sections = {project for projects in LISTED.values() for project in projects}
    assert sections == set(UPSTREAMS)
    for path in LISTED:
        assert (ROOT / path).is_file(), path


@pytest.mark.parametrize("path", sorted(LISTED))
def test_a_translated_file_carries_its_upstreams_header(path: str):
    file = ROOT / path
    lines = header(file)
    text = " ".join(lines)
    projects = LISTED[path]
    assert spdx(file) == {UPSTREAMS[p][0] for p in projects}, text
    holders = tagged(lines, "FileCopyrightText")
    assert "2026 napari-talk contributors" in holders, text
    for project, upstream_files in projects.items():
        _, holder, licence = UPSTREAMS[project]
        assert any(holder in h for h in holders), (project, text)
        assert f"(see {licence})" in text, (project, text)
        for upstream in upstream_files:
            assert upstream in text, (project, upstream)
    assert "modified:" in text and "napari-talk (2026)" in text
    docstring = ast.get_docstring(ast.parse(file.read_text(encoding="utf-8")))
    assert docstring, "the module keeps its docstring below the header"


def test_no_file_outside_notice_claims_an_upstream_licence():
    claiming = []
    for file in PACKAGE.rglob("*.py"):
        path = file.relative_to(ROOT).as_posix()
        if path in LISTED:
            continue
        text = file.read_text(encoding="utf-8")
        if "SPDX-License-Identifier" in text or "Licensed under the Apache License" in text:
            claiming.append(path)
    assert not claiming, f"a licence header NOTICE does not list: {claiming}"


def test_the_licence_expression_names_exactly_the_licences_in_use():
    in_use = {"BSD-3-Clause"} | {i for path in LISTED for i in spdx(ROOT / path)}
    assert set(EXPRESSION.split(" AND ")) == in_use
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'license = "{EXPRESSION}"' in pyproject


def test_each_licence_text_is_bundled_with_its_copyright():
    apache = (ROOT / "LICENSES" / "Apache-2.0.txt").read_text(encoding="utf-8")
    assert "Apache License" in apache and "Version 2.0, January 2004" in apache
    assert "END OF TERMS AND CONDITIONS" in apache
    for _, holder, licence in UPSTREAMS.values():
        if licence.startswith("LICENSES/MIT-"):
            text = (ROOT / licence).read_text(encoding="utf-8")
            assert re.search(rf"Copyright .*{holder}", text), licence
            assert "Permission is hereby granted, free of charge" in text
    own = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert own.startswith("BSD 3-Clause License") and "napari-talk contributors" in own
