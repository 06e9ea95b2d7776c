"""Similarity bands measured per embedding model, on the catalogue's own vectors.

Raw cosines mean different things in different models: unrelated sample entities score about 0.1
with the offline embedder, 0.2 with MiniLM, 0.85 with a model that squeezes everything together.
So each model's scale is measured: a cosine higher than 90 % of unrelated ones reads "related"
(0.6), higher than 99.9 % "very similar" (0.8), the median unrelated cosine 0.3. What "unrelated"
means depends on what is compared:

- a typed query: the cosines of :data:`PROBES` (short descriptions of imagined entities,
  embedded with the same model) with the catalogue's entities. Everyday phrases would be too
  far off: MiniLM knows they are not about myths and scores them low, so 37 % of the wrong
  answers to the retrieval set's queries read "related"; with these, 15 %;
- an entity ("similar to The Heralds"): the cosines of random pairs of entities, which share
  more (domains, prompts) than a query shares with them.

A catalogue too small to measure (under :data:`MIN_VECTORS` vectors) is measured on the sample
catalogue's texts instead, a shipped reference set. The measurement is stored in the catalogue
per model and kept while the number of vectors stays within 10 % of the number it was measured
on, so one more entity does not shift every score.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

import numpy as np

from .embeddings import RELATED, VERY_SIMILAR

TYPICAL = 0.3
"""What the median unrelated cosine reads."""
PERCENTILES = (50.0, 90.0, 99.9)
"""Of unrelated cosines: the cosines read as TYPICAL, RELATED and VERY_SIMILAR."""
MIN_VECTORS = 30
PAIRS = 20_000
ROWS = 2_000
"""Entities the probes are compared with (a random choice beyond this)."""
DRIFT = 0.1
GAP = 1e-3
SETTING = "calibration:"
PROBES = (
    "a clockwork heron that guards a canal", "a choir of ghosts singing in a flooded church",
    "a fox made of autumn leaves", "a merchant who trades in forgotten dreams",
    "a giant beetle carrying a city on its back", "a knight whose armour is overgrown with ivy",
    "a witch who bottles thunderstorms", "a stone bridge that remembers every traveller",
    "a swarm of glass bees", "a sleeping giant under the hills", "a cartographer of imaginary islands",
    "a lantern-headed scarecrow in a wheat field", "a mermaid who collects bottle caps",
    "a dragon that hoards old clocks", "a monk who paints with sand", "a wolf pack made of smoke",
    "a mechanical spider repairing a tower", "a queen of the winter birds",
    "an orchard where the fruit whispers", "a bell that rings before earthquakes",
)  # fmt: skip
"""Queries for imagined entities (none of them in the sample): what an on-topic query about
something else scores with a catalogue's entities."""


@dataclass(frozen=True)
class Scale:
    """Raw cosines of one kind of comparison → the seed's scale, piecewise linear."""

    typical: float
    related: float
    very_similar: float

    @classmethod
    def of(cls, unrelated: np.ndarray) -> Scale:
        typical, related, very = (float(p) for p in np.percentile(unrelated, PERCENTILES))
        # keep the knots strictly increasing whatever the model does
        typical = min(typical, 1 - 3 * GAP)
        related = min(max(related, typical + GAP), 1 - 2 * GAP)
        return cls(typical, related, min(max(very, related + GAP), 1 - GAP))

    def similarity(self, cosines: np.ndarray | float) -> np.ndarray:
        """The order of results never changes."""
        knots = [-1.0, self.typical, self.related, self.very_similar, 1.0]
        return np.asarray(np.interp(cosines, knots, [-1.0, TYPICAL, RELATED, VERY_SIMILAR, 1.0]))


@dataclass(frozen=True)
class Calibration:
    queries: Scale
    """For a typed query against the entities."""
    entities: Scale
    """For an entity against the other entities."""
    count: int
    """How many vectors it was measured on."""
    source: str
    """"catalogue", or "reference" (the sample texts)."""


def pair_cosines(vectors: np.ndarray, pairs: int = PAIRS, seed: int = 0) -> np.ndarray:
    """Cosines of every pair of rows, or of ``pairs`` random pairs of distinct rows when there
    are more (rows of unit length)."""
    n = vectors.shape[0]
    if n * (n - 1) // 2 <= pairs:
        upper = np.triu_indices(n, 1)
        return (vectors @ vectors.T)[upper]
    rng = np.random.default_rng(seed)
    first = rng.integers(0, n, pairs)
    second = (first + rng.integers(1, n, pairs)) % n  # never the same row
    return np.einsum("ij,ij->i", vectors[first], vectors[second])


def measure(
    vectors: np.ndarray, probes: np.ndarray, source: str, seed: int = 0, count: int | None = None
) -> Calibration:
    """A model's calibration from (unit) vectors of many different texts and of :data:`PROBES`;
    ``vectors`` may be a random sample of the ``count`` there are."""
    rows = vectors
    if len(rows) > ROWS:
        rows = vectors[np.random.default_rng(seed).choice(len(vectors), ROWS, replace=False)]
    queries = Scale.of((probes @ rows.T).ravel())
    measured = vectors.shape[0] if count is None else count
    return Calibration(queries, Scale.of(pair_cosines(vectors)), measured, source)


def stale(stored: Calibration | None, count: int) -> bool:
    if stored is None:
        return True
    if count < MIN_VECTORS:
        return stored.source != "reference"
    return stored.source != "catalogue" or abs(count - stored.count) > DRIFT * stored.count


def load(text: str | None) -> Calibration | None:
    if not text:
        return None
    try:
        raw = json.loads(text)
        return Calibration(Scale(**raw["queries"]), Scale(**raw["entities"]), raw["count"], raw["source"])
    except (TypeError, ValueError, KeyError):
        return None


def dump(calibration: Calibration) -> str:
    return json.dumps(asdict(calibration))


def setting_key(model: str) -> str:
    return SETTING + model
