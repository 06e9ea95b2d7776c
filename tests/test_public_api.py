"""The package as a user imports it: every public name, in a fresh process.

A name in ``napari_talk.__all__`` is imported lazily from a module path written as a string, which no
refactor's import rewriting touches; only importing it, as a user does, shows that it still works.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import napari_talk


def _import_in_a_fresh_process(statement: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", statement], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", sorted(napari_talk.__all__))
def test_every_public_name_imports_in_a_fresh_process(name: str) -> None:
    done = _import_in_a_fresh_process(f"from napari_talk import {name}; print(repr({name})[:80])")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip(), f"`from napari_talk import {name}` gave nothing"


def test_star_import_gives_every_public_name() -> None:
    done = _import_in_a_fresh_process(
        "import napari_talk\n"
        "ns = {}\n"
        "exec('from napari_talk import *', ns)\n"
        "missing = sorted(set(napari_talk.__all__) - set(ns))\n"
        "assert not missing, missing\n"
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_an_unknown_name_is_an_attribute_error_that_names_it() -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        napari_talk.no_such_thing  # noqa: B018


def test_importing_the_package_pulls_in_neither_qt_nor_napari_nor_an_llm_client() -> None:
    done = _import_in_a_fresh_process(
        "import sys, napari_talk\n"
        "from napari_talk import Session, parse, Command, Result, default_registry\n"
        "heavy = ('napari', 'qtpy', 'PyQt5', 'PyQt6', 'PySide6', 'openai')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]", done.stdout
