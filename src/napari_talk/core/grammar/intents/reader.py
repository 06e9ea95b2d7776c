"""The intent reader: a free line's command chosen by a trained classifier, its words and values
by the canonical phrasings of that command.

The nearest-neighbour reader (:class:`..rephrase.Rephraser`) takes the single canonical phrasing
nearest the line. This one asks a softmax regression over the sentence model's vectors
(:mod:`.classifier`, trained on the grammar's phrasings and free variants of them,
:mod:`.training`) which command the line asks for, among the commands whose phrasings take the
values the line says, and fills that command's nearest phrasing with them; the parser reads the
result, so validation, names and grounding stay the parser's. A command is kept only when the
classifier is sure of it, and clearly surer than of any other that fits.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..rephrase import Embed, Phrasing, Reading, Rephraser, Values, fill, values_of
from ..text import separators
from .classifier import IntentModel, train
from .guards import keeps

if TYPE_CHECKING:
    from ...contract.registry import Registry

log = logging.getLogger(__name__)
SHIPPED = Path(__file__).with_name("minilm_intents.npz")
"""The weights the training script (``benchmarks/train_intents.py``) writes, for the int8 MiniLM."""
SURE = 0.6
"""The command's probability (among the commands that fit the line's values) must be at least this..."""
CLEAR_BY = 0.3
"""...and this much above the next command's that fits."""
NEAR_ENOUGH = 0.6
"""The phrasing filled must still be this near the line (cosine): a sure class of a far line is noise."""
NEAREST_WEIGHT = 10.0
"""How much a command's nearest phrasing adds to the classifier's log-odds for it (per unit of
cosine): a line said almost as a phrasing is of its command ("hide layer" is no "show only
layer", which a linear model over sentence vectors alone confuses), a paraphrase is the
classifier's to read."""


def shipped_model(actions: Sequence[str]) -> IntentModel | None:
    """The shipped weights, when they know every action given (a pack added since needs new ones)."""
    try:
        model = IntentModel.load(SHIPPED)
    except (OSError, ValueError, KeyError):
        return None
    return model if set(actions) <= set(model.actions) else None


class IntentReader(Rephraser):
    """A :class:`Rephraser` whose choice of command is a classifier's (see the module's docstring)."""

    def __init__(self, registry: Registry, embed: Embed, model: IntentModel | None = None) -> None:
        super().__init__(registry, embed)
        actions = [p.action for p in self.phrasings]
        if model is None:
            model = shipped_model(actions)
        if model is None:  # weights for these phrasings, from their own vectors (a second or two)
            log.info("the intent reader trains on the phrasings' vectors: no shipped weights fit")
            model = train(self.vectors, actions)
        self.model = model
        self._column = {a: i for i, a in enumerate(model.actions)}

    def read(
        self, line: str, context: Mapping[str, Sequence[str]], parses: Callable[[str], list[dict[str, Any]]]
    ) -> Reading | None:
        values = values_of(line, context, self._common, self._nouns)
        if not values.bare or separators(line):
            return None
        said = (len(values.names), len(values.numbers), len(values.quoted), len(values.paths))
        candidates = self._by_signature.get(said)
        if not candidates:
            return None
        query = self._embed([values.bare])[0]
        cosines = self.vectors[candidates] @ query
        chances = self.model.probabilities(query)
        by_action: dict[str, list[tuple[float, Phrasing]]] = {}
        for at in np.argsort(-cosines):
            phrasing = self.phrasings[candidates[at]]
            by_action.setdefault(phrasing.action, []).append((float(cosines[at]), phrasing))
        known = [a for a in by_action if a in self._column]
        if not known:
            return None
        logits = np.array(
            [np.log(chances[self._column[a]] + 1e-12) + NEAREST_WEIGHT * by_action[a][0][0] for a in known]
        )
        odds = np.exp(logits - logits.max())
        fitting = dict(zip(known, (odds / odds.sum()).tolist(), strict=True))
        total = 1.0
        ranked = sorted(fitting, key=lambda a: -fitting[a])
        found: list[tuple[float, str, str, float]] = []  # probability, action, canonical, cosine
        for action in ranked:
            chance = fitting[action] / total
            if len(found) == 2 or (found and chance < found[0][0] - CLEAR_BY):
                break  # no later command could come near enough the first to matter
            reading = self._first_fitting(action, by_action[action], values, parses, first=not found)
            if reading is not None:
                found.append((chance, action, *reading))
            elif found == [] and self._fits(by_action[action], values):
                return None  # the likeliest command fits the values but the parser reads it otherwise
        if not found:
            return None
        chance, action, canonical, cosine = found[0]
        runner_up = found[1][0] if len(found) > 1 else 0.0
        if chance < SURE or chance - runner_up < CLEAR_BY or cosine < NEAR_ENOUGH:
            return None
        return Reading(canonical, action, chance, runner_up)

    def _fits(self, phrasings: Sequence[tuple[float, Phrasing]], values: Values) -> bool:
        return any(
            (canonical := fill(p, values, self._fillers)) is not None and self._agrees(values, canonical, p)
            for _, p in phrasings
        )

    def _first_fitting(
        self,
        action: str,
        phrasings: Sequence[tuple[float, Phrasing]],
        values: Values,
        parses: Callable[[str], list[dict[str, Any]]],
        first: bool,
    ) -> tuple[str, float] | None:
        """The nearest of the command's phrasings that the line's values fill and that says what the
        line says; for the ``first`` command, also one the parser reads as it, inventing nothing."""
        for cosine, phrasing in phrasings:
            canonical = fill(phrasing, values, self._fillers)
            if canonical is None or not self._agrees(values, canonical, phrasing):
                continue
            if first and not keeps(values.bare, values.line, canonical):
                continue
            if first:
                read = parses(canonical)
                if [c.get("action") for c in read] != [action] or self._invents(read[0], values):
                    continue
            return canonical, cosine
        return None
