"""The files pack as a writer's file manager, through the dock on the files sample: each verb typed
as a person types it, its effect on disk, and undo of it; delete and overwrite wait for Run."""

from __future__ import annotations

from pathlib import Path

import pytest
from qtpy.QtCore import Qt
from support.door import open_door, said, type_line

from napari_talk.packs.files.samples import FILES

pytestmark = pytest.mark.filterwarnings("error:Private attribute access:FutureWarning")


@pytest.fixture
def door(make_napari_viewer_proxy, workspace):
    dock = open_door(make_napari_viewer_proxy, workspace)
    dock.viewer.open_sample("napari-talk", "files")
    return dock


def sample(workspace: Path) -> Path:
    return workspace / "sample"


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too) with its content."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def visible(folder: Path) -> dict[str, bytes]:
    return {path: data for path, data in tree(folder).items() if not path.startswith(".")}


def answer(qtbot, dock, run: bool):
    """Wait for the dock's question, then press Run or Cancel; the reply once the dock is idle."""
    button = dock.run_button if run else dock.cancel_button
    qtbot.waitUntil(lambda: button.isVisibleTo(dock), timeout=20_000)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dock.job is None and not button.isVisibleTo(dock), timeout=20_000)
    return said(dock)


def undo(qtbot, dock) -> str:
    entry = type_line(qtbot, dock, "undo")
    assert entry.text.startswith("undid"), entry.text
    return entry.text


def test_delete_asks_first_goes_to_the_trash_and_undo_puts_it_back(qtbot, door, workspace):
    before = visible(workspace)
    plan = sample(workspace) / "notes" / "plan.md"
    type_line(qtbot, door, "delete the plan")
    assert plan.exists(), "nothing is deleted before the person says Run"
    reply = answer(qtbot, door, run=True)
    assert not plan.exists() and "deleted sample/notes/plan.md" in reply.text
    trashed = [p for p in (workspace / ".trash").rglob("plan.md")]
    assert len(trashed) == 1 and trashed[0].read_text() == FILES["notes/plan.md"]
    assert "sample/notes/plan.md" not in type_line(qtbot, door, "list all files recursively").text
    undo(qtbot, door)
    assert visible(workspace) == before and not list((workspace / ".trash").rglob("*.md"))


def test_a_cancelled_delete_leaves_the_file(qtbot, door, workspace):
    before = tree(workspace)
    type_line(qtbot, door, "delete sample/chapters/ch01.md")
    reply = answer(qtbot, door, run=False)
    assert "not run" in reply.text and tree(workspace) == before


def test_deleting_a_folder_names_everything_in_it(qtbot, door, workspace):
    type_line(qtbot, door, "delete the folder chapters")
    qtbot.waitUntil(lambda: door.run_button.isVisibleTo(door), timeout=20_000)
    assert any("everything in it" in question for question, _ in door._questions)
    answer(qtbot, door, run=True)
    assert not (sample(workspace) / "chapters").exists()
    undo(qtbot, door)
    assert (sample(workspace) / "chapters" / "ch02.md").read_text() == FILES["chapters/ch02.md"]


def test_rename_keeps_the_folder_and_undo_renames_back(qtbot, door, workspace):
    before = visible(workspace)
    notes = sample(workspace) / "notes"
    type_line(qtbot, door, "rename sample/notes/a.md to b.md")
    assert not (notes / "a.md").exists() and (notes / "b.md").read_text() == FILES["notes/a.md"]
    undo(qtbot, door)
    assert visible(workspace) == before


def test_move_into_a_folder_named_as_people_say_it(qtbot, door, workspace):
    before = visible(workspace)
    entry = type_line(qtbot, door, "move the plan to the chapters folder")
    assert "moved sample/notes/plan.md to sample/chapters/plan.md" in entry.text
    assert (sample(workspace) / "chapters" / "plan.md").read_text() == FILES["notes/plan.md"]
    assert not (sample(workspace) / "notes" / "plan.md").exists()
    undo(qtbot, door)
    assert visible(workspace) == before


def test_moving_over_an_existing_file_asks_and_undo_brings_both_back(qtbot, door, workspace):
    before = visible(workspace)
    type_line(qtbot, door, "move sample/notes/a.md to sample/chapters/ch01.md")
    assert visible(workspace) == before, "nothing moves before the person says Run"
    answer(qtbot, door, run=True)
    assert (sample(workspace) / "chapters" / "ch01.md").read_text() == FILES["notes/a.md"]
    undo(qtbot, door)
    assert visible(workspace) == before


def test_copy_beside_the_original_and_undo_removes_the_copy(qtbot, door, workspace):
    before = visible(workspace)
    entry = type_line(qtbot, door, "copy chapter 1 to ch01-old.md")
    copy = sample(workspace) / "chapters" / "ch01-old.md"
    assert entry.kind == "reply" and copy.read_text() == FILES["chapters/ch01.md"]
    undo(qtbot, door)
    assert visible(workspace) == before


def test_copying_over_an_existing_file_asks_first(qtbot, door, workspace):
    before = visible(workspace)
    type_line(qtbot, door, "copy sample/chapters/ch01.md to sample/chapters/ch02.md")
    answer(qtbot, door, run=False)
    assert visible(workspace) == before
    type_line(qtbot, door, "copy sample/chapters/ch01.md to sample/chapters/ch02.md")
    answer(qtbot, door, run=True)
    assert (sample(workspace) / "chapters" / "ch02.md").read_text() == FILES["chapters/ch01.md"]
    undo(qtbot, door)
    assert visible(workspace) == before


def test_make_a_folder_and_undo_it(qtbot, door, workspace):
    type_line(qtbot, door, "make a folder drafts/old")
    assert (workspace / "drafts" / "old").is_dir()
    undo(qtbot, door)
    assert not (workspace / "drafts").exists()


def test_append_adds_a_line_at_the_end_and_undo_takes_it_off(qtbot, door, workspace):
    ch02 = sample(workspace) / "chapters" / "ch02.md"
    type_line(qtbot, door, "append 'The end.' to chapter 2")
    assert ch02.read_text() == FILES["chapters/ch02.md"] + "The end.\n"
    undo(qtbot, door)
    assert ch02.read_text() == FILES["chapters/ch02.md"]


def test_change_every_occurrence_and_undo(qtbot, door, workspace):
    notes = sample(workspace) / "notes" / "a.md"
    notes.write_text("teh cells divide; teh nuclei split; teh end\n")
    entry = type_line(qtbot, door, "in sample/notes/a.md change every teh to the")
    assert notes.read_text() == "the cells divide; the nuclei split; the end\n"
    assert "3 occurrences" in entry.text
    undo(qtbot, door)
    assert notes.read_text() == "teh cells divide; teh nuclei split; teh end\n"


def test_counts_of_a_file_and_of_a_folder(qtbot, door, workspace):
    text = FILES["chapters/ch01.md"]
    entry = type_line(qtbot, door, "how many words in chapter 1")
    assert f"{len(text.split())} words" in entry.text and f"{len(text)} characters" in entry.text
    both = FILES["chapters/ch01.md"] + FILES["chapters/ch02.md"]
    entry = type_line(qtbot, door, "count the words in chapters")
    assert f"{len(both.split())} words" in entry.text and f"{both.count(chr(10))} lines" in entry.text


def test_the_current_folder_is_where_typed_paths_start(qtbot, door, workspace):
    assert "sample/notes" in type_line(qtbot, door, "go into sample/notes").text
    assert "you are in sample/notes" in type_line(qtbot, door, "where am I").text
    assert FILES["notes/a.md"].strip() in type_line(qtbot, door, "read a.md").text
    type_line(qtbot, door, "write 'fresh' to new.md")
    assert (sample(workspace) / "notes" / "new.md").read_text() == "fresh"
    assert "now in sample" in type_line(qtbot, door, "up").text
    listed = type_line(qtbot, door, "what files are in here?").text
    assert (
        listed.startswith("sample: 2 entries") and "sample/notes/" in listed and "sample/chapters/" in listed
    )


def test_names_as_people_say_them(qtbot, door, workspace):
    assert FILES["notes/plan.md"].splitlines()[2] in type_line(qtbot, door, "open the plan").text
    assert "The castle stood" in type_line(qtbot, door, "show me chapter 1").text
    (sample(workspace) / "chapters" / "ch02.md").write_text("# Chapter 2\n\nA dragon slept.\n")
    found = type_line(qtbot, door, "find 'dragon' in chapters").text
    assert "sample/chapters/ch02.md:3" in found


def test_a_name_that_fits_two_files_is_asked_about_not_guessed(qtbot, door, workspace):
    (sample(workspace) / "chapters" / "plan.md").write_text("chapter plan\n")
    before = tree(workspace)
    entry = type_line(qtbot, door, "open the plan")
    assert entry.text == "which one: sample/chapters/plan.md or sample/notes/plan.md?"
    type_line(qtbot, door, "delete the plan")
    assert said(door).text == "which one: sample/chapters/plan.md or sample/notes/plan.md?"
    assert not door.run_button.isVisibleTo(door) and tree(workspace) == before


def test_what_the_pack_cannot_do_is_said_in_one_line_with_the_nearest(qtbot, door, workspace):
    before = tree(workspace)
    entry = type_line(qtbot, door, "zip the chapters folder")
    assert entry.text.startswith("zip sample/chapters: that is not something I can do.")
    assert "copy sample/chapters to backup" in entry.text and "\n" not in entry.text
    entry = type_line(qtbot, door, "email the plan to my editor")
    assert "not something I can do" in entry.text and "read sample/notes/plan.md" in entry.text
    assert tree(workspace) == before


# -- the sandbox holds for every new verb ----------------------------------------------------------


@pytest.fixture
def outside(tmp_path, workspace) -> Path:
    """A folder beside the workspace, reached from inside by a symlinked folder, a symlinked file
    and a hard link."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.md").write_text("secret words\n")
    (workspace / "out").symlink_to(folder)
    (workspace / "link.md").symlink_to(folder / "secret.md")
    (workspace / "hard.md").hardlink_to(folder / "secret.md")
    return folder


REFUSED = (
    "delete link.md",
    "delete out/secret.md",
    "delete hard.md",
    "rename ../outside/secret.md to mine.md",
    "rename hard.md to soft.md",
    "move link.md to sample/notes",
    "move sample/notes/plan.md to out/plan.md",
    "copy out/secret.md to stolen.md",
    "copy sample/notes/plan.md to out/plan.md",
    "copy hard.md to hard-copy.md",
    "make a folder out/new",
    "mkdir ../escape",
    "append 'x' to hard.md",
    "append 'x' to link.md",
    "append 'x' to ../outside/secret.md",
    "in link.md change every secret to open",
    "in hard.md change every secret to open",
    "how many words in out/secret.md",
    "wc ../outside/secret.md",
    "cd out",
    "go into the folder out",
    "cd ../outside",
)


def test_the_sandbox_holds_for_every_new_verb(qtbot, door, workspace, outside):
    before_outside = tree(outside)
    before_inside = {p: d for p, d in tree(workspace).items() if not p.startswith(("out/", "link", "hard"))}
    for line in REFUSED:
        entry = type_line(qtbot, door, line)
        assert entry.kind == "error", (line, entry.kind, entry.text)
        assert entry.text.startswith("security error:"), (line, entry.text)
        assert "Traceback" not in entry.text and "\n" not in entry.text.strip(), (line, entry.text)
        assert not door.run_button.isVisibleTo(door), f"{line}: refused before anything is asked"
        assert tree(outside) == before_outside, line
    after_inside = {p: d for p, d in tree(workspace).items() if not p.startswith(("out/", "link", "hard"))}
    assert after_inside == before_inside
    assert (workspace / "link.md").is_symlink() and (workspace / "hard.md").stat().st_nlink == 2
    assert "you are in the workspace" in type_line(qtbot, door, "where am I").text
