"""Slips of the keyboard, read against the words in play.

A line the rules did not understand as typed is read once more with each unknown word replaced
by the one word in play it is a slip of ("shwo" → "show", "opacty" → "opacity", "Glas 3" → "Glass
3"): the grammar's own words, the live names, their regional spellings ("colour", "grey",
"tumour", "centre"). Only then, and never inside quotes, paths or numbers. A slip is one edit
(a letter added, dropped, changed, or two swapped; two edits in long words), and the word it
becomes must be the only one that close, else it is left alone.

When that reading is still not understood, the other words a slip could be are tried, the likeliest
first (:func:`alternatives`): "reed pipelines/stitch.py" is read as "red …" first (a colour in play),
then as "read …", which the grammar understands. The grammar decides among near words; it never
makes a word up.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache

from rapidfuzz.distance import OSA
from rapidfuzz.process import extract

from ..rules.text import quoted_spans
from ..rules.tokens import FRACTIONS, MULTIPLES, WORD_VALUES

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]")
_LITERAL_WORD = re.compile(r"[a-z]{2,}")
_ESCAPE = re.compile(r"\\[a-zA-Z]")
_OPTIONAL_CHAR = re.compile(r"(\w)\?")
_LETTER_CLASS = re.compile(r"\[([a-z]+)\]")
MIN_LENGTH = 3
"""Shorter words are left as typed: "hte" has too many neighbours to guess from."""
REGIONAL = (
    ("our", "or"), ("re", "er"), ("ise", "ize"), ("ised", "ized"), ("ising", "izing"),
    ("yse", "yze"), ("grey", "gray"), ("ae", "e"), ("ll", "l"), ("ogue", "og"),
)  # fmt: skip
"""British and American endings, both ways: "colour"/"color", "centre"/"center", "tumour"/"tumor"."""


INFORMAL = {"thru": "through", "tho": "though", "pls": "please", "plz": "please", "thx": "thanks"}
"""Words spelt as they are said in a chat, read as spelt in full."""


def grammar_words(rules: Iterable) -> frozenset[str]:
    """The words the rules are written in: literal words of their templates (both readings of an
    optional letter, "colou?r" → colour, color) and the words of their word maps."""
    words: set[str] = set()
    for rule in rules:
        for template in rule.templates:
            text = _ESCAPE.sub(" ", re.sub(r"\{\w+(?::\w+)?\}", " ", template)).casefold()
            first = _LETTER_CLASS.sub(lambda m: m.group(1)[0], text)
            last = _LETTER_CLASS.sub(lambda m: m.group(1)[-1], text)
            versions = {_OPTIONAL_CHAR.sub(r"\1", v) for v in (first, last)}
            versions |= {_OPTIONAL_CHAR.sub("", v) for v in (first, last)}
            for version in versions:
                words.update(_LITERAL_WORD.findall(version.replace(" ?", "")))
                words.update(_LITERAL_WORD.findall(version.replace(" ?", " ")))
        for choices in rule.choices.values():
            for phrase in choices:
                words.update(_LITERAL_WORD.findall(phrase.casefold()))
    for phrase in (*WORD_VALUES, *FRACTIONS, *MULTIPLES, "percent", "point", "degrees"):
        words.update(_LITERAL_WORD.findall(phrase))
    return frozenset(words)


def regional(word: str) -> list[str]:
    """The other spellings of ``word`` across the Atlantic ("colour" → ["color"])."""
    found = []
    for british, american in REGIONAL:
        for a, b in ((british, american), (american, british)):
            if word.endswith(a) and len(word) > len(a) + 2:
                found.append(word[: -len(a)] + b)
            if a in ("grey", "gray") and a in word:
                found.append(word.replace(a, b))
    return found


def correct(
    text: str,
    vocabulary: frozenset[str],
    names: Mapping[str, Sequence[str]] | None = None,
    *,
    only: str | None = None,
) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with its slips corrected (``only`` that typed word), and the (typed, read as)
    pairs; no pairs, no change."""
    name_words = _name_words(tuple(tuple(v) for v in (names or {}).values()))
    protected = quoted_spans(text)
    changes: list[tuple[str, str]] = []
    out, at = [], 0
    for match in _WORD.finditer(text):
        start, end = match.span()
        if any(a <= start < b for a, b in protected) or _in_path(text, start, end):
            continue
        word = match.group()
        if only is not None and word != only:
            continue
        folded = word.casefold()
        if folded in vocabulary or folded in name_words or len(folded) < MIN_LENGTH - 1:
            continue
        if len(folded) < MIN_LENGTH:  # "ni" is "in" swapped; a short word is read only so
            meant = next((w for w in _swaps(folded) if w in vocabulary), None)
        else:
            meant = _nearest(folded, (vocabulary, name_words))
        if meant is None:
            continue
        out += [text[at:start], meant]
        at = end
        changes.append((word, meant))
    if not changes:
        return text, []
    out.append(text[at:])
    return "".join(out), changes


def alternatives(
    text: str, vocabulary: frozenset[str], names: Mapping[str, Sequence[str]] | None = None
) -> list[tuple[int, int, list[str]]]:
    """For each word of ``text`` a slip could have made, where it stands and every word in play it
    could be a slip of, the likeliest first: (start, end, candidates). Words with one candidate are
    included, so a caller can try them one at a time."""
    name_words = _name_words(tuple(tuple(v) for v in (names or {}).values()))
    protected = quoted_spans(text)
    found = []
    for match in _WORD.finditer(text):
        start, end = match.span()
        if any(a <= start < b for a, b in protected) or _in_path(text, start, end):
            continue
        folded = match.group().casefold()
        if folded in vocabulary or folded in name_words or len(folded) < MIN_LENGTH:
            continue
        options = _ranked(folded, (vocabulary, name_words))
        if options:
            found.append((start, end, list(options)))
    return found


@lru_cache(maxsize=4096)
def _nearest(word: str, known: tuple[frozenset[str], ...]) -> str | None:
    ranked = _ranked(word, known)
    if len(ranked) != 1 and not (ranked and _decided(ranked, word, known)):
        return None
    return ranked[0]


def _decided(ranked: tuple[str, ...], word: str, known: tuple[frozenset[str], ...]) -> bool:
    """Whether the tie-breaks of what slips keep leave one word standing (see :func:`_ranked`)."""
    nearest = list(ranked)
    for same in _kept(known[-1]):
        if len(nearest) > 1:
            nearest = [w for w in nearest if same(w, word)] or nearest
    return len(nearest) == 1


def _kept(names: frozenset[str]) -> tuple[Callable[[str, str], bool], ...]:
    """What slips keep, most kept first; a live name over a grammar word."""
    return (_same_letters, lambda w, _: w in names, _one_dropped, _same_start, _same_length)


@lru_cache(maxsize=4096)
def _ranked(word: str, known: tuple[frozenset[str], ...]) -> tuple[str, ...]:
    """The words in play ``word`` may be a slip of, the likeliest first; () for none."""
    for other in (*INFORMAL.get(word, "").split(), *regional(word)):
        if any(other in words for words in known):
            return (other,)
    if word.endswith("ys") and any(word[:-2] + "ies" in words for words in known):
        return (word[:-2] + "ies",)  # "entitys": a plural spelt as it sounds
    if word.endswith("s") and any(word[:-1] in words for words in known):
        return ()  # a plural of a known word is not a slip
    reach = 2 if len(word) >= 8 else 1
    near_length = [
        w
        for words in known
        for n in range(-reach, reach + 1)
        for w in _by_length(words).get(len(word) + n, ())
    ]
    close = {
        found: score
        for found, score, _ in extract(word, near_length, scorer=OSA.distance, score_cutoff=reach, limit=8)
    }
    if not close:
        return ()
    best = min(close.values())
    keys = _kept(known[-1])
    nearest = sorted(
        (w for w, score in close.items() if score == best),
        key=lambda w: tuple(not same(w, word) for same in keys),
    )
    return tuple(nearest)


def _swaps(word: str) -> list[str]:
    return [word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)]


def _same_letters(a: str, b: str) -> bool:
    """Two letters swapped ("raed" → "read") is the commonest slip of all."""
    return sorted(a) == sorted(b)


def _one_dropped(meant: str, typed: str) -> bool:
    """A letter left out ("wich", "crosing") is the next commonest."""
    return len(meant) == len(typed) + 1


def _same_start(a: str, b: str) -> bool:
    return a[0] == b[0]


def _same_length(a: str, b: str) -> bool:
    return len(a) == len(b)


def _in_path(text: str, start: int, end: int) -> bool:
    """Whether the word is part of a path, a file name or an address ("notes/todo.md")."""
    left = text.rfind(" ", 0, start) + 1
    right = text.find(" ", end)
    token = text[left : right if right >= 0 else len(text)]
    return any(c in token for c in "/\\@:") or re.search(r"\w\.\w", token) is not None


@lru_cache(maxsize=16)
def _by_length(words: frozenset[str]) -> dict[int, list[str]]:
    """Words by their length: a slip of one edit is within one letter of the word's length."""
    grouped: dict[int, list[str]] = {}
    for word in words:
        grouped.setdefault(len(word), []).append(word)
    return grouped


@lru_cache(maxsize=8)
def _name_words(names: tuple[tuple[str, ...], ...]) -> frozenset[str]:
    return frozenset(word.casefold() for kind in names for name in kind for word in _WORD.findall(name))
