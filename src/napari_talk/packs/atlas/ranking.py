"""How a query's matches are ordered: the cosine of its vector with each entity's, plus a little
for each of the query's words the entity's text holds (hybrid lexical + vector scoring).

A sentence model reads "something red" as a mood more than a colour; the word "red" in an
entity's visual notes settles it. The bonus is small beside the cosine, so a paraphrase that
shares no word with its entity still ranks by meaning (``benchmarks/atlas_attributes.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .catalogue import Entity

WORD_WEIGHT = 0.2
"""What the share of the query's words found in an entity's text adds to its cosine."""
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
    query: str, vector: np.ndarray, entities: Sequence[Entity], vectors: np.ndarray
) -> np.ndarray:
    """One score per entity (higher is closer): its cosine with the query, plus its word bonus."""
    return vectors @ vector + word_bonus(query, entities)


def reranked(query: str, hits: list[tuple[Entity, float]], limit: int) -> list[tuple[Entity, float]]:
    """The ``limit`` best of a search's hits (entity, cosine) by cosine plus word bonus; each
    keeps its cosine, which is what the reply's bands read."""
    bonus = word_bonus(query, [e for e, _ in hits])
    order = sorted(range(len(hits)), key=lambda i: -(hits[i][1] + float(bonus[i])))
    return [hits[i] for i in order[:limit]]
