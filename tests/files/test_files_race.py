"""The sandbox holds under a race: a workspace folder swapped back and forth with a symlink to an
outside folder, by another process, while searches, listings, reads, writes and edits run.

The swapper exchanges the real folder and a symlink to the outside folder (``renameat2`` with
``RENAME_EXCHANGE``, Linux), and back, as fast as it can, in its own process (a second core: no GIL
between it and the session).
Every answer is checked for the outside folder's secret line and file name, and the outside
folder is checked afterwards for anything written there.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from napari_talk.core.running.session import Session

SECRET = "needle SECRET-LINE-FROM-OUTSIDE"
SECRET_NAME = "outside-only-secret-name.txt"
INSIDE = "needle inside the workspace"
ROUNDS = 60
linux_only = pytest.mark.skipif(sys.platform != "linux", reason="the swapper uses Linux's renameat2")

SWAPPER = r"""
import ctypes, os, sys
workspace, outside = sys.argv[1], sys.argv[2]
data, link = os.path.join(workspace, "data"), os.path.join(workspace, ".link")
os.symlink(outside, link)
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2

def exchange():  # renameat2(2): both names swapped in one step, neither ever missing
    if libc.renameat2(AT_FDCWD, data.encode(), AT_FDCWD, link.encode(), RENAME_EXCHANGE) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))

swaps = 0
print("READY", flush=True)
while not os.path.exists(os.path.join(workspace, ".stop")):
    exchange()  # data: the symlink to the outside folder (the real folder is .link)
    exchange()  # data: the real folder again
    swaps += 1
print(swaps, flush=True)
"""


class Swapper:
    """The other process, swapping ``data`` with a symlink to ``outside`` until :meth:`stop`."""

    def __init__(self, workspace: Path, outside: Path) -> None:
        self.workspace, self.outside = workspace, outside
        self.process = subprocess.Popen(
            [sys.executable, "-c", SWAPPER, str(workspace), str(outside)], stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None and self.process.stdout.readline().strip() == "READY"

    def stop(self) -> int:
        """Stop it (``data`` is the real folder again); how many times it swapped."""
        (self.workspace / ".stop").write_text("")
        out = self.process.communicate(timeout=30)[0]
        assert self.process.returncode == 0
        swaps = int(out.strip())
        assert swaps > 100, f"the swapper swapped only {swaps} times: no race was run"
        return swaps


@pytest.fixture
def swapper(workspace: Path):
    """The workspace, its ``data`` folder swapped with a symlink to an outside folder that holds a
    secret line under a name the workspace does not have."""
    outside = workspace.parent / "outside"
    outside.mkdir()
    (outside / SECRET_NAME).write_text(f"{SECRET}\n")
    (outside / "plan.md").write_text(f"{SECRET}\n")
    data = workspace / "data"
    (data / "deeper").mkdir(parents=True)
    (data / "plan.md").write_text(f"{INSIDE}\n")
    (data / "deeper" / "notes.md").write_text(f"{INSIDE}\n")
    running = Swapper(workspace, outside)
    try:
        yield running
    finally:
        if running.process.poll() is None:
            (workspace / ".stop").write_text("")
            running.process.wait(timeout=30)


def outside_files(outside: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in outside.iterdir()}


def assert_nothing_from_outside(result, what: str) -> None:
    text = f"{result.message}\n{result.data!r}"
    assert "SECRET-LINE-FROM-OUTSIDE" not in text, (what, result.message)
    assert SECRET_NAME not in text, (what, result.message)
    if not result.ok:  # a refusal says why in a sentence, never a stack trace
        assert "error" in result.meta and "Traceback" not in result.message, (what, result.message)


@linux_only
def test_searches_and_listings_never_show_the_outside_folder_during_a_swap_race(workspace, swapper):
    session = Session(workspace=workspace)
    before = outside_files(swapper.outside)
    found_inside = refused = 0
    started = time.monotonic()
    for round_ in range(ROUNDS):
        for directory in (".", "data"):
            searched = session.execute({"action": "search_code", "query": "needle", "directory": directory})
            assert_nothing_from_outside(searched, f"search in {directory}")
            found_inside += searched.ok and any(m["text"] == INSIDE for m in searched.data)
            refused += not searched.ok
            listed = session.execute({"action": "list_files", "directory": directory, "recursive": True})
            assert_nothing_from_outside(listed, f"listing of {directory}")
            refused += not listed.ok
        if round_ % 10 == 0:  # the regular-expression search runs in a child process
            searched = session.execute({"action": "search_code", "query": r"need\w+", "regex": True})
            assert_nothing_from_outside(searched, "regex search")
    swapper.stop()
    assert found_inside > 0, "no search found the inside line: the searches never ran"
    assert refused > 0, "no search or listing met the symlink: the race never happened"
    assert outside_files(swapper.outside) == before
    assert time.monotonic() - started < 60


@linux_only
def test_reads_writes_and_edits_never_reach_the_outside_folder_during_a_swap_race(workspace, swapper):
    session = Session(workspace=workspace)
    before = outside_files(swapper.outside)
    wrote = 0
    for round_ in range(ROUNDS * 2):
        for path in ("data/plan.md", "data/deeper/notes.md"):
            read = session.execute({"action": "read_file", "path": path})
            assert_nothing_from_outside(read, f"read {path}")
        only_outside = session.execute({"action": "read_file", "path": f"data/{SECRET_NAME}"})
        assert not only_outside.ok and "SECRET-LINE-FROM-OUTSIDE" not in only_outside.message
        written = session.execute({"action": "write_file", "path": f"data/new-{round_}.txt", "content": "x"})
        assert_nothing_from_outside(written, "write")
        wrote += written.ok
        edit = {"action": "edit_file", "path": "data/plan.md", "search_text": "needle", "replace_text": "n"}
        edited = session.execute(edit, ask=lambda approval: True)
        assert_nothing_from_outside(edited, "edit")
    swapper.stop()
    assert wrote > 0, "no write got through: the writes never ran"
    assert outside_files(swapper.outside) == before
    written = sorted(p.name for p in (workspace / "data").iterdir() if p.name.startswith("new-"))
    assert len(written) == wrote


# -- the same furniture, standing still: refused with a sentence ----------------------------------


@pytest.fixture
def linked(workspace: Path) -> Path:
    outside = workspace.parent / "outside"
    outside.mkdir()
    (outside / SECRET_NAME).write_text(f"{SECRET}\n")
    (workspace / "data").symlink_to(outside)
    (workspace / "notes.md").write_text(f"{INSIDE}\n")
    return workspace


@pytest.mark.parametrize("action", ["list_files", "search_code"])
def test_a_folder_that_is_a_symlink_out_is_refused_with_a_sentence(linked, action):
    params = {"query": "needle"} if action == "search_code" else {}
    result = Session(workspace=linked).execute({"action": action, "directory": "data", **params})
    assert not result.ok and result.meta["error"] == "SecurityError"
    assert result.message.startswith("security error: 'data' refused: ") and "outside" in result.message
    assert_nothing_from_outside(result, action)


def test_a_symlink_out_is_listed_as_a_symlink_and_not_searched(linked):
    session = Session(workspace=linked)
    listed = session.execute({"action": "list_files", "recursive": True})
    assert [(e["path"], e["kind"]) for e in listed.data] == [("data", "symlink"), ("notes.md", "file")]
    searched = session.execute({"action": "search_code", "query": "needle"})
    assert [m["path"] for m in searched.data] == ["notes.md"]
