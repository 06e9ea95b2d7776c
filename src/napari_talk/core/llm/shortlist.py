"""The commands a line can plausibly mean, likeliest first: a model is offered those, not all.

Every function offered costs tokens on every request, and a small local model chooses worse among
many. Each command's vocabulary is what the project already says about it: its name, description,
parameters and examples, and the words of its grammar rules (their synonyms: "disappear" is a way to
hide a layer). A line's words are weighed by how few commands share them; a live name in the line
(a layer, a glass) counts for the commands that take such a name.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..basics.commands import NAMES_KEY

if TYPE_CHECKING:
    from ..contract.registry import Registry

_WORD = re.compile(r"[a-z]{3,}")
_STOP_WORDS = """the and for with from into onto that this then than them they what when which while
you your its are was were has have had can could would should will please just bit little some any
all one two out off not but too very more less much make made let set get put give take want need
like look see show using use about over under other"""
_STOP = frozenset(_STOP_WORDS.split())
"""Words that say nothing about which command is meant (most lines have them)."""
_REGEX_SYNTAX = re.compile(r"\{[^}]*\}|\(\?[:!=<]*|\\[a-zA-Z]")
STEM = 5
NAME_WEIGHT = 1.5
"""A live name in the line counts as much as a rare word, for the commands that take one."""


def _stems(text: str) -> set[str]:
    return {w[:STEM] for w in _WORD.findall(text.casefold()) if w not in _STOP}


def _schema_words(schema: Any) -> Iterable[str]:
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key in ("description", "const") and isinstance(value, str):
                yield value
            elif key == "enum":
                yield " ".join(map(str, value))
            elif key == "properties":
                yield " ".join(value)
            yield from _schema_words(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _schema_words(item)


def name_kinds(schema: dict[str, Any]) -> set[str]:
    """The kinds of live names (layers, glasses, ...) a command's parameters take."""
    return {p[NAMES_KEY] for p in schema.get("properties", {}).values() if NAMES_KEY in p}


def command_texts(registry: Registry) -> dict[str, list[str]]:
    """Everything the project says about each command: its name, description, parameters,
    examples, and the words of its grammar rules."""
    texts: dict[str, list[str]] = {}
    for action, cls in registry.commands.items():
        texts[action] = [
            action.replace("_", " "),
            cls.description(),
            *cls.examples,
            *_schema_words(registry.schema(action)),
        ]
    for rule in registry.rules:
        if rule.action in texts:
            texts[rule.action] += [_REGEX_SYNTAX.sub(" ", t) for t in rule.templates]
            texts[rule.action] += [" ".join(map(str, words)) for words in rule.choices.values()]
    return texts


class Shortlist:
    """Built once per registry (a few ms); :meth:`choose` then takes microseconds."""

    def __init__(self, registry: Registry) -> None:
        texts = command_texts(registry)
        self._kinds = {action: name_kinds(registry.schema(action)) for action in registry.commands}
        self._vocab = {action: _stems(" ".join(parts)) for action, parts in texts.items()}
        spread = Counter(stem for stems in self._vocab.values() for stem in stems)
        total = len(self._vocab)
        self._weight = {stem: math.log((total + 1) / (n + 0.5)) for stem, n in spread.items()}

    def scores(
        self, text: str, actions: Sequence[str], names: Mapping[str, Sequence[str]]
    ) -> dict[str, float]:
        stems = _stems(text)
        folded = text.casefold()
        mentioned = {
            kind for kind, values in names.items() if any(v and v.casefold() in folded for v in values)
        }
        return {
            action: sum(self._weight[s] for s in stems & self._vocab[action])
            + NAME_WEIGHT * len(self._kinds[action] & mentioned)
            for action in actions
        }

    def choose(
        self,
        text: str,
        actions: Sequence[str],
        names: Mapping[str, Sequence[str]] | None = None,
        *,
        keep: int,
    ) -> tuple[str, ...]:
        """At most ``keep`` of ``actions`` (all of them when ``keep`` is 0), in their own order.

        A line that shares no word with any command keeps the first ``keep``: the pool's order
        puts each pack's everyday commands first.
        """
        if keep <= 0 or len(actions) <= keep:
            return tuple(actions)
        scores = self.scores(text, actions, names or {})
        ranked = sorted((a for a in actions if scores[a] > 0), key=lambda a: -scores[a])[:keep]
        if not ranked:
            ranked = list(actions[:keep])
        chosen = set(ranked)
        return tuple(a for a in actions if a in chosen)
