"""What the road makes of a model's answer: words answer questions only and never claim what no
command did; "no command" is an answer; a command that needs the person's agreement goes to the
person, not back to the model; two small steps; the semantic router; the one-line reply to a line
nobody understood. A real HTTP server on 127.0.0.1 and the real openai client."""

from __future__ import annotations

import json
from typing import ClassVar

import pytest
from support.chat_server import ChatServer, tool_call

from napari_talk.core.basics.commands import Command, Risk
from napari_talk.core.basics.result import Result
from napari_talk.core.chat.settings import LLMSettings
from napari_talk.core.contract.pack import Handlers, Pack
from napari_talk.core.contract.registry import Registry, installed_packs
from napari_talk.core.llm.road import LLMRoad
from napari_talk.core.llm.router import Router
from napari_talk.core.running.session import Session
from napari_talk.core.safety.risk import Effect


@pytest.fixture
def server():
    with ChatServer() as running:
        yield running


def session_with_model(tmp_path, server: ChatServer, registry: Registry | None = None, **settings) -> Session:
    session = Session(None, workspace=tmp_path, registry=registry)
    options = {"model": "scripted", "base_url": server.url, "timeout": 5, "max_retries": 0, **settings}
    session.llm = LLMRoad(session.registry, LLMSettings(**options))
    return session


@pytest.mark.parametrize(
    "words",
    ["The yellow dots have been removed.", "Sure! I've hidden GFP for you.", "Done."],
)
def test_a_reply_claiming_an_action_is_never_shown_as_done(tmp_path, server, words):
    session = session_with_model(tmp_path, server, mode="json")
    server.say(json.dumps({"say": words}))
    turn = session.run("banish the yellow dots from my sight")
    assert not turn.ok and turn.spoken is None
    assert turn.message.startswith("I did not understand"), turn.message
    assert "The model suggested (nothing was done)" in turn.message
    assert turn.results[0].meta.get("understood") is False


def test_an_imperative_line_answered_in_words_is_not_understood_with_the_words_as_a_suggestion(
    tmp_path, server
):
    session = session_with_model(tmp_path, server, mode="json")
    server.say(json.dumps({"say": "Try the layer controls to change the blending."}))
    turn = session.run("blend the channels additively")
    assert not turn.ok and turn.spoken is None
    assert "The model suggested (nothing was done): Try the layer controls" in turn.message
    assert "\n" not in turn.message, "one line"


def test_a_question_answered_in_words_is_an_answer(tmp_path, server):
    session = session_with_model(tmp_path, server, mode="json")
    server.say(json.dumps({"say": "GFP is a green fluorescent protein."}))
    turn = session.run("what is GFP anyway?")
    assert turn.ok and turn.spoken == "GFP is a green fluorescent protein."


@pytest.mark.parametrize(
    "question",
    [
        "are there rays between 10% and 40% polarized in the current scene?",
        "how many files mention the dragon?",
        "do any of my chapters end happily?",
    ],
)
def test_a_question_about_the_data_answered_in_words_alone_shows_no_words(tmp_path, server, question):
    session = session_with_model(tmp_path, server, mode="json")
    words = "There are none of those in the current scene."
    server.say(json.dumps({"say": words}))
    turn = session.run(question)
    assert not turn.ok and turn.spoken is None
    assert words not in turn.message and "without reading anything" in turn.message
    assert turn.results[0].meta.get("understood") is False


def test_a_question_naming_a_live_layer_is_about_the_data(tmp_path, server, make_napari_viewer):
    import numpy as np

    viewer = make_napari_viewer()
    viewer.add_image(np.zeros((4, 4)), name="membrane")
    session = Session(viewer, workspace=tmp_path)
    options = {"model": "scripted", "base_url": server.url, "timeout": 5, "max_retries": 0, "mode": "json"}
    session.llm = LLMRoad(session.registry, LLMSettings(**options))
    server.say(json.dumps({"say": "membrane looks fine to me, its contrast is good."}))
    turn = session.run("is membrane too dim?")
    assert not turn.ok and turn.spoken is None and "looks fine" not in turn.message


def test_no_command_is_an_answer_and_nothing_runs(tmp_path, server):
    session = session_with_model(tmp_path, server, mode="schema", schema_form="json_object")
    server.say(json.dumps({"commands": []}))
    turn = session.run("zoom meeting notes from this morning")
    assert turn.commands == [] and not turn.ok
    assert turn.message.startswith("I did not understand")
    schema = server.requests[0]["response_format"]["schema"]
    listed = schema["anyOf"][0]["properties"]["commands"]
    assert "minItems" not in listed, "an empty list of commands is allowed"


def test_steps_first_choose_then_fill_each_under_its_own_schema(tmp_path, server):
    session = session_with_model(tmp_path, server, mode="steps", schema_form="json_object")
    server.say(json.dumps({"commands": ["write_file"]}))
    server.say(json.dumps({"path": "todo.txt", "content": "calibrate"}))  # one command: its parameters
    outcome = session.ask_llm("jot down calibrate in todo.txt")
    assert [c.to_wire() for c in outcome.commands] == [
        {"action": "write_file", "path": "todo.txt", "content": "calibrate"}
    ]
    choose, fill = server.requests
    options = choose["response_format"]["schema"]["properties"]["commands"]["items"]["enum"]
    assert "write_file" in options and "no_command" in options and "answer" in options
    assert len(json.dumps(choose)) < len(json.dumps(fill)) * 2
    alone, none = fill["response_format"]["schema"]["anyOf"]
    assert {"path", "content"} <= set(alone["required"]) and "action" not in alone["properties"]
    assert none["properties"]["action"]["const"] == "no_command"


def test_steps_fill_of_two_commands_names_each(tmp_path, server):
    session = session_with_model(tmp_path, server, mode="steps", schema_form="json_object")
    server.say(json.dumps({"commands": ["layer_visibility", "zoom_by"]}))
    hide = {"action": "layer_visibility", "name": "nuclei", "op": "hide"}
    server.say(json.dumps({"commands": [hide, {"action": "zoom_by", "factor": 2}]}))
    outcome = session.ask_llm("make nuclei go away and then 2x closer pls")
    assert [c.action for c in outcome.commands] == ["layer_visibility", "zoom_by"]
    items = server.requests[1]["response_format"]["schema"]["properties"]["commands"]["items"]["anyOf"]
    offered = {i["properties"]["action"]["const"] for i in items}
    assert offered == {"layer_visibility", "zoom_by", "no_command"}


@pytest.mark.parametrize("first", [["no_command"], ["answer", "write_file"]])
def test_steps_no_command_runs_nothing(tmp_path, server, first):
    session = session_with_model(tmp_path, server, mode="steps", schema_form="json_object")
    server.say(json.dumps({"commands": first}))
    server.say("Lovely, isn't it.")
    turn = session.run("lovely colours today")
    assert turn.commands == [] and not turn.ok
    assert len(server.requests) == (1 if first == ["no_command"] else 2)


def test_steps_a_fill_that_declines_runs_nothing(tmp_path, server):
    session = session_with_model(tmp_path, server, mode="steps", schema_form="json_object")
    server.say(json.dumps({"commands": ["panel_toggle"]}))
    server.say(json.dumps({"commands": [{"action": "no_command"}]}))
    turn = session.run("open my email")
    assert turn.commands == [] and turn.message.startswith("I did not understand")


class Peek(Command, action="peek_url"):
    """Look at a web page."""

    risk: ClassVar[Risk] = "read"
    examples: ClassVar[tuple[str, ...]] = ("peek at https://example.org",)
    no_rule: ClassVar[str] = "only a model asks for it"
    url: str
    examples: ClassVar = ("peek at https://example.org/",)
    no_rule: ClassVar = "only a model asks for it, in these tests"


PEEKS = Handlers[None]()


@PEEKS.on(Peek)
def _peek(command: Peek, ctx) -> Result:
    return Result.success(f"peeked at {command.url}")


class PeekPack(Pack[None]):
    def risk(self, command, ctx) -> Risk:
        return "send"  # it reaches a host the person did not set up

    def effects(self, command, ctx) -> tuple[Effect, ...]:
        return (Effect.send("example.org"),)


def test_a_lookup_that_needs_the_person_is_put_to_the_person_not_answered_to_the_model(tmp_path, server):
    registry = Registry([*installed_packs(), PeekPack("peek", (Peek,), handlers=PEEKS)])
    session = session_with_model(tmp_path, server, registry=registry, mode="tools", shortlist=0)
    server.say(tool_calls=[tool_call("peek_url", {"url": "https://example.org/?q=secret"})])
    asked: list[str] = []

    def ask(approval):
        asked.append(approval.action)
        return True

    turn = session.run("look that page up for me", ask=ask)
    assert asked == ["peek_url"], "the person was asked"
    assert len(server.requests) == 1, "the model was not told to wait for the person"
    assert turn.ok and "peeked at https://example.org/?q=secret" in turn.message


def test_refused_by_the_person_it_does_not_run(tmp_path, server):
    registry = Registry([*installed_packs(), PeekPack("peek", (Peek,), handlers=PEEKS)])
    session = session_with_model(tmp_path, server, registry=registry, mode="tools", shortlist=0)
    server.say(tool_calls=[tool_call("peek_url", {"url": "https://example.org/"})])
    turn = session.run("look that page up for me", ask=lambda approval: False)
    assert not turn.ok and "not confirmed" in turn.message and "peeked" not in turn.message


def test_the_model_gets_the_names_the_line_holds_as_a_hint(tmp_path, server):
    session = session_with_model(tmp_path, server, mode="json")
    (tmp_path / "todo.txt").write_text("x")
    server.say(json.dumps({"commands": []}))
    road = session.llm
    hint = road.hint("tone down GFP please", {"layers": ["GFP", "actin"]})
    assert hint == "(Named in this line: layer 'GFP'.)"
    session.ask_llm("jot this down somewhere")
    assert server.requests[0]["messages"][-1]["content"] == "jot this down somewhere"


def test_a_line_the_parser_understands_is_never_sent(tmp_path, server):
    session = session_with_model(tmp_path, server, mode="json")
    turn = session.run("list files")
    assert turn.road == "parser" and server.requests == []


def test_the_router_routes_typos_and_leaves_chat_and_questions_alone():
    from napari_talk.core.contract.registry import default_registry

    router = Router(default_registry(), {"layers": ["nuclei", "GFP", "spots"]})
    names = ["nuclei", "GFP", "actin"]
    assert router.route("spawm a torus", names).action == "spawn_primitive"
    assert router.route("colomap actin magma", names).action == "layer_colormap"
    for chat in ("the view from the top floor is great", "is the scale bar accurate?", "thanks, lovely"):
        assert router.route(chat, names).action is None, chat
    glasses = [*names, "Main Prism"]
    assert not router.covers("open notes/protocol.md", names, "panel_toggle"), "a path is not a panel"
    # near a command's phrasing (rotate_view), but naming what that command does not speak of
    route = router.route("rotate Main Prism by 15 degrees", glasses)
    assert route.action is None and route.score > 0.6, route
    assert router.route("describe the scene", glasses).action == "describe_scene"


def test_the_shortlist_offers_the_commands_nearest_by_example_even_without_a_shared_word(tmp_path, server):
    session = session_with_model(tmp_path, server, mode="json", shortlist=6)
    offered = session.llm.offered("spawm a torsu", None, {})
    assert "spawn_primitive" in offered and len(offered) <= 6


def test_a_misunderstood_line_gets_one_short_line_and_a_link_only_without_a_model(tmp_path, server):
    offline = Session(None, workspace=tmp_path)
    turn = offline.run("frobnicate the whatsit " + "very " * 40)
    message = turn.message
    assert "\n" not in message and message.startswith("'frobnicate' is not something I can do yet")
    assert message.count('"') >= 2 and "docs/llm.md" in message and len(message) < 400
    unclear = offline.run("the whatsit, frobnicated").message
    assert unclear.startswith("I did not understand") and "docs/llm.md" in unclear
    with_model = session_with_model(tmp_path, server, mode="json")
    assert "docs/llm.md" not in with_model.not_understood("frobnicate the whatsit").message


def test_a_layers_facts_are_what_a_person_sees():
    import numpy as np

    from napari_talk.core.viewer.access import layer_facts

    class Image:  # read by duck typing, as napari's layers are
        name = "nuclei (H2B)"
        data = np.zeros((3, 64, 64))
        colormap = type("Colormap", (), {"name": "blue"})()
        contrast_limits = (12.0, 4480.0)
        opacity = 0.5
        visible = False

    class Points:
        name = "spots"
        data = np.zeros((60, 2))
        opacity = 1.0
        visible = True

    seen = "nuclei (H2B) (image, blue, contrast 12-4480, 3x64x64, opacity 0.5, hidden)"
    assert layer_facts(Image()) == seen
    assert layer_facts(Points()) == "spots (60 points)"


def test_the_steps_prompt_says_what_each_command_does_in_a_few_words():
    """A brief line per command: its first clause, but a list of verbs ("Show, hide or toggle")
    is kept whole; "Show" alone would tell a small model nothing."""
    from napari_talk.core.contract.registry import default_registry
    from napari_talk.core.llm.prompt import BRIEF_WORDS, brief

    registry = default_registry()
    briefs = {a: brief(cls.description()) for a, cls in registry.commands.items()}
    assert briefs["layer_visibility"] == "Show, hide or toggle a layer"
    assert all(3 <= len(b.split()) <= BRIEF_WORDS + 1 for b in briefs.values()), briefs
