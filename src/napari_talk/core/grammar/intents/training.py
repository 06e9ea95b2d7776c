"""The intent reader's training lines, generated from the grammar itself: every canonical
phrasing of every command (as a line's values leave it) and free ways of saying it
(:mod:`.augment`), so that each command has about as many lines as any other."""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING

from ..canonical import phrasings
from ..rephrase import CORE_NOUNS, bare_phrasing
from .augment import variants

if TYPE_CHECKING:
    from ..contract.registry import Registry

PER_ACTION = 160
"""Lines per command: its phrasings, then free variants of them drawn in turn until there are
this many (a command with more phrasings than this keeps them all, without variants)."""
SEED = 0


def examples(
    registry: Registry, seed: int = SEED, per_action: int = PER_ACTION
) -> tuple[list[str], list[str]]:
    """Texts and their commands' actions (reproducible: the same registry and seed give the same
    lines in the same order)."""
    nouns = {**CORE_NOUNS, **registry.nouns}
    keep = frozenset(nouns.values())
    by_action: dict[str, list[str]] = {}
    for phrasing in phrasings(registry):
        bare = bare_phrasing(phrasing, nouns).casefold()
        texts = by_action.setdefault(phrasing.action, [])
        if bare not in texts:
            texts.append(bare)
    texts, labels = [], []
    for action, bares in by_action.items():
        rng = random.Random(f"{seed}:{action}")
        lines = list(bares)
        wanted = max(per_action - len(lines), 0)
        for i in range(wanted):
            lines.extend(variants(bares[i % len(bares)], 1, keep, rng))
        texts.extend(lines)
        labels.extend([action] * len(lines))
    return texts, labels


def fingerprint(texts: list[str], labels: list[str], model_tag: str) -> str:
    """What the weights were trained on and by which sentence model, in a few characters."""
    digest = hashlib.sha256(model_tag.encode())
    for text, label in zip(texts, labels, strict=True):
        digest.update(f"{label}\t{text}\n".encode())
    return digest.hexdigest()[:16]
