"""How a query's matches are ordered: by meaning and by the look a query names.

Each entity scores

- its similarity to the query: the cosine of their vectors on the model's measured scale
  (:mod:`.calibration`, so a model whose cosines all fall in 0.8–0.9 weighs alike);
- plus :data:`FACET_WEIGHT` × how strongly it has the facets the query names × the query's focus
  on looks: "something red", "grid patterns", "a swirl" name colours, tones, patterns and shapes
  (:data:`.lexicon.FACET_WORDS`); an entity has a facet as far as its picture shows it
  (:mod:`.facets`, measured on the thumbnail) or its description says it. The focus is the share
  of the query's words that name facets: all of "a swirl", a sixth of "a hushed heart with a lone
  icy pale throb", so a paraphrase that mentions a colour in passing still ranks by meaning;
- the similarity is of the whole text, or of the description alone where that is closer (for the
  :data:`DESCRIBED` nearest);
- plus :data:`CONCEPT_WEIGHT` × the share of the query's near-synonym groups
  (:data:`.lexicon.CONCEPTS`) its text holds.

A sentence model reads "something red" as a mood more than a colour, and "tiled squares" as
anything tidy; the facets settle it. ``benchmarks/atlas_attributes.py`` measures the candidates
(each part alone, the weights) on attribute queries and paraphrases side by side.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from . import facets
from .calibration import Scale
from .catalogue import Entity
from .lexicon import CONCEPTS, FACETS_OF_WORD, STOP_WORDS, stem

FACET_WEIGHT = 0.8
"""What holding every facet a query names adds to an entity's similarity (on the 0–1 scale of
:mod:`.calibration`), for a query all about looks; chosen on the tuning sets with
``benchmarks/atlas_attributes.py``."""
CONCEPT_WEIGHT = 0.1
"""What sharing all of a query's near-synonym groups with an entity's text adds ("gilded" meets
"golden", "icy" meets "cold"): small beside the similarity, as a paraphrase's words are not its
entity's."""
DESCRIBED = 20
"""How many of the nearest entities by whole text are compared by their description alone too:
a query about what an entity is or does meets its description diluted, in the whole text, by the
name, domain and prompt (the strict paraphrase tuning set: recall@3 0.80 → 0.90). Their vectors
are embedded at search time (a local model remembers them), so only a few."""
FOCUS = 1.0
"""The power of the focus that scales the facet bonus (0: not scaled)."""
_WORD = re.compile(r"[a-z]+")
LOOKING_WORDS = (
    "show find look looks looking like pictures picture images image photos photo ones entities entity"
    " things something anything everything mostly almost very nearly lines line pattern patterns"
    " patterned shape shapes colour colours color colors tone tones shade shades hue hues palette"
)
LOOKING = frozenset(LOOKING_WORDS.split())
"""Words of a request that say nothing about what is asked for, or only that it is about looks."""


@dataclass(frozen=True)
class Weights:
    """How the parts of a score are weighed (the defaults are what search uses)."""

    facet: float = FACET_WEIGHT
    picture: bool = True
    """Facets measured on the entity's picture count."""
    text: bool = True
    """Facets the entity's text names count."""
    focus: float = FOCUS
    """The bonus is scaled by the share of the query's words that name facets to this power: "a
    swirl" is all about looks, "a hushed heart with a lone icy pale throb" little."""
    concepts: float = CONCEPT_WEIGHT
    """What sharing the query's concepts (:data:`.lexicon.CONCEPTS`, near-synonyms) adds."""


DEFAULT = Weights()


def query_facets(query: str) -> tuple[str, ...]:
    """The facets a query names, each once, in order."""
    named = [f for word in _words(query) for f in FACETS_OF_WORD.get(word, ())]
    return tuple(dict.fromkeys(named))


@functools.lru_cache(maxsize=65536)
def focus(query: str) -> float:
    """The share of the query's words (stop words aside) that name a facet."""
    words = [w for w in _words(query) if w not in STOP_WORDS and w not in LOOKING]
    return sum(w in FACETS_OF_WORD for w in words) / len(words) if words else 0.0


@functools.lru_cache(maxsize=65536)
def concepts_of(text: str) -> frozenset[str]:
    """The near-synonym groups the text's words belong to."""
    found: set[str] = set()
    for word in _WORD.findall(text.casefold()):
        if word not in STOP_WORDS:
            found.update(CONCEPTS.get(word) or CONCEPTS.get(stem(word)) or ())
    return frozenset(found)


def concept_bonus(query: str, entities: Sequence[Entity]) -> np.ndarray:
    asked = concepts_of(query)
    if not asked:
        return np.zeros(len(entities), np.float32)
    return np.array([len(asked & concepts_of(e.text())) / len(asked) for e in entities], np.float32)


def text_facets(entity: Entity) -> frozenset[str]:
    """The facets an entity's description and prompt name ("in navy, blue and pale grey": blue,
    grey, pale), its names aside: "The Lattice" or "Hollow Index" say nothing of a picture."""
    names = " ".join((entity.name, entity.type, entity.class_name, entity.domain))
    return _said(entity.description, entity.prompt, names)


@functools.lru_cache(maxsize=65536)
def _said(description: str, prompt: str, names: str) -> frozenset[str]:
    proper = set(_words(names))
    words = [w for w in _words(f"{description} {prompt}") if w not in proper]
    return frozenset(f for word in words for f in FACETS_OF_WORD.get(word, ()))


def _words(text: str) -> list[str]:
    """Lower-case words; a hyphenated compound ("criss-cross") is one word."""
    return _WORD.findall(re.sub(r"(?<=[a-z])-(?=[a-z])", "", text.casefold()))


def facet_strengths(
    asked: Sequence[str], entity: Entity, picture: bytes | None, weights: Weights = DEFAULT
) -> float:
    """How strongly an entity has the facets asked for (0–1, their mean): the stronger of what its
    picture shows and what its text says."""
    if not asked:
        return 0.0
    shown = facets.of_thumbnail(picture) if weights.picture else {}
    said = text_facets(entity) if weights.text else frozenset()
    return float(np.mean([max(shown.get(f, 0.0), 1.0 if f in said else 0.0) for f in asked]))


def facet_bonus(
    query: str,
    entities: Sequence[Entity],
    pictures: Sequence[bytes | None] | None = None,
    weights: Weights = DEFAULT,
) -> np.ndarray:
    """What each entity's score gains for looking as the query says."""
    bonus = np.zeros(len(entities), np.float32)
    if weights.concepts:
        bonus += weights.concepts * concept_bonus(query, entities)
    asked = query_facets(query)
    if not asked or weights.facet == 0:
        return bonus
    shown = pictures if pictures is not None else [None] * len(entities)
    weight = weights.facet * focus(query) ** weights.focus
    return bonus + weight * np.array(
        [facet_strengths(asked, e, p, weights) for e, p in zip(entities, shown, strict=True)], np.float32
    )


def best_field(cosines: np.ndarray, described: np.ndarray | None) -> np.ndarray:
    """The cosine of each entity's whole text, or of its description alone where that is closer,
    for the first ``len(described)`` entities (the nearest by whole text: see :data:`DESCRIBED`)."""
    if described is None or not len(described):
        return cosines
    best = np.array(cosines, np.float64)
    best[: len(described)] = np.maximum(best[: len(described)], described)
    return best


def rank_scores(
    query: str,
    vector: np.ndarray,
    entities: Sequence[Entity],
    vectors: np.ndarray,
    scale: Scale,
    pictures: Sequence[bytes | None] | None = None,
    weights: Weights = DEFAULT,
    descriptions: np.ndarray | None = None,
) -> np.ndarray:
    """One score per entity (higher is closer): its similarity to the query on the model's
    measured scale (with ``descriptions``, the vectors of the entities' descriptions alone, the
    closer of whole text and description for the :data:`DESCRIBED` nearest), plus its bonuses."""
    cosines = vectors @ vector
    if descriptions is not None:
        nearest = np.argsort(-cosines, kind="stable")[:DESCRIBED]
        cosines = cosines.astype(np.float64)
        cosines[nearest] = best_field(cosines[nearest], descriptions[nearest] @ vector)
    return scale.similarity(cosines) + facet_bonus(query, entities, pictures, weights)


def reranked(
    query: str,
    hits: list[tuple[Entity, float]],
    limit: int,
    scale: Scale,
    pictures: Mapping[int, bytes] | None = None,
    described: np.ndarray | None = None,
) -> list[tuple[Entity, float]]:
    """The ``limit`` best of a search's hits (entity, cosine; nearest first) by similarity plus
    bonuses, with ``pictures`` the thumbnails by entity id and ``described`` the query's cosines
    with the first hits' descriptions; each keeps its cosine, which the reply's bands read."""
    cosines = best_field(np.array([c for _, c in hits], np.float64), described)
    similarity = scale.similarity(cosines) if hits else np.zeros(0)
    shown = [(pictures or {}).get(e.id) if e.id is not None else None for e, _ in hits]
    score = similarity + facet_bonus(query, [e for e, _ in hits], shown)
    order = sorted(range(len(hits)), key=lambda i: -float(score[i]))
    return [hits[i] for i in order[:limit]]
