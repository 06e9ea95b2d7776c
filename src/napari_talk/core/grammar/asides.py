"""An option said as an aside: "find 'TODO', case sensitive, in scripts", "find 'CD31' (exact
case) in reports", "list every file, subfolders included", "the readings as a table".

A rule's word map for a yes/no field ("case sensitive", "recursively") says where its template
expects the option; people also say it set off by commas or brackets anywhere in the request, or
as "<thing> included". Such an aside is lifted out, the rest is read, and the option is given to
the field of that name when the reading's command has it and did not say it already. The words
are the packs' own (their rules' word maps), so a pack adds an option word once, for both.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..rules.rule import Rule

_SLOT = re.compile(r"\{(\w+):(\w+)\}")
_INCLUDED = re.compile(r"\b(?P<what>[a-z-]+(?: [a-z-]+)?) included\b", re.IGNORECASE)
""""subfolders included" is "including subfolders"."""


@dataclass(frozen=True)
class Asides:
    """Every yes/no option word of the rules, as one pattern that finds one set off in a clause."""

    pattern: re.Pattern[str] | None
    fields: Mapping[str, tuple[str, Any]]
    """An option's words (folded) → (field, value)."""

    @classmethod
    def of(cls, rules: tuple[Rule, ...]) -> Asides:
        fields: dict[str, tuple[str, Any]] = {}
        for rule in rules:
            slots = {kind: field for t in rule.templates for field, kind in _SLOT.findall(t)}
            for kind, choices in rule.choices.items():
                field = slots.get(kind)
                model = rule.command.model_fields.get(field) if field else None
                if field is None or model is None or model.annotation is not bool:
                    continue
                for words, value in choices.items():
                    if value is True:  # an aside says an option is on: "case sensitive", "recursively"
                        fields.setdefault(words, (field, value))
        if not fields:
            return cls(None, {})
        words = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(fields, key=len, reverse=True))
        pattern = re.compile(
            rf"(?:\s*,\s*|\s*\(\s*|\s+(?=(?:{words})\s*$))(?:as\s+a\s+|in\s+a\s+)?(?P<words>{words})"
            rf"(?:\s*\)|\s*,(?=\s)|\s*$)",
            re.IGNORECASE,
        )
        return cls(pattern, fields)

    def lift(self, clause: str) -> tuple[str, str, Any] | None:
        """(the clause without its aside, the field, its value), or None when it says none."""
        if self.pattern is None:
            return None
        said = _INCLUDED.sub(lambda m: f"including {m['what']}", clause)
        found = self.pattern.search(said)
        if found is None:
            return None
        words = " ".join(found["words"].split()).casefold()
        field, value = self.fields[words]
        rest = f"{said[: found.start()]} {said[found.end() :]}"
        return " ".join(rest.split()), field, value
