"""Descriptions in the catalogue's voice (seed 002's guidelines), and the vision prompt.

With a language model: the guidelines and the entity's fields go to it, its reply is trimmed to
three sentences and checked against the phrases to avoid. Without one: a deterministic
composition from the fields, in the domain's tone, marked as composed.
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

MAX_SENTENCES = 3
TONES = {
    "starhaven": "mythic, purposeful, heroic undertones",
    "lattice": "abstract, signal-like, self-referential",
    "threshold": "liminal, urgent, transformative",
    "unknown": "observational, curious",
}
AVOID = (
    "an ancient and powerful entity",
    "this terrifying creature lurks",
    "ancient and powerful",
    "terrifying creature",
    "lurks",
    "since time immemorial",
    "beyond mortal comprehension",
    "unspeakable",
    "dark and mysterious",
)
GUIDELINES = f"""You write descriptions for a catalogue of entities (the Atlas).
Rules:
- 2-3 sentences at most; present tense; third person.
- Evocative but precise; name the entity's apparent nature or role.
- Let mystery remain: do not over-explain.
- Match the tone to the domain: Starhaven: {TONES["starhaven"]}. Lattice: {TONES["lattice"]}.
  Threshold: {TONES["threshold"]}. Any other or unknown domain: {TONES["unknown"]}.
- Avoid: "An ancient and powerful entity...", "This terrifying creature lurks...", generic fantasy
  descriptors, over-explanation.
Reply with the description only, no title, no quotes."""

VISION_PROMPT = """You look at an image for a catalogue of entities (the Atlas).
Measurements made on the image: {measurements}
Reply with one JSON object with exactly these keys (strings): suggested_name, suggested_type, domain
(one of "Starhaven Reaches", "The Lattice", "The Threshold", or "Unknown"), description (2-3 sentences,
present tense, third person, tone matching the domain), phase_state (one word, e.g. "Spectral",
"Solid", "Liquid", "Radiant"), mood (a few words). Base the fields on what is visible."""
INTERPRETIVE = ("suggested_name", "suggested_type", "domain", "description", "phase_state", "mood")


def tone_of(domain: str | None) -> str:
    folded = (domain or "").casefold()
    return next((key for key in ("starhaven", "lattice", "threshold") if key in folded), "unknown")


@dataclass(frozen=True)
class Subject:
    """What is known about the entity to describe."""

    name: str
    domain: str = ""
    class_name: str = ""
    type: str = ""
    visual_notes: str = ""
    description: str = ""
    """Its current description, if it has one (the model may refine it)."""

    def prompt(self) -> str:
        fields = {k: v for k, v in self.__dict__.items() if v}
        return "Describe this entity:\n" + json.dumps(fields, ensure_ascii=False, indent=1)


def messages(subject: Subject) -> list[dict[str, Any]]:
    return [{"role": "system", "content": GUIDELINES}, {"role": "user", "content": subject.prompt()}]


_SENTENCE = re.compile(r"(?<=[.!?])[\"'”’)]*\s+")


def tidy(reply: str) -> str:
    """A model's reply as a description: unquoted, one paragraph, at most three sentences."""
    text = " ".join((reply or "").split())
    text = re.sub(r"^(?:description\s*:\s*)", "", text, flags=re.IGNORECASE).strip().strip('"“”')
    sentences = [s for s in _SENTENCE.split(text) if s.strip()]
    return " ".join(sentences[:MAX_SENTENCES]).strip()


def avoided_phrases(text: str) -> list[str]:
    folded = text.casefold()
    return [phrase for phrase in AVOID if phrase in folded]


# -- without a model -----------------------------------------------------------------------------

_OPENINGS = {
    "starhaven": (
        "{name} keeps its watch over {place}, {role} with a purpose older than its name.",
        "{name} stands for {place}, {role} whose duty is carried in light.",
        "In {place}, {name} is {role} that travellers learn to look for.",
        "{name} belongs to {place}: {role} sworn to something brighter than itself.",
    ),
    "lattice": (
        "{name} resolves as a pattern within {place}: {role} that refers mostly to itself.",
        "{name} runs through {place} as a signal, {role} describing its own outline.",
        "Within {place}, {name} is {role} defined by what it computes.",
        "{name} is indexed in {place} as {role}, though the index disagrees with itself.",
    ),
    "threshold": (
        "{name} waits at the edge of {place}, {role} in the moment before change.",
        "{name} crosses {place} in a hurry, {role} that never arrives as the same thing.",
        "At the borders of {place}, {name} is {role} caught between two states.",
        "{name} lingers in {place}, {role} that is always becoming.",
    ),
    "unknown": (
        "{name} is observed in {place}, {role} that has not yet been explained.",
        "{name} appears in {place}, {role} worth a closer look.",
        "In {place}, {name} is {role} with more to it than first seems.",
    ),
}
_CLOSINGS = {
    "starhaven": (
        "Those who follow it seldom lose their way.",
        "Its light arrives long after it has gone.",
        "The Reaches are quieter where it has passed.",
        "It asks nothing in return for the light it keeps.",
    ),
    "lattice": (
        "Each time it is read, it reads back.",
        "Its output is never quite what was asked for.",
        "Somewhere in it, a single bit refuses to settle.",
        "It is most itself when no one is querying it.",
    ),
    "threshold": (
        "Nothing it touches stays the same.",
        "It is never seen in the same form twice.",
        "What it leaves behind is not what it found.",
        "It is gone before anyone agrees on what it was.",
    ),
    "unknown": ("What it wants is still unclear.", "Its purpose is still being argued over."),
}


def compose(subject: Subject) -> str:
    """A description from what is known, without a model: an opening in the domain's tone, what is
    particular to the entity (from its description, and its image), and a closing when there is
    room; openings and closings vary from entity to entity. Two or three sentences, present tense,
    third person."""
    tone = tone_of(subject.domain)
    role = subject.class_name or subject.type or "an entity"
    role = role if role.lower().startswith(("a ", "an ", "the ")) else f"{_article(role)} {role.lower()}"
    place = subject.domain or "an uncharted region"
    seed = zlib.crc32(subject.name.encode())
    opening = _OPENINGS[tone][seed % len(_OPENINGS[tone])]
    sentences = [opening.format(name=subject.name, place=place, role=role), *_details(subject)]
    closings = _CLOSINGS[tone]
    sentences.append(closings[(seed // len(_OPENINGS[tone])) % len(closings)])
    return " ".join(sentences[:MAX_SENTENCES])


def _details(subject: Subject) -> list[str]:
    """What is particular to the entity: the sentence of its description that says the most about
    it (not the one that only restates its name), and what its image shows."""
    found = []
    sentences = [s.strip() for s in _SENTENCE.split(" ".join(subject.description.split())) if s.strip()]
    if sentences:
        named = {w.casefold() for w in re.findall(r"\w+", subject.name)}

        def said(sentence: str) -> int:
            return len({w.casefold() for w in re.findall(r"\w{4,}", sentence)} - named)

        best = max(sentences[1:] or sentences, key=said)
        found.append(best if best.endswith((".", "!", "?")) else best + ".")
    if subject.visual_notes:
        found.append(f"Its image shows {_first_clause(subject.visual_notes)}.")
    return found


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _first_clause(notes: str) -> str:
    clause = re.split(r"[;.]", notes.strip())[0].strip()
    return clause[:1].lower() + clause[1:] if clause else "nothing measurable"


# -- vision --------------------------------------------------------------------------------------


def vision_messages(png: bytes, measured: dict[str, Any]) -> list[dict[str, Any]]:
    import base64

    summary = json.dumps(
        {"visual_notes": measured["visual_notes"], "colors": measured["colors"]}, ensure_ascii=False
    )
    url = "data:image/png;base64," + base64.b64encode(png).decode()
    return [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": VISION_PROMPT.format(measurements=summary)},
                {"type": "image_url", "image_url": {"url": url}},
            ],
        }
    ]


def read_interpretation(reply: str | None) -> dict[str, str]:
    """The interpretive fields from a model's JSON reply (fenced or bare); missing ones left out."""
    text = (reply or "").strip()
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, re.DOTALL)
    if fenced:
        text = fenced.group(1)
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("the model did not reply with a JSON object")
    data = json.loads(text[start : end + 1])
    if not isinstance(data, dict):
        raise ValueError("the model did not reply with a JSON object")
    found = {key: " ".join(str(data[key]).split()) for key in INTERPRETIVE if data.get(key)}
    if "description" in found:
        found["description"] = tidy(found["description"])
    return found
