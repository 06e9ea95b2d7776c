"""The sandbox: no read or write ever lands outside the workspace, whatever the spelling.

Each test builds real hostile furniture around and inside the workspace (symlinks out, a symlink
chain, a link to a sibling folder whose name starts like the root's, a loop, a FIFO, a link to a
device) and checks the real file system afterwards, not only the refusal messages.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from napari_talk.core.running.session import Session
from napari_talk.core.safety.workspace import SecurityError, resolve

SECRET = "SECRET-OUTSIDE-THE-WORKSPACE"
MARK = "written-by-a-hostile-path-test"


@pytest.fixture
def hostile(workspace: Path) -> Path:
    """The workspace with escape hatches in it, and secrets beside it."""
    around = workspace.parent
    outside = around / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    sibling = around / f"{workspace.name}2"
    sibling.mkdir()
    (sibling / "secret.txt").write_text(SECRET)
    (workspace / "notes").mkdir()
    (workspace / "notes" / "plan.md").write_text("the plan")
    links = {
        "out": outside,
        "secret_link.txt": outside / "secret.txt",
        "chain2": outside,
        "sib": Path("..") / sibling.name,
        "abs_sib": sibling,
        "loop": Path("loop"),
        "dev": Path(os.devnull),
        "dangling": outside / "not-yet.txt",
        "inner": Path("notes"),
    }
    for name, target in links.items():
        (workspace / name).symlink_to(target)
    (workspace / "chain1").symlink_to("chain2")
    (workspace / "notes" / "up").symlink_to("../../outside")
    os.mkfifo(workspace / "fifo")
    return workspace


def outside_state(workspace: Path) -> dict[str, str]:
    """Every entry around the workspace (not in it), with a digest of each file's bytes."""
    state = {}
    for folder, dirs, files in os.walk(workspace.parent):
        if Path(folder) == workspace.parent and workspace.name in dirs:
            dirs.remove(workspace.name)
        for name in files:
            path = Path(folder) / name
            state[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
        state.update({str(Path(folder) / d): "dir" for d in dirs})
    return state


HOSTILE = [
    "..",
    "../secret.txt",
    "../../etc/passwd",
    "notes/../../outside/secret.txt",
    "a/b/../../../x.txt",
    "./../x.txt",
    "/etc/passwd",
    "//server/share/x.txt",
    "C:\\Windows\\win.ini",
    "C:x.txt",
    "c:/x.txt",
    "\\\\server\\share\\x.txt",
    "\\\\?\\C:\\x.txt",
    "\\x.txt",
    "..\\outside\\secret.txt",
    "notes\\..\\..\\outside\\secret.txt",
    "notes/\\../../x.txt",
    "a\x00.txt",
    "notes/plan.md\x00.txt",
    "a\nb.txt",
    "out/secret.txt",
    "out/new.txt",
    "secret_link.txt",
    "chain1/secret.txt",
    "chain1/new.txt",
    "sib/secret.txt",
    "abs_sib/secret.txt",
    "../workspace2/secret.txt",
    "notes/up/secret.txt",
    "inner/up/secret.txt",
    "inner/../out/secret.txt",
    "loop",
    "loop/x.txt",
    "dev",
    "fifo",
    "dangling",
    ".../x.txt",
    ". ./x.txt",
    "CON",
    "nul.txt",
    "notes/com1.md",
]


@pytest.mark.parametrize("path", HOSTILE)
def test_a_hostile_path_is_refused_for_reading_and_writing(hostile, path):
    session = Session(workspace=hostile)
    before = outside_state(hostile)
    wrote = session.execute({"action": "write_file", "path": path, "content": MARK})
    read = session.execute({"action": "read_file", "path": path})
    assert not wrote.ok and not read.ok, (wrote.message, read.message)
    assert wrote.meta["error"] == "SecurityError", wrote.message
    assert read.meta["error"] == "SecurityError", read.message
    assert outside_state(hostile) == before
    with pytest.raises(SecurityError):
        resolve(hostile, path)


@pytest.mark.parametrize(
    "path",
    ["notes/plan.md", "inner/plan.md", "notes/../notes/plan.md", "./notes//plan.md", "notes\\plan.md"],
)
def test_paths_that_stay_inside_are_allowed_even_through_inner_links(hostile, path):
    session = Session(workspace=hostile)
    read = session.execute({"action": "read_file", "path": path})
    assert read.ok and read.data == "the plan"


def test_a_sibling_whose_name_starts_like_the_root_is_outside(hostile):
    sibling = hostile.parent / f"{hostile.name}2"
    assert str(sibling).startswith(str(hostile))  # the prefix check the original made would pass it
    with pytest.raises(SecurityError, match="outside"):
        resolve(hostile, "sib/secret.txt")


def test_the_viewer_keeps_its_gate(hostile):
    assert resolve(hostile, "figures/cells.png") == hostile.resolve() / "figures" / "cells.png"
    with pytest.raises(SecurityError, match="outside the workspace"):
        resolve(hostile, "../outside.png")


def test_the_root_is_created_on_first_use(tmp_path):
    root = tmp_path / "fresh" / "workspace"
    session = Session(workspace=root)
    assert session.execute({"action": "write_file", "path": "a.txt", "content": "x"}).ok
    assert (root / "a.txt").read_text() == "x"


def test_a_fifo_swapped_in_after_the_check_does_not_block_a_read(workspace):
    from napari_talk.core.safety.workspace import Workspace

    os.mkfifo(workspace / "late")
    with pytest.raises(SecurityError, match="FIFO"):
        Workspace(workspace).read_bytes("late", limit=1024)


SEGMENTS = st.sampled_from(
    [
        "..", ".", "", "...", " ", "out", "sib", "abs_sib", "chain1", "chain2", "loop", "dev", "fifo",
        "dangling", "inner", "notes", "up", "secret.txt", "secret_link.txt", "new.txt", "x.md", "outside",
        "workspace", "workspace2", "C:", "c:", "CON", "nul.txt", "~", "%2e%2e", "..%2f", "\x00", "a\nb",
        "．．", "\u2025", "..\\..", "\\", "//server", "\\\\server\\share", "?", "*", "..;", ".. ",
    ]
)  # fmt: skip
SEPARATORS = st.sampled_from(["/", "\\", "//", "/./", "\\\\"])
PREFIXES = st.sampled_from(["", "", "", "/", "\\", "C:\\", "C:", "\\\\?\\", "//", "./", "~/"])


@st.composite
def hostile_paths(draw) -> str:
    parts = draw(st.lists(SEGMENTS, min_size=1, max_size=8))
    text = draw(PREFIXES)
    for index, part in enumerate(parts):
        text += part if index == 0 else draw(SEPARATORS) + part
    return text


PATHS = st.one_of(hostile_paths(), hostile_paths(), st.text(max_size=30))


def _landed_inside(root: Path, relative: str) -> bool:
    real = Path(os.path.realpath(root / relative))
    return real.is_relative_to(root.resolve())


def test_generated_paths_never_read_or_write_outside(hostile):
    session = Session(workspace=hostile)
    before = outside_state(hostile)
    root = hostile.resolve()

    @settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(PATHS)
    def check(path: str) -> None:
        wrote = session.execute({"action": "write_file", "path": path, "content": MARK})
        if wrote.ok:
            landed = wrote.data["path"]
            assert _landed_inside(root, landed)
            assert (root / landed).read_text() == MARK
        read = session.execute({"action": "read_file", "path": path})
        if read.ok:
            assert SECRET not in read.data
        else:
            refused = "error" in read.meta or read.message.startswith("invalid command")
            assert refused, read.message  # a refusal, not a crash
        assert outside_state(hostile) == before

    check()


def test_generated_paths_resolve_inside_or_are_refused(hostile):
    root = hostile.resolve()

    @settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(PATHS)
    def check(path: str) -> None:
        try:
            resolved = resolve(hostile, path)
        except SecurityError:
            return
        assert resolved.is_relative_to(root)
        assert Path(os.path.realpath(resolved)).is_relative_to(root)
        if resolved.exists():
            assert resolved.is_file() or resolved.is_dir()

    check()


class _CanvasOnly:
    """Just enough of a viewer for the screenshot handler: it writes where it is told."""

    def screenshot(self, path: str | None = None, canvas_only: bool = True):
        import numpy as np

        assert path is None, "the plugin writes the file itself, through the workspace gate"
        return np.zeros((4, 6, 4), np.uint8)


def test_the_viewers_screenshot_goes_through_the_sandbox(hostile):
    session = Session(_CanvasOnly(), workspace=hostile)
    os.mkfifo(hostile / "pipe.png")
    before = outside_state(hostile)
    escapes = ("out/shot.png", "chain1/shot.png", "sib/shot.png", "../shot.png", "/tmp/shot.png", "pipe.png")
    for path in escapes:
        result = session.execute({"action": "screenshot", "path": path})
        assert not result.ok and "security error" in result.message, (path, result.message)
    assert outside_state(hostile) == before
    assert session.execute({"action": "screenshot", "path": "figures/a.png"}).ok
    assert (hostile / "figures" / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
