"""The files pack's tools on real files in the test's workspace, answered in the seed's envelope."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from napari_talk.core.running.session import Session
from napari_talk.packs.files import handlers, limits
from napari_talk.packs.files.envelope import envelope


@pytest.fixture
def files(workspace: Path) -> Session:
    return Session(workspace=workspace)


def run(session: Session, action: str, **params):
    return session.execute({"action": action, **params})


def ok(session: Session, action: str, **params):
    result = run(session, action, **params)
    assert result.ok, result.message
    return result


# -- the envelope ---------------------------------------------------------------------------------


def test_results_are_the_seed_envelope_exactly(files):
    wrote = envelope(ok(files, "write_file", path="a.txt", content="héllo"))
    assert set(wrote) == {"status", "data", "meta"}
    assert wrote["status"] == "success"
    assert wrote["meta"]["bytes_written"] == len("héllo".encode()) == 6
    assert wrote["meta"]["execution_time"] >= 0
    failed = envelope(run(files, "read_file", path="missing.txt"))
    assert failed["status"] == "error"
    assert failed["data"] == "missing.txt does not exist in the workspace"
    assert failed["meta"]["error"] == "NotFound" and "execution_time" in failed["meta"]


def test_agents_get_the_envelope_as_json(files):
    import json

    from napari_talk.packs.files import PACK

    result = ok(files, "write_file", path="a.txt", content="x")
    assert json.loads(handlers.format_for_agent(None, result)) == envelope(result)
    if hasattr(PACK, "format_for_agent"):
        assert json.loads(PACK.format_for_agent(None, result))["meta"]["bytes_written"] == 1


# -- read_file ------------------------------------------------------------------------------------


def test_read_returns_utf8_text_with_its_newlines(files, workspace):
    (workspace / "ch01.md").write_bytes("Ünïcode\r\nline two\n".encode())
    result = ok(files, "read_file", path="ch01.md")
    assert result.data == "Ünïcode\r\nline two\n"
    assert result.meta["size"] == len("Ünïcode\r\nline two\n".encode())


def test_reading_binary_names_the_size(files, workspace):
    (workspace / "image.bin").write_bytes(b"\x89PNG\x00\x01\x02" * 100)
    result = run(files, "read_file", path="image.bin")
    assert not result.ok and result.meta["error"] == "BinaryFile"
    assert "700 bytes" in result.message and "not UTF-8 text" in result.message


def test_reading_latin1_is_refused_as_not_utf8(files, workspace):
    (workspace / "old.txt").write_bytes("café".encode("latin-1"))
    result = run(files, "read_file", path="old.txt")
    assert result.meta["error"] == "BinaryFile" and "byte 3" in result.message


def test_reading_an_over_size_file_names_size_and_limit(files, workspace, monkeypatch):
    monkeypatch.setattr(handlers, "TEXT_MAX_BYTES", 1000)
    (workspace / "big.txt").write_text("x" * 1001)
    result = run(files, "read_file", path="big.txt")
    assert result.meta["error"] == "TooLarge"
    assert "1,001 bytes" in result.message and "1,000 bytes" in result.message


def test_reading_a_folder_says_how_to_list_it(files, workspace):
    (workspace / "notes").mkdir()
    result = run(files, "read_file", path="notes")
    assert result.meta["error"] == "IsAFolder" and "list files in notes" in result.message


def test_the_dock_shows_a_long_file_cut_but_data_has_all(files, workspace):
    (workspace / "long.txt").write_text("y" * (limits.SHOWN_CHARS + 500))
    result = ok(files, "read_file", path="long.txt")
    assert len(result.data) == limits.SHOWN_CHARS + 500
    assert "500 more characters" in result.message


# -- write_file -----------------------------------------------------------------------------------


def test_write_creates_parents_and_reports_bytes(files, workspace):
    result = ok(files, "write_file", path="a/b/c.md", content="€uro")
    assert (workspace / "a" / "b" / "c.md").read_text(encoding="utf-8") == "€uro"
    assert result.meta["bytes_written"] == 6 and result.meta["created"] is True
    assert result.data == {"path": "a/b/c.md", "size": 6}


def test_write_overwrites_completely_keeps_the_mode_and_leaves_no_temporary(files, workspace):
    target = workspace / "plan.md"
    target.write_text("a much longer original text")
    target.chmod(0o640)
    ok(files, "write_file", path="plan.md", content="short")
    assert target.read_text() == "short"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in workspace.iterdir()) == ["plan.md"]


def test_write_over_the_limit_is_refused_and_nothing_changes(files, workspace, monkeypatch):
    monkeypatch.setattr(handlers, "TEXT_MAX_BYTES", 10)
    result = run(files, "write_file", path="a.txt", content="x" * 11)
    assert result.meta["error"] == "TooLarge" and not (workspace / "a.txt").exists()


def test_write_to_a_folder_is_refused(files, workspace):
    (workspace / "notes").mkdir()
    assert run(files, "write_file", path="notes", content="x").meta["error"] == "IsAFolder"


def test_undo_and_redo_a_write(files, workspace):
    target = workspace / "a.txt"
    target.write_text("old")
    ok(files, "write_file", path="a.txt", content="new")
    ok(files, "write_file", path="fresh.txt", content="made")
    assert files.undo().ok and not (workspace / "fresh.txt").exists()
    assert files.undo().ok and target.read_text() == "old"
    assert files.redo().ok and target.read_text() == "new"


def test_earlier_contents_count_in_the_history_budget_and_the_oldest_goes_with_a_plain_message(
    files, workspace
):
    """Each overwrite keeps the file's earlier 1 MiB for undo: those bytes count in the history's
    budget, so once they would pass it the oldest write's undo goes, and the reply says which."""
    files.history.budget = 4 * 2**20
    for n in range(6):
        (workspace / f"{n}.txt").write_bytes(bytes([65 + n]) * 2**20)
    replies = [ok(files, "write_file", path=f"{n}.txt", content="new") for n in range(6)]
    assert all("had to go" not in reply.message for reply in replies[:3])
    said = "(4 MiB): the oldest change that could be undone had to go: “wrote 3 bytes to 0.txt.”"
    assert said in replies[3].message, replies[3].message
    assert replies[3].meta["undo_dropped"][0]["path"] == "0.txt"
    assert files.history.size <= files.history.budget
    undone = [files.undo() for _ in range(6)]
    kept = [n for n in range(6) if (workspace / f"{n}.txt").read_bytes()[:1] == bytes([65 + n])]
    assert kept == [3, 4, 5] and [u.ok for u in undone] == [True] * 3 + [False] * 3


# -- edit_file ------------------------------------------------------------------------------------


def test_edit_replaces_the_first_occurrence_and_counts_them(files, workspace):
    (workspace / "a.md").write_text("teh cat and teh dog\nteh end\n")
    result = ok(files, "edit_file", path="a.md", search_text="teh", replace_text="the")
    assert (workspace / "a.md").read_text() == "the cat and teh dog\nteh end\n"
    assert result.meta["occurrences"] == 3 and result.meta["replaced"] == 1
    assert result.meta["bytes_written"] == len("the cat and teh dog\nteh end\n")
    assert files.undo().ok and (workspace / "a.md").read_text() == "teh cat and teh dog\nteh end\n"


def test_edit_without_a_match_is_text_not_found(files, workspace):
    (workspace / "a.md").write_text("nothing here")
    result = run(files, "edit_file", path="a.md", search_text="castle", replace_text="keep")
    assert envelope(result)["data"].startswith("Text not found")
    assert result.meta["error"] == "TextNotFound"
    assert (workspace / "a.md").read_text() == "nothing here"


def test_edit_keeps_crlf_and_other_bytes_untouched(files, workspace):
    (workspace / "w.txt").write_bytes(b"one\r\ntwo\r\n")
    ok(files, "edit_file", path="w.txt", search_text="two", replace_text="2")
    assert (workspace / "w.txt").read_bytes() == b"one\r\n2\r\n"


def test_edit_of_a_missing_file_is_not_found(files):
    result = run(files, "edit_file", path="nope.md", search_text="a", replace_text="b")
    assert result.meta["error"] == "NotFound"


# -- list_files -----------------------------------------------------------------------------------


@pytest.fixture
def tree(workspace: Path) -> Path:
    (workspace / "manuscripts" / "drafts").mkdir(parents=True)
    (workspace / "manuscripts" / "ch01.md").write_text("Chapter one")
    (workspace / "manuscripts" / "drafts" / "ch02.md").write_text("Chapter two\nThe castle gate\n")
    (workspace / "notes.txt").write_text("castle notes")
    (workspace / ".napari-talk").mkdir()
    (workspace / ".napari-talk" / "tasks.jsonl").write_text("")
    return workspace


def test_list_gives_name_path_size_time_and_kind(files, tree):
    result = ok(files, "list_files")
    assert [(e["name"], e["path"], e["kind"]) for e in result.data] == [
        ("manuscripts", "manuscripts", "directory"),
        ("notes.txt", "notes.txt", "file"),
    ]
    note = result.data[1]
    assert note["size"] == len("castle notes")
    assert note["mod_time"].startswith(time.strftime("%Y", time.gmtime()))


def test_list_a_subfolder_recursively(files, tree):
    result = ok(files, "list_files", directory="manuscripts", recursive=True)
    assert [e["path"] for e in result.data] == [
        "manuscripts/ch01.md",
        "manuscripts/drafts",
        "manuscripts/drafts/ch02.md",
    ]
    assert result.meta["count"] == 3 and result.meta["truncated"] is False


def test_list_shows_links_and_fifos_without_following_them(files, tree):
    outside = tree.parent / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("x")
    (tree / "escape").symlink_to(outside)
    os.mkfifo(tree / "pipe")
    result = ok(files, "list_files", recursive=True)
    kinds = {e["path"]: e["kind"] for e in result.data}
    assert kinds["escape"] == "symlink" and kinds["pipe"] == "other"
    assert not any(p.startswith("escape/") for p in kinds)


def test_list_is_capped(files, workspace, monkeypatch):
    monkeypatch.setattr(handlers, "LIST_MAX_ENTRIES", 5)
    for index in range(8):
        (workspace / f"f{index}.txt").write_text("x")
    result = ok(files, "list_files")
    assert len(result.data) == 5 and result.meta["truncated"] is True


def test_listing_a_file_or_a_missing_folder_is_a_clear_error(files, tree):
    assert run(files, "list_files", directory="notes.txt").meta["error"] == "NotAFolder"
    assert run(files, "list_files", directory="nowhere").meta["error"] == "NotFound"


# -- search_code ----------------------------------------------------------------------------------


def test_search_finds_lines_case_insensitively(files, tree):
    result = ok(files, "search_code", query="CASTLE")
    assert result.data == [
        {"path": "manuscripts/drafts/ch02.md", "line": 2, "text": "The castle gate"},
        {"path": "notes.txt", "line": 1, "text": "castle notes"},
    ]
    assert result.meta["truncated"] is False and result.meta["files_searched"] == 3


def test_search_case_sensitive_and_in_a_folder(files, tree):
    assert ok(files, "search_code", query="CASTLE", case_sensitive=True).data == []
    found = ok(files, "search_code", query="chapter", directory="manuscripts").data
    assert [m["path"] for m in found] == ["manuscripts/ch01.md", "manuscripts/drafts/ch02.md"]


def test_search_a_regular_expression(files, tree):
    found = ok(files, "search_code", query=r"^chapter \w+$", regex=True).data
    assert [(m["path"], m["line"]) for m in found] == [
        ("manuscripts/ch01.md", 1),
        ("manuscripts/drafts/ch02.md", 1),
    ]


def test_search_non_ascii_case_insensitively(files, workspace):
    (workspace / "a.md").write_text("line\nÉcole et école\n")
    found = ok(files, "search_code", query="ÉCOLE").data
    assert found == [{"path": "a.md", "line": 2, "text": "École et école"}]


def test_search_is_capped_and_says_so(files, workspace):
    (workspace / "many.txt").write_text("needle\n" * 30)
    result = ok(files, "search_code", query="needle", max_results=10)
    assert len(result.data) == 10 and result.meta["truncated"] is True
    assert "stopped at 10" in result.message


def test_search_skips_binary_huge_hidden_and_linked_files(files, workspace, monkeypatch):
    monkeypatch.setattr(handlers, "SEARCH_FILE_MAX_BYTES", 100)
    (workspace / "text.txt").write_text("needle")
    (workspace / "blob.bin").write_bytes(b"\x00needle")
    (workspace / "huge.txt").write_text("needle " * 50)
    (workspace / ".hidden.txt").write_text("needle")
    outside = workspace.parent / "outside.txt"
    outside.write_text("needle outside")
    (workspace / "link.txt").symlink_to(outside)
    result = ok(files, "search_code", query="needle")
    assert [m["path"] for m in result.data] == ["text.txt"]
    assert result.meta["skipped"] == {"binary": 1, "too_large": 1, "unreadable": 0, "hard_linked": 0}


def test_an_invalid_regex_is_a_clear_error(files, tree):
    result = run(files, "search_code", query="(unclosed", regex=True)
    assert result.meta["error"] == "InvalidRegex"
    assert "missing )" in result.message and "position 0" in result.message


def test_a_pathological_regex_is_stopped_in_time(files, workspace, monkeypatch):
    monkeypatch.setattr(handlers, "REGEX_TIMEOUT_S", 1.0)
    (workspace / "trap.txt").write_text("a" * 40 + "!")
    started = time.perf_counter()
    result = run(files, "search_code", query="(a+)+$", regex=True)
    assert time.perf_counter() - started < 5
    assert result.meta["error"] == "Timeout" and "took longer than 1 s" in result.message


@pytest.mark.skipif(os.name != "posix", reason="the child's own alarm is POSIX's SIGALRM")
def test_a_regex_search_child_ends_itself_when_its_parent_is_gone(workspace):
    """The parent that would kill the child at the timeout may have exited (``napari-talk mcp``
    whose client went): the child's own alarm ends it shortly after the timeout."""
    import json
    import signal
    import subprocess
    import sys

    from napari_talk.packs.files import search

    (workspace / "trap.txt").write_text("a" * 60 + "!")
    folder = os.open(workspace, os.O_RDONLY | os.O_DIRECTORY)
    request = {"folder_fd": folder, "folder": "", "only": None, "query": "(a+)+$", "regex": True,
               "case_sensitive": False, "max_results": 10, "max_file_bytes": 1 << 20}  # fmt: skip
    try:
        child = subprocess.Popen(
            [sys.executable, "-I", search.__file__, "1"], stdin=subprocess.PIPE, pass_fds=(folder,)
        )
        child.communicate(json.dumps(request).encode(), timeout=10)
    finally:
        os.close(folder)
    assert child.returncode == -signal.SIGALRM


def test_search_a_single_file_and_a_missing_folder(files, tree):
    found = ok(files, "search_code", query="castle", directory="notes.txt").data
    assert found == [{"path": "notes.txt", "line": 1, "text": "castle notes"}]
    assert run(files, "search_code", query="x", directory="nowhere").meta["error"] == "NotFound"


def test_search_cuts_very_long_lines_around_the_match(files, workspace):
    (workspace / "wide.txt").write_text("x" * 5000 + "needle" + "y" * 5000)
    (text,) = [m["text"] for m in ok(files, "search_code", query="needle").data]
    assert "needle" in text and len(text) <= 400


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc/self/fd")
def test_listings_and_searches_stopped_at_their_limit_leave_no_folder_open(files, workspace, monkeypatch):
    """The walk holds a descriptor per folder level; stopping early closes them at once."""
    monkeypatch.setattr(handlers, "LIST_MAX_ENTRIES", 3)
    for depth in range(1, 6):
        folder = workspace.joinpath(*[f"d{level}" for level in range(depth)])
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "a.txt").write_text("needle\n")
        (folder / "b.txt").write_text("needle\n")
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(20):
        assert ok(files, "list_files", recursive=True).meta["truncated"] is True
        assert ok(files, "search_code", query="needle", max_results=2).meta["truncated"] is True
    assert len(os.listdir("/proc/self/fd")) == before
