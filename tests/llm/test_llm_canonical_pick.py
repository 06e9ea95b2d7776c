"""A model's paraphrase into the canonical language: the offer (numbered phrasings, a schema holding
the reply to them and to the line's own words), and what the parser reads in the reply, against the
project's scripted server through the real openai client."""

from __future__ import annotations

import itertools
import json
import zlib

import numpy as np
import pytest
from support.chat_server import instance

from napari_talk.core.chat.client import ChatClient, LLMError, constrained_reply
from napari_talk.core.contract.registry import default_registry
from napari_talk.core.grammar.canonical import phrasings
from napari_talk.core.grammar.parser import Parser
from napari_talk.core.grammar.rephrase import COMMON, bare_phrasing, values_of
from napari_talk.core.llm.canonical_pick import CHOICES, Picker, spans

NAMES = {"layers": ["nuclei", "actin", "Atrium mask"]}
LINE = "please hide nuclei"


def words(texts):
    """Hashed words and word pairs: a plain, real embedding, enough to bring near phrasings that
    share words with a line."""
    out = np.zeros((len(texts), 4096), np.float32)
    for row, text in enumerate(texts):
        tokens = text.casefold().split()
        for gram in tokens + [" ".join(p) for p in itertools.pairwise(tokens)]:
            out[row, zlib.crc32(gram.encode()) % 4096] += 1
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.where(norms == 0, 1, norms)


@pytest.fixture(scope="module")
def picker():
    registry = default_registry()
    bank = phrasings(registry)
    return Picker(registry, bank, words([bare_phrasing(p) for p in bank]), words), Parser(registry), registry


def offer_for(picker, line=LINE):
    reader, _, _ = picker
    return reader.offer(line, values_of(line, NAMES, COMMON).bare, NAMES)


def hide_choice(offer):
    return next(n for n, t in enumerate(offer.templates, 1) if t.shown() == "{op} {layer}")


def ask(llm_settings, offer):
    client = ChatClient(llm_settings)
    try:
        reply = client.complete(offer.messages(), None, constrained_reply(offer.schema(), "json_schema"))
    finally:
        client.close()
    return offer.canonical(reply.content)


def test_the_offer_numbers_near_phrasings_and_holds_slots_to_the_line(picker):
    offer = offer_for(picker, "hide nuclei")
    assert 0 < len(offer.templates) <= CHOICES
    schema = offer.schema()
    picks = schema["properties"]["commands"]["items"]["anyOf"]
    assert [p["properties"]["choice"]["const"] for p in picks] == list(range(len(offer.templates) + 1))
    slots = picks[hide_choice(offer)]["properties"]["slots"]["properties"]
    assert "nuclei" in slots["layer"]["enum"] and "Atrium mask" in slots["layer"]["enum"]  # said, or live
    assert "show" not in slots["layer"]["enum"]  # a word the line does not say
    assert {"hide", "show", "conceal"} <= set(slots["op"]["enum"])  # the word map's words


def test_a_reply_choosing_a_phrasing_is_read_by_the_parser(picker, chat_server, llm_settings):
    _, parser, _ = picker
    offer = offer_for(picker, "hide nuclei")
    choice = hide_choice(offer)
    chat_server.say(
        json.dumps({"commands": [{"choice": choice, "slots": {"op": "hide", "layer": "nuclei"}}]})
    )
    canonical = ask(llm_settings, offer)
    assert canonical is not None
    [command] = parser.parse(canonical, NAMES)
    assert command.action == "layer_visibility" and command.name == "nuclei" and command.op == "hide"
    sent = chat_server.requests[-1]
    assert sent["messages"][0]["content"] == offer_for(picker, "lose the actin").messages()[0]["content"]
    assert "anyOf" in json.dumps(sent["response_format"])


def test_what_a_server_holding_the_schema_makes_is_read_or_refused_whole(picker, chat_server, llm_settings):
    offer = offer_for(picker)
    chat_server.say(json.dumps(instance(offer.schema())))  # its first allowed value: "none of these"
    assert ask(llm_settings, offer) is None


@pytest.mark.parametrize(
    "reply",
    [
        {"commands": [{"choice": 99, "slots": {"op": "hide", "layer": "nuclei"}}]},  # a choice out of range
        {"commands": [{"choice": -1, "slots": {}}]},
        {"commands": [{"choice": True, "slots": {"layer": "nuclei"}}]},
        {
            "commands": [{"choice": "HIDE", "slots": {"op": "hide", "layer": "whole dataset"}}]
        },  # not in the line
        {"commands": [{"choice": "HIDE", "slots": {"layer": "nuclei"}}]},  # a slot left empty
        {"commands": [{"choice": "HIDE", "slots": {"op": "obliterate", "layer": "nuclei"}}]},  # no such word
        {"commands": [{"choice": "HIDE", "slots": {"op": "hide", "layer": ["nuclei"]}}]},
        {"commands": [{"choice": "HIDE", "slots": {"op": "hide", "layer": "nuclei"}}] * 50},
        {"commands": []},
        {"choice": "HIDE"},
        ["HIDE"],
    ],
)
def test_a_reply_that_breaks_the_offer_reads_as_nothing(picker, chat_server, llm_settings, reply):
    offer = offer_for(picker)
    text = json.dumps(reply).replace('"HIDE"', str(hide_choice(offer)))
    chat_server.say(text)
    assert ask(llm_settings, offer) is None


@pytest.mark.parametrize("content", ["", "not json at all", '{"commands": [{"choice": 1', "null"])
def test_a_reply_that_is_no_json_reads_as_nothing(picker, chat_server, llm_settings, content):
    chat_server.say(content)
    assert ask(llm_settings, offer_for(picker)) is None


def test_ten_megabytes_of_text_are_refused_in_one_sentence(picker, chat_server, llm_settings):
    offer = offer_for(picker)
    chat_server.say("x" * 10_000_000)
    try:
        canonical = ask(llm_settings, offer)
    except LLMError as exc:  # the client's own bound on a reply
        assert "\n" not in str(exc) and len(str(exc)) < 400
    else:
        assert canonical is None


def test_spans_are_the_lines_own_words():
    found = spans("find 'TODO items', case sensitive, in scripts/")
    assert "TODO items" in found and "case sensitive" in found and "scripts/" in found
    assert all(s in "find 'TODO items', case sensitive, in scripts/" or s.replace("'", "") for s in found)
    assert not any(s.endswith(",") for s in found)
