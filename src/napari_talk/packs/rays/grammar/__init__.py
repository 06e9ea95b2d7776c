"""How people ask for the rays pack's commands, as grammar rules (see :mod:`napari_talk.core.rules.rule`):
:mod:`.requests` the queries, edits and scene commands, and the phrases the others share;
:mod:`.elements` adding a mirror, a detector or a lens; :mod:`.questions` questions in words."""

from __future__ import annotations

from ....core.rules.rule import Rule
from . import elements, questions, requests

RULES: tuple[Rule, ...] = (*requests.RULES, *elements.ELEMENTS, *questions.QUESTIONS)

__all__ = ["RULES"]
