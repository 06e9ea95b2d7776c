"""How a query's matches are ordered: its similarity to each entity (the cosine of their vectors
on the model's measured scale, so a model whose cosines all fall in 0.8–0.9 is weighed alike), plus a little
for each of the query's words the entity's text holds (hybrid lexical + vector scoring).

A sentence model reads "something red" as a mood more than a colour; the word "red" in an
entity's visual notes settles it. The bonus is small beside the cosine, so a paraphrase that
shares no word with its entity still ranks by meaning (``benchmarks/atlas_attributes.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .calibration import Scale
from .catalogue import Entity

WORD_WEIGHT = 0.2
"""What the share of the query's words found in an entity's text adds to its similarity (0–1)."""
STOP_WORDS = (
    "a an the of in on at to and or for with by from that who which its it is are as into me show find like"
    " look looks something some one ones pictures picture images image entities entity things"
    " almost mostly very"
)
STOP = frozenset(STOP_WORDS.split())


def words(text: str) -> set[str]:
    """The text's words that carry meaning, cut to five letters ("stripes", "striped")."""
    return {w[:5] for w in re.findall(r"[a-z]+", text.casefold()) if len(w) > 2 and w not in STOP}


def word_bonus(query: str, entities: Sequence[Entity]) -> np.ndarray:
    """What each entity's score gains for holding the query's words."""
    asked = words(query)
    if not asked:
        return np.zeros(len(entities), np.float32)
    return WORD_WEIGHT * np.array([len(asked & words(e.text())) / len(asked) for e in entities], np.float32)


def rank_scores(
    query: str, vector: np.ndarray, entities: Sequence[Entity], vectors: np.ndarray, scale: Scale
) -> np.ndarray:
    """One score per entity (higher is closer): its similarity to the query on the model's
    measured scale (see :mod:`.calibration`), plus its word bonus."""
    return scale.similarity(vectors @ vector) + word_bonus(query, entities)


def reranked(
    query: str, hits: list[tuple[Entity, float]], limit: int, scale: Scale
) -> list[tuple[Entity, float]]:
    """The ``limit`` best of a search's hits (entity, cosine) by similarity plus word bonus; each
    keeps its cosine, which is what the reply's bands read."""
    similarity = scale.similarity(np.array([c for _, c in hits], np.float64)) if hits else np.zeros(0)
    score = similarity + word_bonus(query, [e for e, _ in hits])
    order = sorted(range(len(hits)), key=lambda i: -float(score[i]))
    return [hits[i] for i in order[:limit]]
