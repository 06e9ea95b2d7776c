"""The core's layers: the contract at the bottom, the registry above it, help and the LLM road
above the registry; no import circle, even among imports made only for type checking. And pack
state typed end to end."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import napari_talk
from napari_talk.core.running.session import Session
from napari_talk.packs.files import FilesPack
from napari_talk.packs.files.state import FilesState

PACKAGE = Path(napari_talk.__file__).parent


def _core_imports() -> dict[str, set[str]]:
    modules = {}
    for path in (PACKAGE / "core").rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
            target = base + ("." + node.module if node.module else "")
            for alias in node.names:
                found = f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target
                if found in modules and found != name:
                    graph[name].add(found)
    return graph


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        for step in graph[todo.pop()] - seen:
            if step == goal:
                return True
            seen.add(step)
            todo.append(step)
    return False


def test_the_core_has_no_import_circle():
    graph = _core_imports()
    circles = sorted(name for name in graph if _reaches(graph, name, name))
    assert circles == [], f"modules on an import circle: {circles}"


def test_the_contract_imports_neither_the_registry_nor_the_llm_road():
    graph = _core_imports()
    for low, high in [
        ("napari_talk.core.contract.pack", "napari_talk.core.contract.registry"),
        ("napari_talk.core.contract.pack", "napari_talk.core.llm.road"),
        ("napari_talk.core.contract.registry", "napari_talk.core.help.topics"),
        ("napari_talk.core.contract.registry", "napari_talk.core.llm.road"),
    ]:
        assert not _reaches(graph, low, high), f"{low} reaches {high}"


def _folder(module: str) -> str:
    """The core's folder a module is in (``errors`` for ``core/errors.py``)."""
    return module.split(".")[2] if module.count(".") >= 2 else module


def test_the_lowest_floors_import_nothing_above_them():
    """``basics/`` (commands, results, changes, jobs, the viewer's protocols) and ``chat/`` (the
    model server's client) are what every other folder shares, ``rules/`` (what a grammar rule is)
    what the contract and the grammar share: each imports only the floors below."""
    graph = _core_imports()
    below = {
        "basics": {"errors", "safety"},
        "chat": {"safety"},
        "rules": {"basics"},
        "contract": {"errors", "safety", "basics", "chat", "rules"},
    }
    for name, targets in graph.items():
        folder = _folder(name)
        if folder in below:
            above = {_folder(t) for t in targets} - below[folder] - {folder}
            assert not above, f"{name} imports from {sorted(above)}"


def test_pack_state_is_found_by_the_packs_class(tmp_path):
    session = Session(workspace=tmp_path)
    state = session.state(FilesPack)
    assert isinstance(state, FilesState) and session.state(FilesPack) is state
    assert session.state("files") is state

    class Unregistered(FilesPack):
        pass

    with pytest.raises(KeyError, match="Unregistered"):
        session.state(Unregistered)
