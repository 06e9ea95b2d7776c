"""How people ask for the files pack's commands, as grammar rules (see :mod:`napari_talk.core.rules.rule`):
:mod:`.texts` reads, writes, edits, lists and searches text files and reads tasks; :mod:`.verbs` the
file manager's verbs (delete, move, copy, make a folder, ...) and files named as people say them."""

from __future__ import annotations

from ....core.rules.rule import Rule
from . import texts, verbs

RULES: tuple[Rule, ...] = (*texts.RULES, *verbs.VERB_RULES)

__all__ = ["RULES"]
