"""The undo history: a budget in bytes, view changes that never push out a data change, and a
plain word when the oldest change had to go."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from conftest import HIGH_WATER

from napari_talk.core.basics.commands import Command
from napari_talk.core.basics.result import Result
from napari_talk.core.running.history import Changes, History
from napari_talk.core.running.session import Session


def _changes(size: int = 0) -> Changes:
    changes = Changes()
    changes.add(lambda: None, size=size)
    return changes


def _command(session: Session, **wire) -> Command:
    return session.registry.validate(wire)


def test_view_changes_never_push_out_a_data_change(session, workspace):
    assert session.execute({"action": "write_file", "path": "notes.md", "content": "mine"}).ok
    for n in range(250):
        assert session.execute({"action": "set_zoom", "zoom": 1 + n / 100}).ok
    actions = [entry.command.action for entry in session.history._done]
    assert actions.count("set_zoom") == session.history.max_view_entries
    assert actions[0] == "write_file", "the data change is still undoable"


def test_the_budget_is_in_bytes_and_the_oldest_going_is_said(tmp_path):
    session = Session(workspace=tmp_path)
    session.history = History(budget=3_000_000)
    write = _command(session, action="write_file", path="a.md", content="x")
    assert session.history.record(write, _changes(1_000_000), risk="data") == []
    assert session.history.record(write, _changes(1_000_000), risk="data") == []
    dropped = session.history.record(write, _changes(1_500_000), risk="data")
    assert len(dropped) == 1 and session.history.size <= 3_000_000 and len(session.history) == 2


def test_a_command_says_when_its_undo_pushed_out_the_oldest(tmp_path):
    session = Session(workspace=tmp_path)
    session.history = History(budget=4096)
    assert session.execute({"action": "write_file", "path": "a.md", "content": "first"}).ok
    said = None
    for n in range(40):
        result = session.execute({"action": "write_file", "path": f"n{n}.md", "content": "x"})
        if "undo memory is capped" in result.message:
            said = result
            break
    assert said is not None and "a.md" in said.message and said.meta["undo_dropped"]


def test_an_entry_larger_than_the_budget_is_not_kept(tmp_path):
    session = Session(workspace=tmp_path)
    history = History(budget=1000)
    write = _command(session, action="write_file", path="a.md", content="x")
    assert len(history.record(write, _changes(5000), risk="data")) == 1 and not history.can_undo


def test_removed_layers_are_kept_by_reference_and_counted(session, cells_viewer):
    nbytes = cells_viewer.layers["GFP"].data.nbytes
    assert session.execute({"action": "remove_layer", "name": "GFP"}).ok
    assert session.history.next_undo().size >= nbytes
    assert session.run("undo").ok and "GFP" in [layer.name for layer in cells_viewer.layers]


def test_many_large_undo_entries_stay_within_the_budget_in_memory(tmp_path):
    """A child process under a memory limit: 40 changes each keeping 64 MiB for undo would need
    2.5 GiB; the history keeps 256 MiB of them and the process stays well inside 1 GiB."""
    code = HIGH_WATER + textwrap.dedent(
        f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))
        import numpy as np
        from napari_talk.core.running.history import Changes, History
        from napari_talk.core.running.session import Session

        session = Session(workspace={str(tmp_path)!r})
        session.history = History(budget=256 * 2**20)
        command = session.registry.validate({{"action": "write_file", "path": "a", "content": "x"}})
        dropped = 0
        for n in range(40):
            kept = np.ones(64 * 2**20, np.uint8)
            changes = Changes()
            changes.add(lambda kept=kept: kept.sum(), size=kept.nbytes)
            dropped += len(session.history.record(command, changes, risk="data"))
            del kept, changes
        peak = hwm() // 1024
        print(dropped, session.history.size, peak)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    dropped, size, peak_mib = map(int, done.stdout.split())
    assert dropped >= 36 and size <= 256 * 2**20
    assert peak_mib < 1024, f"peak {peak_mib} MiB"


def test_undo_is_recorded_only_as_changes(tmp_path):
    """A bare function says neither what it keeps alive nor what undoing it now would replace."""
    session = Session(workspace=tmp_path)
    with pytest.raises(TypeError, match="undo is recorded as Changes, not function"):
        Result.success("done", undo=lambda: None)  # type: ignore[arg-type]
    command = _command(session, action="set_zoom", zoom=2)
    with pytest.raises(TypeError, match="undo is recorded as Changes, not function"):
        session.history.record(command, lambda: None)  # type: ignore[arg-type]
    assert not session.history.can_undo
    session.history.record(command, _changes())
    assert session.history.can_undo
