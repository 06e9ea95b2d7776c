"""A semantic stage before the model: a line is routed to the command whose own example phrasings it
is nearest to, or to nothing.

The phrasings are the registry's: each command's help examples and description. A line and a
phrasing are compared as bags of character n-grams inside words (TF-IDF, cosine), which costs
nothing to load, answers in microseconds and forgives a typo ("shwo", "opacty"), since most of a
misspelt word's n-grams are still right. A line routes only when its nearest command is near
enough *and* clearly nearer than the next command: wrong is worse than not knowing, so everything
in between is left to the model (or to "not understood").
"""

from __future__ import annotations

import difflib
import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .shortlist import _STOP, command_texts, name_kinds

if TYPE_CHECKING:
    from ..contract.registry import Registry

_WORD = re.compile(r"[a-z0-9]+")
_PATH = re.compile(r"[\w.-]+/[\w./-]+|\b[\w-]+\.[a-z][a-z0-9]{0,4}\b")
"""A path-shaped word ("notes/a.md", "protocol.md"): a line with one asks a command taking a path."""
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
GRAMS = (3, 4)
ROUTE_AT = 0.62
"""A line routes to a command only as near as this to one of its phrasings (cosine)..."""
MARGIN = 0.12
"""...and this much nearer than to any other command's. Both measured in ``benchmarks/llm_eval.py``
on the lines the parser misses: below them, chat and paraphrases were routed wrong."""
NAME = "<name>"
"""What a live name in a line or a phrasing is read as: the phrasing "hide nuclei" says
"hide <a layer>", and so does "hide GFP"."""


def _grams(text: str) -> Counter[str]:
    grams: Counter[str] = Counter()
    for word in _WORD.findall(text):
        grams[f"w:{word}"] += 1
        padded = f" {word} "
        for n in GRAMS:
            grams.update(padded[i : i + n] for i in range(max(len(padded) - n + 1, 1)))
    return grams


@functools.lru_cache(maxsize=8)
def _names_pattern(names: frozenset[str]) -> re.Pattern[str] | None:
    ordered = sorted(names, key=len, reverse=True)  # "cell boundaries" before "cell"
    if not ordered:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, ordered)) + r")(?!\w)")


def masked(text: str, names: Iterable[str]) -> str:
    """``text`` folded, with quoted text and live names read as :data:`NAME`."""
    folded = _QUOTED.sub(f" {NAME} ", text.casefold())
    pattern = _names_pattern(frozenset(n.casefold() for n in names if len(n) >= 2))
    if pattern is not None:
        folded = pattern.sub(f" {NAME} ", folded)
    return folded.replace(NAME, " name ")


_FILLER = re.compile(
    r"^(?:(?:please|pls|kindly|now|ok|okay|so|and|then|just|hey|(?:can|could|would|will) you|"
    r"i (?:want|need|would like|'d like) (?:you )?to|let'?s)\s+)+"
)
SAME_WORD = 0.75
"""How alike (letter by letter) a line's first word and a phrasing's must be: a typo still opens."""


def opening(text: str) -> str:
    """The first word of a request, after "please", "can you", "let's" and the like."""
    words = _FILLER.sub("", " ".join(_WORD.findall(text.casefold())) + " ").split()
    return words[0] if words else ""


@dataclass(frozen=True)
class Route:
    action: str | None
    """The command the line routes to, or None when no command is clearly nearest."""
    score: float
    margin: float
    nearest: tuple[tuple[str, float, str], ...]
    """The nearest commands, best first: (command, similarity, its nearest phrasing)."""


class Router:
    """Built once per registry (milliseconds); :meth:`route` then takes microseconds."""

    def __init__(self, registry: Registry, names: Mapping[str, Sequence[str]] | None = None) -> None:
        known = [n for found in (names or {}).values() for n in found]
        phrasings: list[tuple[str, str]] = []
        for pack in registry.packs:
            for cls in pack.commands:
                action = cls.action_name()
                phrasings += [(action, e) for e in cls.examples]
                phrasings.append((action, cls.description()))
        self.phrasings = phrasings
        self._takes_names = {a: bool(name_kinds(registry.schema(a))) for a in registry.commands}
        self._takes_paths = {
            a: any("path" in p for p in registry.schema(a).get("properties", {})) for a in registry.commands
        }
        self._words = {
            action: {w for text in texts for w in _WORD.findall(text.casefold()) if len(w) >= 3}
            for action, texts in command_texts(registry).items()
        }
        self._openings: dict[str, set[str]] = {}
        for action, text in phrasings:
            if text != registry.commands[action].description():
                self._openings.setdefault(action, set()).add(opening(text))
        bags = [_grams(masked(text, known)) for _, text in phrasings]
        spread = Counter(g for bag in bags for g in bag)
        total = len(bags)
        self._idf = {g: math.log((1 + total) / (1 + n)) + 1 for g, n in spread.items()}
        weighted = [{g: (1 + math.log(c)) * self._idf[g] for g, c in bag.items()} for bag in bags]
        norms = [math.sqrt(sum(w * w for w in bag.values())) or 1.0 for bag in weighted]
        postings: dict[str, list[tuple[int, float]]] = {}
        for row, bag in enumerate(weighted):
            for gram, weight in bag.items():
                postings.setdefault(gram, []).append((row, weight / norms[row]))
        # an inverted index: a line's few dozen n-grams touch only the phrasings that share them
        self._postings = {
            gram: (
                np.array([r for r, _ in rows], dtype=np.intp),
                np.array([w for _, w in rows], dtype=np.float32),
            )
            for gram, rows in postings.items()
        }
        self._rows = total
        self._actions = [action for action, _ in phrasings]

    def similarity(self, text: str, names: Iterable[str] = ()) -> np.ndarray:
        """Cosine similarity of ``text`` to every phrasing."""
        grams = _grams(masked(text, names))
        query = {g: (1 + math.log(c)) * self._idf[g] for g, c in grams.items() if g in self._idf}
        scores = np.zeros(self._rows, dtype=np.float32)
        norm = math.sqrt(sum(w * w for w in query.values()))
        if not norm:
            return scores
        for gram, weight in query.items():
            rows, weights = self._postings[gram]
            scores[rows] += weights * (weight / norm)
        return scores

    def nearest(
        self, text: str, names: Iterable[str] = (), pool: Iterable[str] | None = None, keep: int = 5
    ) -> list[tuple[str, float, str]]:
        """The ``keep`` nearest commands (of ``pool``, default all), each once, best first."""
        allowed = set(pool) if pool is not None else None
        similarity = self.similarity(text, names)
        best: dict[str, tuple[float, str]] = {}
        for row in np.argsort(-similarity):
            action = self._actions[row]
            if action in best or (allowed is not None and action not in allowed):
                continue
            best[action] = (float(similarity[row]), self.phrasings[row][1])
            if len(best) >= keep:
                break
        return [(action, score, phrasing) for action, (score, phrasing) in best.items()]

    def opens(self, text: str, action: str) -> bool:
        """Whether ``text`` opens as one of ``action``'s phrasings do ("delete ..." as "delete
        spots"): a remark that merely shares words with them ("the view from the top floor is
        great") does not."""
        first = opening(text)
        return bool(first) and any(
            first == word or difflib.SequenceMatcher(None, first, word).ratio() >= SAME_WORD
            for word in self._openings.get(action, ())
        )

    def covers(self, text: str, names: Iterable[str], action: str) -> bool:
        """Whether everything ``text`` says is something ``action`` speaks of: each of its content
        words (nearly) in the command's own vocabulary, a live name only for a command that takes
        one, and a path only for one that takes a path. "describe the scene" is not "describe the
        model"; "rotate Main Prism" (a glass) is not "rotate the view"; "open notes/a.md" is not
        "open the console"."""
        line = masked(text, names)
        if " name " in f" {line} " and not self._takes_names.get(action, False):
            return False
        if _PATH.search(text) and not self._takes_paths.get(action, False):
            return False
        vocabulary = self._words.get(action, set())
        for word in _WORD.findall(line):
            if len(word) < 3 or word in _STOP or word == "name" or word.isdigit() or word in vocabulary:
                continue
            if not any(
                word[:5] == known[:5] or difflib.SequenceMatcher(None, word, known).ratio() >= SAME_WORD
                for known in vocabulary
            ):
                return False
        return True

    def route(
        self,
        text: str,
        names: Iterable[str] = (),
        pool: Iterable[str] | None = None,
        *,
        at: float = ROUTE_AT,
        margin: float = MARGIN,
    ) -> Route:
        found = self.nearest(text, list(names), pool, keep=5)
        if not found:
            return Route(None, 0.0, 0.0, ())
        top = found[0][1]
        gap = top - (found[1][1] if len(found) > 1 else 0.0)
        best = found[0][0]
        sure = top >= at and gap >= margin
        chosen = best if sure and self.opens(text, best) and self.covers(text, names, best) else None
        return Route(chosen, top, gap, tuple(found))
