"""The one workspace gate: every pack's files go through it, and nothing gets out of the workspace.

Each pack that writes is attacked the same way: a folder it writes into is a symlink to a folder
outside the workspace. Nothing may be written there, and the reply says why.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from napari_talk.core.running.session import Session
from napari_talk.core.safety.workspace import SecurityError, Workspace, WorkspaceError


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


@pytest.fixture
def root(workspace: Path) -> Path:
    return workspace


LINKED_WRITES = [
    pytest.param("atlas", ["load the sample catalogue"], id="atlas sample and catalogue"),
    pytest.param("exports", ["spawn a cube", "export the model"], id="mesh export"),
    pytest.param("mesh", ["spawn a cube"], id="mesh state file"),
    pytest.param("notes", ["write notes/a.md with hello"], id="files write"),
    pytest.param(
        ".napari-talk", ["assign the architect to outline chapter 2 in plan.md"], id="files task log"
    ),
    pytest.param("out", ["export the catalogue to out/atlas.jsonl"], id="atlas export"),
]


@pytest.mark.parametrize(("linked", "lines"), LINKED_WRITES)
def test_a_folder_linked_outside_gets_nothing_written(root, outside, linked, lines):
    (root / linked).symlink_to(outside, target_is_directory=True)
    session = Session(None, workspace=root)
    replies = [session.run(line) for line in lines]
    assert files_under(outside) == [], f"{lines} wrote outside the workspace"
    last = replies[-1]
    assert not last.ok and "outside the workspace" in last.message, last.message


def test_the_viewers_screenshot_into_a_linked_folder_writes_nothing(make_napari_viewer_proxy, root, outside):
    (root / "figures").symlink_to(outside, target_is_directory=True)
    viewer = make_napari_viewer_proxy()
    viewer.add_points([[1, 1], [20, 30]], name="dots")
    session = Session(viewer, workspace=root)
    turn = session.run("screenshot figures/dots.png")
    assert not turn.ok and "outside the workspace" in turn.message
    assert files_under(outside) == []
    assert session.run("screenshot shots/dots.png").ok
    assert (root / "shots" / "dots.png").read_bytes()[:4] == b"\x89PNG"


def test_a_link_that_stays_inside_is_followed(root):
    (root / "real").mkdir()
    (root / "alias").symlink_to(root / "real", target_is_directory=True)
    (root / "relative").symlink_to("real", target_is_directory=True)
    gate = Workspace(root)
    gate.write_text("alias/a.txt", "through an absolute link")
    gate.write_text("relative/b.txt", "through a relative link")
    assert sorted(p.name for p in (root / "real").iterdir()) == ["a.txt", "b.txt"]
    assert gate.read_text("real/b.txt", limit=100) == "through a relative link"


def test_a_link_loop_is_refused(root):
    (root / "a").symlink_to("b")
    (root / "b").symlink_to("a")
    with pytest.raises(SecurityError, match="too many symlinks"):
        Workspace(root).read_bytes("a/x", limit=10)


def test_a_folder_swapped_for_a_link_meanwhile_fails_closed(root, outside):
    """A thread swaps a folder for a link outside while the gate writes into it: every write lands
    inside or is refused; none lands outside."""
    gate = Workspace(root)
    (root / "data").mkdir()
    stop = threading.Event()

    def swap() -> None:
        while not stop.is_set():
            try:
                (root / "data").rename(root / "data.real")
                (root / "data").symlink_to(outside, target_is_directory=True)
                time.sleep(0.001)
                (root / "data").unlink()
                (root / "data.real").rename(root / "data")
                time.sleep(0.001)
            except OSError:
                # the gate made a fresh "data" while it was gone: put the real one back, try again
                with contextlib.suppress(OSError):
                    if (root / "data").is_symlink():
                        (root / "data").unlink()
                    elif (root / "data").is_dir() and (root / "data.real").is_dir():
                        shutil.rmtree(root / "data")
                    (root / "data.real").rename(root / "data")

    swapper = threading.Thread(target=swap)
    swapper.start()
    refused = written = 0
    deadline = time.monotonic() + 10
    try:
        index = 0
        while time.monotonic() < deadline and (written < 20 or refused < 20):
            index += 1
            try:
                gate.write_text(f"data/{index}.txt", "x")
                written += 1
            except (SecurityError, WorkspaceError, OSError):
                refused += 1
    finally:
        stop.set()
        swapper.join()
    assert files_under(outside) == []
    assert written > 0 and refused > 0, (written, refused)


def test_huge_files_are_refused_by_size_before_a_byte_is_read(root):
    for name in ("huge.json", "huge.jsonl"):
        with open(root / name, "wb") as sparse:
            sparse.truncate(2 * 1024**3)  # 2 GiB, no disk used
    session = Session(None, workspace=root)
    started = time.perf_counter()
    scene = session.run("load scene huge.json")
    catalogue = session.run("import huge.jsonl")
    assert time.perf_counter() - started < 5
    assert not scene.ok and "over the limit" in scene.message, scene.message
    assert not catalogue.ok and "over the limit" in catalogue.message, catalogue.message


def test_temporary_files_a_crash_left_are_swept(root):
    (root / "notes").mkdir()
    stale = root / "notes" / ".a.md.0123456789ab.napari-talk.tmp"
    fresh = root / "notes" / ".b.md.ba9876543210.napari-talk.tmp"
    stale.write_text("half a write")
    fresh.write_text("a write under way in another process")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    Workspace(root).write_text("notes/a.md", "whole")
    assert not stale.exists(), "a crash's leftover is removed"
    assert fresh.exists(), "a write that may still be under way is left alone"
    assert (root / "notes" / "a.md").read_text() == "whole"


def test_a_database_replaced_by_a_link_is_refused(root, outside):
    (outside / "catalogue.sqlite").write_bytes(b"")
    (root / "atlas").mkdir()
    (root / "atlas" / "catalogue.sqlite").symlink_to(outside / "catalogue.sqlite")
    turn = Session(None, workspace=root).run("load the sample catalogue")
    assert not turn.ok and "outside the workspace" in turn.message
    assert (outside / "catalogue.sqlite").stat().st_size == 0


# -- hard links: another file's content under a second name -------------------------------------


@pytest.fixture
def secret(outside: Path) -> Path:
    target = outside / "secret.txt"
    target.write_text("the person's private key\n")
    return target


def test_a_hard_link_to_a_file_outside_is_neither_read_nor_written(root, secret):
    os.link(secret, root / "inner.txt")
    session = Session(workspace=root)
    read = session.execute({"action": "read_file", "path": "inner.txt"})
    assert not read.ok and "hard links" in read.message and "private key" not in str(read.data)
    write = session.execute({"action": "write_file", "path": "inner.txt", "content": "x"})
    assert not write.ok and "hard links" in write.message
    found = session.execute({"action": "search_code", "query": "private key"})
    assert found.ok and found.data == [] and found.meta["skipped"]["hard_linked"] == 1
    assert secret.read_text() == "the person's private key\n"


def test_the_task_log_hard_linked_outside_is_not_appended_to(root, secret):
    (root / ".napari-talk").mkdir()
    os.link(secret, root / ".napari-talk" / "tasks.jsonl")
    session = Session(workspace=root)
    result = session.execute(
        {"action": "assign_task", "target_agent": "editor", "task_description": "x", "target_file": "a.md"}
    )
    assert not result.ok and "hard links" in result.message
    assert secret.read_text() == "the person's private key\n"


def test_a_hard_link_whose_names_are_all_inside_reads(root):
    (root / "a.txt").write_text("shared inside")
    os.link(root / "a.txt", root / "b.txt")
    assert Workspace(root).read_text("b.txt", limit=100) == "shared inside"
    with pytest.raises(SecurityError, match="hard links"):
        Workspace(root).append("b.txt", b"more")


def test_sqlite_never_opens_a_hard_linked_database(root, secret):
    os.link(secret, root / "catalogue.sqlite")
    with pytest.raises(SecurityError, match="hard links"):
        Workspace(root).sqlite_path("catalogue.sqlite")
