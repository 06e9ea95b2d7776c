"""Descriptions in the catalogue's voice (the Archivist's guidelines), and the vision prompt.

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
#
# Templates say {they}/{them}/{their}/{themselves} for the entity's pronoun (it, she, he or they,
# read from its own description) and {s:keeps|keep} for a verb whose subject is the name (singular
# or plural), {p:asks|ask} for one whose subject is the pronoun; {that} is "who" for a person.

_OPENINGS = {
    "starhaven": (
        "{name} {s:keeps|keep} {their} watch over {place}, {role} with a purpose older than {their} name.",
        "{name} {s:stands|stand} for {place}, {role} whose duty is carried in light.",
        "In {place}, {name} {s:is|are} {role} {that} travellers learn to look for.",
        "{name} {s:belongs|belong} to {place}: {role} sworn to something brighter than {themselves}.",
    ),
    "lattice": (
        "{name} {s:resolves|resolve} as a pattern within {place}: {role} {that} refers to {themselves}.",
        "{name} {s:runs|run} through {place} as a signal, {role} describing {their} own outline.",
        "Within {place}, {name} {s:is|are} {role} defined by what {they} {p:computes|compute}.",
        "{name} {s:is|are} indexed in {place} as {role}, though the index disagrees with itself.",
    ),
    "threshold": (
        "{name} {s:waits|wait} at the edge of {place}, {role} in the moment before change.",
        "{name} {s:crosses|cross} {place} in a hurry, {role} {that} never arrives as the same thing.",
        "At the borders of {place}, {name} {s:is|are} {role} caught between two states.",
        "{name} {s:lingers|linger} in {place}, {role} {that} is always becoming.",
    ),
    "unknown": (
        "{name} {s:is|are} observed in {place}, {role} {that} has not yet been explained.",
        "{name} {s:appears|appear} in {place}, {role} worth a closer look.",
        "In {place}, {name} {s:is|are} {role} with more to {them} than first seems.",
        "{name} {s:is|are} recorded in {place} as {role}, and the record is still open.",
        "{name} {s:turns|turn} up across {place}, {role} seen more often than understood.",
    ),
}
_CLOSINGS = {
    "starhaven": (
        "Those who follow {them} seldom lose their way.",
        "{Their} light arrives long after {they} {p:has|have} gone.",
        "The Reaches are quieter where {they} {p:has|have} passed.",
        "{They} {p:asks|ask} nothing in return for the light {they} {p:keeps|keep}.",
        "Even the far stars seem to keep {their} hours.",
        "No oath binds {them} but the one {they} {p:keeps|keep} to {themselves}.",
    ),
    "lattice": (
        "Each time {they} {p:is|are} read, {they} {p:reads|read} back.",
        "{Their} output is never quite what was asked for.",
        "Somewhere in {them}, a single bit refuses to settle.",
        "{They} {p:is|are} most {themselves} when no one is querying {them}.",
        "Every copy of {them} differs from the last in one place only.",
        "{Their} checksum is correct, and that is the strange part.",
    ),
    "threshold": (
        "Nothing {they} {p:touches|touch} stays the same.",
        "{They} {p:is|are} never seen in the same form twice.",
        "What {they} {p:leaves|leave} behind is not what {they} found.",
        "{They} {p:is|are} gone before anyone agrees on what {they} {p:was|were}.",
        "Doors that {they} {p:passes|pass} do not close the same way again.",
        "{Their} shadow arrives a moment before {they} {p:does|do}.",
    ),
    "unknown": (
        "What {they} {p:wants|want} is still unclear.",
        "{Their} purpose is still being argued over.",
        "No two accounts of {them} agree on the details.",
        "{They} {p:seems|seem} to notice being watched, and {p:does|do} not mind.",
        "The notes on {them} end in a question mark.",
        "Whether {they} {p:is|are} rare or only seldom seen, no one can yet say.",
        "{Their} habits are recorded, {their} reasons are not.",
        "Each observer comes back with a different sketch of {them}.",
        "{They} {p:leaves|leave} traces that are easier to find than {they} {p:is|are}.",
        "Where {they} {p:goes|go} between sightings is anyone's guess.",
        "{They} {p:has|have} been described many times and explained not once.",
        "Something about {them} changes each season, though no one can say what.",
    ),
}
PRONOUNS = {
    "it": ("it", "it", "its", "itself"),
    "she": ("she", "her", "her", "herself"),
    "he": ("he", "him", "his", "himself"),
    "they": ("they", "them", "their", "themselves"),
}
_FAMILIES = {
    "she": ("she", "her", "hers", "herself"),
    "he": ("he", "him", "his", "himself"),
    "they": ("they", "them", "their", "theirs", "themselves"),
}
_SLOT = re.compile(r"\{(\w+)(?::([^|}]*)\|([^}]*))?\}")


@dataclass(frozen=True)
class Voice:
    """How to speak of an entity: its pronoun and whether its name takes a plural verb."""

    pronoun: str = "it"
    plural_name: bool = False

    def render(self, template: str, **fields: str) -> str:
        they, them, their, themselves = PRONOUNS[self.pronoun]
        that = "that" if self.pronoun == "it" else "who"
        words = {"they": they, "them": them, "their": their, "themselves": themselves, "that": that}
        words |= fields

        def fill(match: re.Match[str]) -> str:
            key, singular, plural = match.groups()
            if singular is not None:
                many = self.plural_name if key == "s" else self.pronoun == "they"
                return plural if many else singular
            if key[:1].isupper() and key.casefold() in words:
                word = words[key.casefold()]
                return word[:1].upper() + word[1:]
            return words[key]

        return _SLOT.sub(fill, template)


def voice_of(name: str, description: str) -> Voice:
    """The pronoun the entity's own description uses for it (she or he when it says so; they for
    a plural name, or when it says they twice and never it), and whether its name is plural."""
    words = re.findall(r"[a-z]+", description.casefold())
    counts = {family: sum(words.count(w) for w in forms) for family, forms in _FAMILIES.items()}
    plural = _plural_name(name)
    if max(counts["she"], counts["he"]) > 0:
        pronoun = "she" if counts["she"] >= counts["he"] else "he"
    elif plural or (counts["they"] >= 2 and not {"it", "its"} & set(words)):
        pronoun = "they"
    else:
        pronoun = "it"
    return Voice(pronoun, plural and pronoun == "they")


def _plural_name(name: str) -> bool:
    """ "The Heralds", "The Mitotic Twins": a name whose head word is an English plural."""
    head = re.split(r",| of | at | in ", name)[0].split()
    if len(head) < 2 or head[0].casefold() != "the":
        return False
    last = head[-1].casefold()
    return last.endswith("s") and not last.endswith(("ss", "us", "is", "os"))


def compose(subject: Subject) -> str:
    """A description from what is known, without a model: an opening in the domain's tone, what is
    particular to the entity (from its description, and its image), and a closing when there is
    room; openings and closings vary from entity to entity, and speak of it as its own description
    does (she, he, it or they). Two or three sentences, present tense, third person."""
    tone = tone_of(subject.domain)
    voice = voice_of(subject.name, subject.description)
    role = _role(subject.class_name or subject.type or "entity", voice.plural_name)
    place = subject.domain or "an uncharted region"
    seed = zlib.crc32(subject.name.encode())
    openings, closings = _OPENINGS[tone], _CLOSINGS[tone]
    opening = voice.render(openings[seed % len(openings)], name=subject.name, place=place, role=role)
    closing = voice.render(closings[(seed // len(openings)) % len(closings)])
    return " ".join([opening, *_details(subject), closing][:MAX_SENTENCES])


def _role(role: str, plural: bool) -> str:
    """ "a sentinel", or "sentinels" for a plural name; a role given with its article stays."""
    if role.lower().startswith(("a ", "an ", "the ")):
        return role
    role = role.lower()
    if not plural:
        return f"{_article(role)} {role}"
    if role.endswith(("s", "x", "ch", "sh")):
        return role + "es"
    if role.endswith("y") and role[-2:-1] not in "aeiou":
        return role[:-1] + "ies"
    return role + "s"


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
