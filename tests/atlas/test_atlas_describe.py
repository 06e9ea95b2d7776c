"""generate_description: the seed's guidelines with a model (the Chat Completions stub), and a
composed description, marked as such, without one."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from support.atlas_fixtures import *  # noqa: F403  (the atlas fixtures)

from napari_talk.core.running.session import Session
from napari_talk.packs.atlas.describe import (
    _OPENINGS,
    AVOID,
    Subject,
    Voice,
    compose,
    tidy,
    tone_of,
    voice_of,
)

SENTENCE = re.compile(r"[^.!?]+[.!?]")


def describe(session, **fields):
    result = session.execute({"action": "generate_description", **fields})
    assert result.ok, result.message
    return result


@pytest.mark.parametrize(
    ("domain", "tone"),
    [("Starhaven Reaches", "starhaven"), ("The Lattice", "lattice"), ("The Threshold", "threshold"),
     ("Emberfall Wastes", "unknown"), ("", "unknown")],
)  # fmt: skip
def test_a_composed_description_follows_the_guidelines(domain, tone):
    subject = Subject("The Nullbringer", domain, "Voidwalker", visual_notes="Dominant black and violet; dark")
    text = compose(subject)
    assert tone_of(domain) == tone
    assert 2 <= len(SENTENCE.findall(text)) <= 3
    assert text.startswith("The Nullbringer ") and "voidwalker" in text
    assert not any(phrase in text.casefold() for phrase in AVOID)
    assert not re.search(r"\b(?:was|were|will|I|we|you)\b", text)  # present tense, third person
    assert compose(subject) == text  # deterministic


def test_without_a_model_the_entitys_own_fields_are_composed(atlas_session):
    result = describe(atlas_session, name="tidewalker sura")
    assert result.data["source"] == "composed" and result.data["success"] is True
    text = result.data["description"]
    assert text.startswith("Tidewalker Sura ") and "The Threshold" in text and "voidwalker" in text
    assert "Its image shows dominant" in text  # measured from the entity's picture
    assert "composed from the entity's fields" in result.message and "no language model" in result.message


@pytest.fixture
def llm_atlas(atlas_session, llm_settings):
    from napari_talk.core.llm.road import LLMRoad

    atlas_session.llm = LLMRoad(atlas_session.registry, llm_settings)
    return atlas_session


def test_a_model_writes_it_under_the_guidelines(llm_atlas, chat_server):
    chat_server.say(
        '"The Nullbringer walks between definitions. It carries absence like a lantern. '
        'Where it passes, categories dissolve. Nobody follows."'
    )
    result = describe(llm_atlas, name="The Nullbringer", visual_notes="dark void, absence of form")
    assert result.data == {
        "success": True,
        "description": "The Nullbringer walks between definitions. It carries absence like a lantern. "
        "Where it passes, categories dissolve.",
        "source": "llm",
    }
    system, user = chat_server.requests[0]["messages"]
    assert "2-3 sentences" in system["content"] and "liminal, urgent, transformative" in system["content"]
    assert "An ancient and powerful entity" in system["content"]
    assert '"domain": "The Threshold"' in user["content"] and '"class_name": "Voidwalker"' in user["content"]
    assert "dark void, absence of form" in user["content"]


def test_a_phrase_to_avoid_gets_one_rewrite(llm_atlas, chat_server):
    chat_server.say("An ancient and powerful entity, Eigensage lurks in the data.")
    chat_server.say("Eigensage folds each signal back into itself.")
    result = describe(llm_atlas, name="Eigensage")
    assert result.data["description"] == "Eigensage folds each signal back into itself."
    assert len(chat_server.requests) == 2
    assert "Rewrite it without" in chat_server.requests[1]["messages"][-1]["content"]


def test_a_failing_model_falls_back_to_a_composed_description(llm_atlas, chat_server):
    chat_server.fail(500)
    result = describe(llm_atlas, name="Parity", domain="The Lattice")
    assert result.data["source"] == "composed" and result.data["description"].startswith("Parity ")
    assert "the model failed" in result.message


def test_a_name_not_in_the_catalogue_is_described_from_what_is_given(workspace):
    session = Session(None, workspace=workspace)
    text = describe(session, name="Ashen Moth", domain="The Threshold", class_name="Moth").data["description"]
    assert text.startswith("Ashen Moth ") and "The Threshold" in text and "moth" in text


def test_tidy_keeps_three_sentences_without_quotes():
    assert tidy('Description: "One. Two! Three? Four."') == "One. Two! Three?"
    assert tidy("  ") == ""


def test_composed_descriptions_are_each_entitys_own_and_vary_within_a_domain():
    import json

    from napari_talk.packs.atlas.samples import DATA

    entities = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    starhaven = [e for e in entities if e["domain"] == "Starhaven Reaches"]
    texts = [
        compose(
            Subject(e["name"], e["domain"], e.get("class_name", ""), e["type"], description=e["description"])
        )
        for e in starhaven
    ]
    for entity, text in zip(starhaven, texts, strict=True):
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if s]
        assert 2 <= len(sentences) <= 3 and not any(p in text.casefold() for p in AVOID)
        assert any(s in entity["description"] for s in sentences), "a detail of the entity's own"
    assert len({t.rsplit(". ", 1)[-1] for t in texts}) >= 3, "closings vary within a domain"
    assert len({t.split(",")[0].split(" ", 2)[-1] for t in texts}) >= 3, "openings vary too"


def sample_compositions() -> list[tuple[dict, list[str]]]:
    import json

    from napari_talk.packs.atlas.samples import DATA

    entities = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    return [
        (
            e,
            re.split(
                r"(?<=[.!?])\s+",
                compose(Subject(e["name"], e["domain"], e["class_name"], e["type"], "", e["description"])),
            ),
        )
        for e in entities
    ]


def test_closings_vary_across_the_whole_sample():
    closings = Counter(sentences[-1] for _, sentences in sample_compositions())
    # before: the domains without a tone of their own had two closings, used 18 and 11 times of 56
    assert max(closings.values()) <= 6, closings.most_common(3)
    assert len(closings) >= 25


def test_the_composition_speaks_of_an_entity_as_its_own_description_does():
    checked: Counter[str] = Counter()
    for entity, sentences in sample_compositions():
        voice = voice_of(entity["name"], entity["description"])
        # the opening and the closing are the template's; the middle is the entity's own text
        ours = " ".join([sentences[0], sentences[-1]]).replace("the index disagrees with itself", "")
        if voice.pronoun != "it":
            assert not re.search(r"\b(?:it|its|itself)\b", ours, re.IGNORECASE), ours
        if voice.pronoun in ("she", "he"):
            assert re.search(
                r"\b(?:she|her|herself)\b" if voice.pronoun == "she" else r"\b(?:he|him|his)\b", ours, re.I
            )
        checked[voice.pronoun] += 1
    assert checked["she"] >= 5 and checked["he"] >= 2, (
        checked
    )  # Solanthe, Kestrel, … ; Orrin, the Ferryman, …


def test_plural_names_take_plural_verbs():
    templates = [t for ts in _OPENINGS.values() for t in ts]
    singular_verbs = {m.group(1) for t in templates for m in re.finditer(r"\{s:(\w+)\|", t)}
    plural = 0
    for entity, sentences in sample_compositions():
        voice = voice_of(entity["name"], entity["description"])
        after = sentences[0].split(entity["name"], 1)[1].split()
        if voice.plural_name:
            plural += 1
            assert after[0] not in singular_verbs, sentences[0]
        elif sentences[0].startswith(entity["name"]):
            assert after[0] in singular_verbs | {"is"}, sentences[0]
    assert plural == 2  # The Heralds, The Mitotic Twins


def test_the_voice_of_a_few_entities_by_hand():
    assert voice_of("The Heralds", "They stand watch; their light guides travellers.") == Voice("they", True)
    assert voice_of("Solanthe", "Her armour drinks the sunlight and returns it as a promise.") == Voice("she")
    assert voice_of("The Drowned King", "His courtiers are fish.") == Voice("he")
    assert voice_of("Nucleus Prime", "It holds the genome.") == Voice("it")
    assert voice_of("The Kelp Choir", "") == Voice("it")  # a choir is one, and nothing says otherwise
    assert voice_of("The Mitotic Twins", "") == Voice("they", True)
    template = "{name} {s:keeps|keep} {their} watch; {They} {p:asks|ask} {them}, {role} {that} waits."
    assert Voice("they", True).render(template, name="The Heralds", role="sentinels") == (
        "The Heralds keep their watch; They ask them, sentinels who waits."
    )
    assert Voice("she").render(template, name="Sura", role="a diver") == (
        "Sura keeps her watch; She asks her, a diver who waits."
    )
