"""The file manager's verbs through a session, as agents call them: consent as a structured
refusal, names as people say them, and refusals that are one clear sentence."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from napari_talk.core.running.session import Session
from napari_talk.core.safety.risk import Consent, Effect, NeedsApproval, RiskPolicy
from napari_talk.packs.files import PACK
from napari_talk.packs.files.naming import spoken, spoken_names


@pytest.fixture
def files(workspace: Path) -> Session:
    (workspace / "notes").mkdir()
    (workspace / "notes" / "plan.md").write_text("# Plan\n\nthe plan\n")
    (workspace / "chapters").mkdir()
    (workspace / "chapters" / "ch01.md").write_text("# The Castle\n\nIt stood.\n")
    return Session(workspace=workspace)


def test_spoken_names_fold_to_one_key():
    assert spoken("Chapter 1") == spoken("ch01.md") == spoken("ch-1") == spoken("chapter 01") == "ch1"
    assert spoken("the plan") == spoken("plan.md") == "plan"
    assert spoken("chapter 10") != spoken("chapter 1")
    assert spoken("chapter one") == spoken("ch01.md") and spoken("Chapter Twelve") == spoken("ch12.md")
    assert spoken("someone.md") == "someone"  # a number word inside a word stays a word


def test_a_delete_waits_for_the_person_whoever_asks():
    effect = Effect.delete("notes/plan.md", "digest")
    for origin in ("person", "model", "agent"):
        with pytest.raises(NeedsApproval):
            Consent(origin=origin).require(effect)
    trusted = RiskPolicy(trust_with_data=True)
    assert not trusted.needs_person(effect, "model") and trusted.needs_person(effect, "person")


def test_an_agents_delete_is_a_structured_refusal_and_nothing_goes(files, workspace):
    result = files.execute({"action": "delete_file", "path": "notes/plan.md"}, origin="agent")
    assert not result.ok and result.meta["error"] == "needs_approval"
    assert result.meta["approval"]["effects"] == [{"kind": "delete", "what": "notes/plan.md"}]
    assert (workspace / "notes" / "plan.md").exists()


def test_the_parser_is_offered_the_trees_names(files):
    names = spoken_names(files.context(PACK))
    said = {"plan", "plan.md", "notes/plan.md", "chapter 1", "chapter one", "The Castle"}
    assert said <= set(names["files"])
    assert {"notes", "chapters"} <= set(names["folders"])


def test_a_chapter_said_in_words_is_edited_and_undone(files, workspace):
    assert files.run("in chapter one, change 'stood' to 'fell'").results[-1].ok
    assert (workspace / "chapters" / "ch01.md").read_text() == "# The Castle\n\nIt fell.\n"
    assert files.run("undo").results[-1].ok
    assert (workspace / "chapters" / "ch01.md").read_text() == "# The Castle\n\nIt stood.\n"


def test_a_title_finds_its_file(files, workspace):
    text = (workspace / "chapters" / "ch01.md").read_text()
    result = files.run("how many words in the castle").results[-1]
    assert result.ok, result.message
    assert result.data == {
        "path": "chapters/ch01.md",
        "lines": 3,
        "words": len(text.split()),
        "characters": len(text),
    }


def test_a_folder_is_not_moved_into_itself(files, workspace):
    result = files.execute({"action": "move_file", "source": "notes", "destination": "notes/inner/notes"})
    assert not result.ok and "inside" in result.message and (workspace / "notes" / "plan.md").exists()


def test_copying_a_folder_says_it_cannot(files):
    result = files.execute({"action": "copy_file", "source": "notes", "destination": "notes2"})
    assert not result.ok and "copying folders is not something I can do" in result.message


def test_a_fifo_is_neither_deleted_nor_moved(files, workspace):
    os.mkfifo(workspace / "pipe")
    for wire in (
        {"action": "delete_file", "path": "pipe"},
        {"action": "move_file", "source": "pipe", "destination": "notes/pipe"},
    ):
        result = files.execute(wire)
        assert not result.ok and result.message.startswith("security error:") and "FIFO" in result.message
    assert (workspace / "pipe").exists()


def test_a_name_not_in_the_tree_is_the_usual_not_found(files):
    result = files.execute({"action": "read_file", "path": "the outline"})
    assert (
        not result.ok
        and result.meta["error"] == "NotFound"
        and result.message == ("outline does not exist in the workspace")
    )


def test_a_model_may_name_a_file_by_its_path_when_the_line_says_its_stem(workspace, chat_server):
    """ "summarize the plan" answered with read_file notes/plan.md: the stem the parser knows is a
    way of saying the file, not a name the model's reply must repeat."""
    from support.chat_server import tool_call

    from napari_talk.core.chat.settings import LLMSettings
    from napari_talk.core.llm.road import LLMRoad

    (workspace / "notes").mkdir()
    (workspace / "notes" / "plan.md").write_text("# Plan\n\nimage the series\n")
    session = Session(None, workspace=workspace)
    settings = LLMSettings(model="scripted", base_url=chat_server.url, timeout=5, max_retries=0, mode="tools")
    session.llm = LLMRoad(session.registry, settings)
    chat_server.say(tool_calls=[tool_call("read_file", {"path": "notes/plan.md"})])
    chat_server.say("It says to image the series.")
    turn = session.run("summarize the plan for me, in your words")
    assert [c.action for c in turn.commands] == ["read_file"], turn.message
    assert turn.results[0].ok and "image the series" in turn.results[0].data
