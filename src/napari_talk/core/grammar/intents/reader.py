"""The intent reader: a free line's command chosen by a trained classifier, its words and values
by the canonical phrasings of that command.

The nearest-neighbour reader (:class:`..rephrase.Rephraser`) takes the single canonical phrasing
nearest the line. This one asks a softmax regression over the sentence model's vectors
(:mod:`.classifier`, trained on the grammar's phrasings and free variants of them,
:mod:`.training`) which command the line asks for, among the commands whose phrasings take the
values the line says, and fills that command's nearest phrasing with them; the parser reads the
result, so validation, names and grounding stay the parser's. A command is kept only when the
classifier is sure of it, and clearly surer than of any other that fits, and a reading only when
it keeps the line's directions, spelled numbers and unknown names (:mod:`.guards`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...rules.text import separators
from ..rephrase import Embed, Phrasing, Reading, Rephraser, Values, fill, values_of
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
FALLBACK_STEPS = 100
"""Training steps when no shipped weights know every command (a pack added since): fewer than the
script's, so that getting ready takes seconds."""
READ_BACK = 0.8
"""The share of the grammar's own phrasings that weights must read as their commands to be used:
weights made for another sentence model read far fewer (or cannot be applied at all)."""
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


def _reads_back(model: IntentModel, vectors: np.ndarray, actions: Sequence[str]) -> bool:
    if model.weights.shape[0] != vectors.shape[1]:
        return False
    column = {a: i for i, a in enumerate(model.actions)}
    guessed = np.argmax(vectors @ model.weights + model.bias, axis=1)
    return float(np.mean(guessed == np.array([column[a] for a in actions]))) >= READ_BACK


class IntentReader(Rephraser):
    """A :class:`Rephraser` whose choice of command is a classifier's (see the module's docstring)."""

    def __init__(self, registry: Registry, embed: Embed, model: IntentModel | None = None) -> None:
        super().__init__(registry, embed)
        actions = [p.action for p in self.phrasings]
        if model is None:
            model = shipped_model(actions)
            if model is not None and not _reads_back(model, self.vectors, actions):
                model = None  # weights made for another sentence model
        if model is None:  # weights for these phrasings, from their own vectors (seconds)
            log.info("the intent reader trains on the phrasings' vectors: no shipped weights fit")
            model = train(self.vectors, actions, steps=FALLBACK_STEPS)
        self.model = model
        self._column = {a: i for i, a in enumerate(model.actions)}
        self._groups = {said: _Group.of(self, indices) for said, indices in self._by_signature.items()}
        """Per signature, its phrasings grouped by command: a line's nearest phrasing of each command
        at one product and one reduction."""

    def read(
        self, line: str, context: Mapping[str, Sequence[str]], parses: Callable[[str], list[dict[str, Any]]]
    ) -> Reading | None:
        values = values_of(line, context, self._common, self._nouns)
        if not values.bare or separators(line):
            return None
        said = (len(values.names), len(values.numbers), len(values.quoted), len(values.paths))
        group = self._groups.get(said)
        if group is None or not group.actions:
            return None
        query = self.embed([values.bare])[0]
        cosines = group.vectors @ query
        nearest = np.maximum.reduceat(cosines, group.starts)
        logits = np.log(self.model.probabilities(query)[group.columns] + 1e-12) + NEAREST_WEIGHT * nearest
        odds = np.exp(logits - logits.max())
        chances = odds / odds.sum()
        found: list[tuple[float, str, str, float]] = []  # probability, action, canonical, cosine
        for at in np.argsort(-chances):
            chance, action = float(chances[at]), group.actions[at]
            if not found and chance < SURE:
                return None  # no command left is sure enough
            if found and chance < found[0][0] - CLEAR_BY:
                break  # no command left comes near enough the first to matter
            reading = self._first_fitting(action, group.nearest_first(at, cosines), values, parses, not found)
            if reading is not None:
                found.append((chance, action, *reading))
                if len(found) == 2:
                    break
            elif not found and self._fits(group.nearest_first(at, cosines), values):
                return None  # the likeliest command fits the values but the parser reads it otherwise
        if not found:
            return None
        chance, action, canonical, cosine = found[0]
        runner_up = found[1][0] if len(found) > 1 else 0.0
        if chance - runner_up < CLEAR_BY or cosine < NEAR_ENOUGH:
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


@dataclass(frozen=True)
class _Group:
    """The phrasings of one signature the classifier knows the commands of, grouped by command."""

    phrasings: list[Phrasing]
    vectors: np.ndarray
    starts: np.ndarray
    """Where each command's phrasings begin in :attr:`phrasings`."""
    actions: list[str]
    columns: np.ndarray
    """Each command's column among the classifier's."""

    @classmethod
    def of(cls, reader: IntentReader, indices: Sequence[int]) -> _Group:
        known = [i for i in indices if reader.phrasings[i].action in reader._column]
        known.sort(key=lambda i: reader.phrasings[i].action)
        actions: list[str] = []
        starts: list[int] = []
        for at, i in enumerate(known):
            if not actions or actions[-1] != reader.phrasings[i].action:
                actions.append(reader.phrasings[i].action)
                starts.append(at)
        return cls(
            [reader.phrasings[i] for i in known],
            reader.vectors[known] if known else np.zeros((0, reader.vectors.shape[1]), np.float32),
            np.array(starts, dtype=np.intp),
            actions,
            np.array([reader._column[a] for a in actions], dtype=np.intp),
        )

    def nearest_first(self, at: int, cosines: np.ndarray) -> list[tuple[float, Phrasing]]:
        """The ``at``-th command's phrasings, nearest the line first."""
        begin = int(self.starts[at])
        end = int(self.starts[at + 1]) if at + 1 < len(self.starts) else len(self.phrasings)
        order = begin + np.argsort(-cosines[begin:end], kind="stable")
        return [(float(cosines[i]), self.phrasings[i]) for i in order]
