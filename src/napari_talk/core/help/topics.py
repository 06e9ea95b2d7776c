"""Help text and "did you mean" suggestions, both made from the registered command models."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..rules.text import normalize

if TYPE_CHECKING:
    from ..contract.registry import Registry

LLM_HINT = "To understand more phrasings, connect a model: docs/llm.md."
SHOWN_CHARS = 80
"""How much of a line a reply echoes."""


def echo(text: str) -> str:
    """A typed line as a reply quotes it: on one line, shortened past :data:`SHOWN_CHARS`."""
    typed = " ".join(text.split())
    return typed if len(typed) <= SHOWN_CHARS else typed[: SHOWN_CHARS - 1] + "…"


def not_understood_line(
    text: str,
    nearest: Sequence[str],
    *,
    offer_model: bool,
    suggestion: str | None = None,
    meant: str | None = None,
    unknown_word: str | None = None,
) -> str:
    """The one line a misunderstood line gets: what was not understood, what it may have meant
    (the canonical stage's reading, never done), the word it opens with when no command uses it
    (:func:`unknown_verb`), the nearest things that can be typed, what a
    model suggested (never done), and, when no model is set up, where to set one up."""
    if unknown_word and not suggestion:  # say what cannot be done, not that the line was unclear
        word = echo(unknown_word)
        parts = [f"{word!r} is not something I can do yet: no command I know uses that word."]
    else:
        parts = [f"I did not understand {echo(text)!r}."]
        if unknown_word:
            parts.append(f"{CANNOT} {echo(unknown_word)!r}.")
    if meant:
        parts.append(f"Did you mean “{meant}”?")
        nearest = [e for e in nearest if e != meant]
    if nearest:
        parts.append("Nearest commands: " + " · ".join(f'"{e}"' for e in nearest[:3]) + ".")
    if suggestion:
        said = " ".join(suggestion.split())
        said = said if len(said) <= 200 else said[:199] + "…"
        parts.append(f"The model suggested (nothing was done): {said}")
    if offer_model:
        parts.append(LLM_HINT)
    return " ".join(parts)


CANNOT = "No command I know uses the word"
SLIP = 0.85
"""How alike a word and one of the grammar's must be to be taken for a slip of it ("segement")."""


def unknown_verb(line: str, vocabulary: frozenset[str], names: Iterable[str] = ()) -> str | None:
    """The word a request opens with when no command's phrasing uses it, nor anything like it ("blur
    the image", not "segement it", a slip of "segment"), nor a live name: saying so is more use to
    the person than three examples that share no word with the line."""
    words = normalize(line).split()
    if not words:
        return None
    first = words[0].strip("?!.,;:'\"").casefold()
    if len(first) < 3 or not first.isalpha() or first in vocabulary:
        return None
    if any(name.casefold().split()[:1] == [first] for name in names if name.strip()):
        return None
    if difflib.get_close_matches(first, vocabulary, n=1, cutoff=SLIP):
        return None
    return first


def remark_line(text: str) -> str:
    """The reply to a line that tells or reacts rather than asks: nothing is done, and why."""
    said = f"Nothing to do for {echo(text)!r}: it reads as a remark, not a request"
    return f'{said} ("help" lists what I can do).'


def render_help(registry: Registry, topic: str | None = None, packs: Sequence[str] | None = None) -> str:
    """Without a topic, a short page: a line of examples for each pack in ``packs`` (default:
    all), and how to ask for the others; ``help <pack>`` lists that pack; ``help <word>`` finds."""
    if not topic and packs is not None:
        return _overview(registry, packs)
    by_name = {pack.name: pack for pack in registry.packs}
    if topic and topic.strip().casefold() in by_name:
        pack = by_name[topic.strip().casefold()]
        lines = [f"{pack.name}:"]
        for cls in pack.commands:
            examples = " · ".join(f'"{e}"' for e in cls.examples[:2]) or cls.action_name()
            lines.append(f"  {examples} — {cls.description()}")
        return "\n".join(lines)
    commands = registry.commands
    if topic:
        words = topic.casefold().split()
        chosen = {
            action: cls
            for action, cls in commands.items()
            if any(w in f"{action} {cls.description()} {' '.join(cls.examples)}".casefold() for w in words)
        }
        if not chosen:
            return f"Nothing matches {topic!r}. " + render_help(registry)
        commands = chosen
    lines = [] if topic else ["Type what you want; for example:"]
    for action, cls in commands.items():
        examples = " · ".join(f'"{e}"' for e in cls.examples[:2]) or action
        lines.append(f"  {examples} — {cls.description()}")
    if not topic:
        lines.append('Join requests with "and" or "then". "help <word>" narrows this list.')
    return "\n".join(lines)


def _overview(registry: Registry, packs: Sequence[str]) -> str:
    lines = ["Type what you want; for example:"]
    for pack in registry.packs:
        if pack.name not in packs:
            continue
        examples = [e for cls in pack.commands for e in cls.examples[:1]][:4]
        lines.append(f"  {pack.name}: " + " · ".join(f'"{e}"' for e in examples))
    others = [pack.name for pack in registry.packs if pack.name not in packs]
    lines.append(
        'Join requests with "and" or "then". "help <pack>" lists a pack'
        + (f" ({', '.join(others)} too)" if others else "")
        + '; "help <word>" finds commands.'
    )
    return "\n".join(lines)


GENERIC = frozenset(
    {"make", "what", "show", "with", "from", "into", "that", "this", "have", "please", "there", "some",
     "want", "like", "does", "just", "then", "them", "could", "would", "should", "which", "where",
     "when", "about", "give", "turn", "more", "less", "much", "very", "also", "were", "will"}
)  # fmt: skip
"""Words that say what kind of sentence it is, not which command: they do not make a match."""
NEAR_SPELLING = 0.8
"""How alike a line and an example must be, letter by letter, to count as a mistyped example."""


def _words(text: str) -> set[str]:
    return {w.strip("?!.,'\"") for w in text.split() if len(w) > 3}  # "the", "to", "on" say nothing


def suggest(
    registry: Registry,
    text: str,
    limit: int = 3,
    packs: Sequence[str] | None = None,
    live: Sequence[str] | None = None,
) -> list[str]:
    """Examples of the commands nearest to what was typed, among ``packs``' commands (default: all):
    shared words first, then spelling. When ``live`` names the packs in use (with live objects, or
    the viewer), they come first on a tie, and another pack's example is offered only on a strong
    match: a word in common that is not a mere "make" or "what", or a near spelling."""
    lowered = text.casefold()
    words = _words(lowered)
    scored = []
    for pack in registry.packs:
        if packs is not None and pack.name not in packs:
            continue
        in_use = live is None or pack.name in live
        for example in (e for cls in pack.commands for e in cls.examples):
            common = words & _words(example.casefold())
            spelling = difflib.SequenceMatcher(None, lowered, example.casefold()).ratio()
            if not in_use and not (common - GENERIC) and spelling < NEAR_SPELLING:
                continue
            scored.append(((len(common), in_use, spelling), example))
    scored.sort(key=lambda pair: pair[0], reverse=True)
    return [example for _, example in scored[:limit]]


def render_markdown(registry: Registry) -> str:
    """The command reference (docs/commands.md), generated from the models."""
    out = [
        "# Command reference",
        "",
        "Generated from the command models by `napari-talk commands --markdown`; do not edit.",
        'A command is one JSON object `{"action": name, ...parameters}`.',
    ]
    for pack in registry.packs:
        out += ["", f"## {pack.name}", ""]
        for cls in pack.commands:
            schema = registry.schema(cls.action_name())
            required = set(schema.get("required", []))
            out += [f"### `{cls.action_name()}` ({cls.risk})", "", cls.description(), ""]
            for name, prop in schema["properties"].items():
                flag = "" if name in required else " (optional)"
                out.append(f"- `{name}`{flag}: {prop.get('description', '')}")
            if cls.examples:
                out.append("- typed as: " + ", ".join(f"`{e}`" for e in cls.examples))
            out.append("")
    return "\n".join(out).rstrip() + "\n"
