"""The canonical phrasings as a model is offered them: each word a rule takes from a word map
("hide", "conceal", "show"...) opened into a slot of that map's words, so that one template stands
for every way its command's rules let it be said, and a model choosing among templates also
chooses the word ("{op} the {layer}")."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..grammar.rephrase import _NUMERIC, CORE_NOUNS

if TYPE_CHECKING:
    from ..contract.registry import Registry
    from ..grammar.canonical import Phrasing


@dataclass(frozen=True)
class Template:
    """A canonical phrasing as offered: its value slots, and each word-map word it says (hide,
    show, conceal...) opened into a slot of that map's words, so one template stands for every way
    its command's rules let it be said ("{op} the {layer}")."""

    action: str
    text: str
    """With ``{0}``, ``{1}``, ... for the slots, in order."""
    slots: tuple[tuple[str, str, tuple[str, ...]], ...]
    """Per slot: its key, its kind (a word map's field for a word slot), its words (empty: a value)."""

    def shown(self) -> str:
        return self.text.format(*("{" + key + "}" for key, _, _ in self.slots))


def templates(bank: Sequence[Phrasing], registry: Registry) -> tuple[list[Template], list[int]]:
    """The templates of the phrasings (deduplicated), and for each phrasing its template's index."""
    nouns = {**CORE_NOUNS, **registry.nouns}
    maps: dict[str, dict[str, tuple[str, ...]]] = {}
    for rule in registry.rules:
        for field, words in rule.choices.items():
            maps.setdefault(rule.action, {}).setdefault(field, ())
            maps[rule.action][field] = tuple(sorted({*maps[rule.action][field], *words}))
    found: dict[tuple[str, str], int] = {}
    made: list[Template] = []
    of: list[int] = []
    for phrasing in bank:
        template = _opened(phrasing, maps.get(phrasing.action, {}), nouns)
        key = (template.action, template.text)
        if key not in found:
            found[key] = len(made)
            made.append(template)
        of.append(found[key])
    return made, of


_PLACE = re.compile(r"\{(\d+)\}")


def _opened(phrasing: Phrasing, maps: Mapping[str, tuple[str, ...]], nouns: Mapping[str, str]) -> Template:
    pieces = _PLACE.split(phrasing.text)  # literal, slot number, literal, ...
    parts: list[str] = []
    slots: list[tuple[str, str, tuple[str, ...]]] = []
    keys: list[str] = []

    def key_for(base: str) -> str:
        key, n = base, 2
        while key in keys:
            key, n = f"{base}{n}", n + 1
        keys.append(key)
        return key

    for at, piece in enumerate(pieces):
        if at % 2:
            slot = phrasing.slots[int(piece)]
            base = "number" if slot.kind in _NUMERIC else nouns.get(slot.kind, slot.kind)
            slots.append((key_for(base), slot.kind, ()))
            parts.append("{" + str(len(slots) - 1) + "}")
            continue
        literal = piece  # already a format string: its own braces are doubled
        for field, words in maps.items():
            for word in sorted(words, key=len, reverse=True):
                match = re.search(rf"(?<![\w']){re.escape(word)}(?![\w'])", literal)
                if match is None:
                    continue
                head, tail = literal[: match.start()], literal[match.end() :]
                literal = f"{head}\x00{len(slots)}\x00{tail}"
                slots.append((key_for(field), field, words))
                break
        parts.append(re.sub("\x00(\\d+)\x00", lambda m: "{" + m.group(1) + "}", literal))
    text = "".join(parts)
    # the slots in the order they appear in the text
    order = [int(m) for m in re.findall(r"(?<!\{)\{(\d+)\}(?!\})", text)]
    renumbered = re.sub(
        r"(?<!\{)\{(\d+)\}(?!\})", lambda m: "{" + str(order.index(int(m.group(1)))) + "}", text
    )
    return Template(phrasing.action, renumbered, tuple(slots[i] for i in order))
