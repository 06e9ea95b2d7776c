"""Words people use in a chat and the shapes they wrap a request in: spelt as said ("thru"), a
phrasal verb ("look up") kept whole, a vague noun ("something like …"), the name of what is being
changed ("the typo …"), a possessive ("all my files"). Lines of several packs that no set holds."""

from __future__ import annotations

import pytest

from napari_talk.core.grammar.parser import parse

SCENE = {
    "layers": ["GFP", "membrane dye"],
    "entities": ["Dune Walker", "Saltmaw"],
    "glasses": ["Crown Glass", "Water Tank"],
    "files": ["drafts/intro.md", "notes.txt"],
}


def wire(text):
    return [c.to_wire() for c in parse(text, SCENE)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("look up sref 40917", [{"action": "find_by_sref", "sref_code": "40917"}]),
        (
            "look up the style reference 77 then show entities like a salt desert",
            [
                {"action": "find_by_sref", "sref_code": "77"},
                {"action": "find_similar", "query": "a salt desert"},
            ],
        ),
        (
            "which rays pass thru the Water Tank?",
            [{"action": "find_rays_inside_glass", "glass_name": "Water Tank"}],
        ),
        (
            "show rays going through Crown Glass",
            [{"action": "find_rays_inside_glass", "glass_name": "Crown Glass"}],
        ),
        ("find something like a dune in a storm", [{"action": "find_similar", "query": "a dune in a storm"}]),
        ("show me anything like Saltmaw", [{"action": "find_similar", "query": "Saltmaw"}]),
        ("show all of my files", [{"action": "list_files"}]),
        (
            "correct the misspelling recieve -> receive in notes.txt",
            [
                {
                    "action": "edit_file",
                    "path": "notes.txt",
                    "search_text": "recieve",
                    "replace_text": "receive",
                }
            ],
        ),
        (
            "in drafts/intro.md replace the word dawn with dusk",
            [
                {
                    "action": "edit_file",
                    "path": "drafts/intro.md",
                    "search_text": "dawn",
                    "replace_text": "dusk",
                }
            ],
        ),
    ],
)
def test_a_request_wrapped_in_chat_words_is_read_as_the_plain_one(text, expected):
    assert wire(text) == expected


@pytest.mark.parametrize("text", ["look up a salt desert", "look up how to focus"])
def test_look_up_is_never_a_search_for_the_word_up(text):
    assert all("up" not in str(c.to_wire().get("query", "")).split() for c in parse(text, SCENE))
