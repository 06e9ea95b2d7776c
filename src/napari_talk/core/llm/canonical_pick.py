"""A line paraphrased by a model into the grammar's canonical language, the parser reading it.

After Shin et al. (EMNLP 2021, "Constrained Language Models Yield Few-Shot Semantic Parsers"): a
small model does not write commands; it picks, among the canonical phrasings
(:mod:`..grammar.canonical`) nearest to the line, the ones the line means (or none), and fills
their slots, its reply held by a JSON schema to the numbers offered and, for each slot, to a span of
the line or a live name. The filled phrasings are handed to the parser, so validation, name
resolution, grounding and consent stay where they are for typed lines.

The question is built so that a local server keeps most of it read: the instructions come first
and never change; the line and its choices come last. Replies are a few dozen tokens.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..grammar.rephrase import _COUNTS, _NUMERIC, CORE_NOUNS
from ..rules.text import quoted_spans, separators
from .canonical_templates import Template, templates

if TYPE_CHECKING:
    from ..contract.registry import Registry
    from ..grammar.canonical import Phrasing

Embed = Callable[[Sequence[str]], np.ndarray]

CHOICES = 8
"""Phrasings offered for one line (its clauses' nearest among them)."""
PER_COMMAND = 1
"""At most this many templates of one command: more commands offered brings more lines' command
among the offer (on the dev set, 48 of the 51 lines that reach the model with one a command, 45
with two)."""
MOST_COMMANDS = 3
"""A reply names at most this many commands (a line is a few requests at most)."""
SPAN_WORDS = 6
"""The longest span of the line a slot may hold, in words."""
MOST_SPANS = 160

INSTRUCTIONS = """You read requests typed into a scientific viewer (napari: image layers, optics \
scenes with rays and glasses, 3D models, an entity catalogue, project files). Each request comes \
with numbered commands written in the viewer's own language, with {slots} to fill. Reply with the \
command or commands that say what the request asks, in its order, each with its slots filled by \
words copied from the request or by names of things in the viewer. Choose 0 when no command says \
what the request asks: never a command that does something else.

Example. Request: "could you make the nuclei layer invisible"
1. remove {layer}
2. {op} {layer}
3. {op} all layers
0. none of these
Reply: {"commands": [{"choice": 2, "slots": {"op": "hide", "layer": "nuclei"}}]}

Example. Request: "what's the weather like"
1. list layers
2. help
0. none of these
Reply: {"commands": [{"choice": 0, "slots": {}}]}"""


@dataclass(frozen=True)
class Offer:
    """What a line is shown with: templates numbered from 1, and what their slots may hold."""

    line: str
    templates: tuple[Template, ...]
    spans: tuple[str, ...]
    names: Mapping[str, tuple[str, ...]]

    def question(self) -> str:
        lines = [f"Request: {json.dumps(self.line, ensure_ascii=False)}"]
        lines += [f"{number}. {t.shown()}" for number, t in enumerate(self.templates, 1)]
        lines += ["0. none of these", "Reply:"]
        return "\n".join(lines)

    def messages(self) -> list[dict[str, Any]]:
        return [{"role": "system", "content": INSTRUCTIONS}, {"role": "user", "content": self.question()}]

    def schema(self) -> dict[str, Any]:
        """Each command a number offered (0: none) with its own slots: a word slot one of its
        map's words, a value slot a span of the line or, for a name, a live name of its kind."""
        picks: list[dict[str, Any]] = [_pick(0, {})]
        for number, template in enumerate(self.templates, 1):
            slots = {key: {"enum": self._values(kind, words)} for key, kind, words in template.slots}
            picks.append(_pick(number, slots))
        items = {"anyOf": picks}
        return {
            "type": "object",
            "properties": {
                "commands": {"type": "array", "items": items, "minItems": 1, "maxItems": MOST_COMMANDS}
            },
            "required": ["commands"],
            "additionalProperties": False,
        }

    def _values(self, kind: str, words: tuple[str, ...] = ()) -> list[str]:
        if words:
            return list(words)
        names = [] if kind in _NUMERIC or kind in _COUNTS else list(self.names.get(kind, ()))
        return list(dict.fromkeys([*self.spans, *names])) or [""]

    def canonical(self, reply: str | None) -> str | None:
        """The filled templates a reply names, as one line for the parser (clauses joined by
        "then"); None for none, or for a reply that breaks the offer in any way."""
        try:
            data = json.loads(reply or "")
        except ValueError:
            return None
        picked = data.get("commands") if isinstance(data, dict) else None
        if not isinstance(picked, list) or not 1 <= len(picked) <= MOST_COMMANDS:
            return None
        clauses = []
        for item in picked:
            if not isinstance(item, dict):
                return None
            choice, slots = item.get("choice"), item.get("slots") or {}
            if choice == 0 and len(picked) == 1:
                return None
            if (
                not isinstance(choice, int)
                or isinstance(choice, bool)
                or not 1 <= choice <= len(self.templates)
            ):
                return None
            if not isinstance(slots, dict):
                return None
            clause = self._filled(self.templates[choice - 1], slots)
            if clause is None:
                return None
            clauses.append(clause)
        return " then ".join(clauses)

    def _filled(self, template: Template, slots: Mapping[str, Any]) -> str | None:
        values = []
        for key, kind, words in template.slots:
            value = slots.get(key)
            if not isinstance(value, str) or not value or value not in self._values(kind, words):
                return None  # a value the line does not hold: the model's, not the person's
            written = value if words else _written(kind, value)
            if written is None:
                return None
            values.append(written)
        return template.text.format(*values)


def _pick(number: int, slots: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "choice": {"const": number},
            "slots": {
                "type": "object",
                "properties": slots,
                "required": list(slots),
                "additionalProperties": False,
            },
        },
        "required": ["choice", "slots"],
        "additionalProperties": False,
    }


_NUMBERS = re.compile(r"-?\d+(?:\.\d+)?")


def _written(kind: str, value: str) -> str | None:
    """A slot's value as the canonical language writes it."""
    if kind in _COUNTS:
        numbers = _NUMBERS.findall(value)
        if len(numbers) != _COUNTS[kind]:
            return None
        return f"({numbers[0]}, {numbers[1]})" if kind == "point" else " ".join(numbers)
    if kind in ("text", "word"):
        return "'" + value.strip("'\"") + "'"
    return value


_TOKEN = re.compile(r"\S+")
_EDGE = '.,;:!?"()'


def spans(line: str) -> list[str]:
    """Every run of up to :data:`SPAN_WORDS` words of the line (edge punctuation dropped), and its
    quoted texts whole."""
    words = [w.strip(_EDGE) for w in _TOKEN.findall(line)]
    found = [line[a + 1 : b - 1] for a, b in quoted_spans(line)]
    for start in range(len(words)):
        for end in range(start + 1, min(start + SPAN_WORDS, len(words)) + 1):
            found.append(" ".join(w for w in words[start:end] if w))
    return [s for s in dict.fromkeys(found) if s][:MOST_SPANS]


class Picker:
    """The canonical phrasings embedded once (bare: each slot read as what it holds) and their
    templates; :meth:`offer` finds the templates nearest to a line and to each of its clauses."""

    def __init__(
        self, registry: Registry, bank: Sequence[Phrasing], vectors: np.ndarray, embed: Embed
    ) -> None:
        self.templates, self._of = templates(bank, registry)
        self._nouns = {**CORE_NOUNS, **registry.nouns}
        self.vectors = vectors
        self._embed = embed

    def offer(self, line: str, bare: str, names: Mapping[str, Sequence[str]]) -> Offer:
        """``bare``: the line with its values read as what they are (see ``rephrase.values_of``)."""
        clauses = [bare, *_clauses(bare)]
        near = self.vectors @ self._embed(clauses).T  # phrasings × clauses
        scores = np.full((len(self.templates), len(clauses)), -np.inf, np.float32)
        np.maximum.at(scores, np.asarray(self._of), near)
        # the phrasings sample a word map's words: a template taking a word the line says is
        # measured again with that word in its slot
        folded = f" {' '.join(_WORD.findall(line.casefold()))} "
        again = [
            at for at, t in enumerate(self.templates) if any(_said(words, folded) for _, _, words in t.slots)
        ]
        if again:
            texts = [_bare(self.templates[at], folded, self._nouns) for at in again]
            scores[again] = np.maximum(scores[again], self._embed(texts) @ self._embed(clauses).T)
        order = np.argsort(-scores, axis=0)
        chosen: list[int] = []
        per: dict[str, int] = {}
        for rank in range(len(order)):
            for column in range(len(clauses)):
                at = int(order[rank, column])
                action = self.templates[at].action
                if at in chosen or per.get(action, 0) >= PER_COMMAND:
                    continue
                chosen.append(at)
                per[action] = per.get(action, 0) + 1
            if len(chosen) >= CHOICES:
                break
        live = {kind: tuple(v for v in found if v) for kind, found in names.items()}
        offered = tuple(self.templates[at] for at in chosen[:CHOICES])
        return Offer(line, offered, tuple(spans(line)), live)


_WORD = re.compile(r"[a-z0-9']+")


def _said(words: Sequence[str], folded: str) -> str | None:
    return next((w for w in words if f" {w} " in folded), None)


def _bare(template: Template, folded: str, nouns: Mapping[str, str]) -> str:
    """A template as ``rephrase.values_of`` leaves a line, with the words the line says in its
    word slots."""
    shown = []
    for _, kind, words in template.slots:
        if words:
            shown.append(_said(words, folded) or words[0])
        elif kind in _COUNTS or kind in _NUMERIC:
            shown.append(" ".join(["2"] * _COUNTS.get(kind, 1)))
        else:
            shown.append(nouns.get(kind, "thing"))
    return " ".join(template.text.format(*shown).split())


def _clauses(text: str) -> list[str]:
    """The parts of a line between the places it may split into requests."""
    cuts = separators(text)
    if not cuts:
        return []
    parts, at = [], 0
    for start, end in cuts:
        parts.append(text[at:start].strip())
        at = end
    parts.append(text[at:].strip())
    return [p for p in parts if p]
