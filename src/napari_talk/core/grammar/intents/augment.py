"""Free ways of saying a canonical phrasing, for training the intent reader: the phrasing as
:func:`..rephrase.bare_phrasing` leaves it ("set opacity of layer to 2"), said as people type
("hey could you set the layer's opacity to 2 pls", "set opactiy of that layer to 2").

Each change keeps what a line's values turn into (the nouns a name is read as, "2" for a number,
"something" for quoted text), since the reader sees a typed line with its values put aside the
same way. Everything is drawn from a seeded ``random.Random``: the same seed gives the same lines.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection

POLITE_BEFORE = (
    "please", "could you", "can you", "would you", "could you please", "can you please", "i'd like to",
    "i want to", "i need to", "let's", "kindly", "would you mind to", "go ahead and", "i wanna",
)  # fmt: skip
POLITE_AFTER = ("please", "pls", "thanks", "thank you", "for me", "if you can", "plz", "thx")
CHAT_WORDS = (
    "hey", "ok", "okay so", "hmm", "alright", "so", "now", "right,", "ok then", "yo", "hi", "oh and",
)  # fmt: skip
FILLERS = ("just", "um", "actually", "quickly", "maybe", "uh", "like", "also")
BRITISH = {
    "color": "colour", "colors": "colours", "colormap": "colourmap", "gray": "grey", "center": "centre",
    "centered": "centred", "visualize": "visualise", "normalize": "normalise", "analyze": "analyse",
    "labeled": "labelled", "labeling": "labelling", "favorite": "favourite", "meter": "metre",
    "meters": "metres", "catalog": "catalogue", "behavior": "behaviour", "optimize": "optimise",
}  # fmt: skip
POINTERS = ("that", "this", "my", "the", "our")
NEIGHBOURS = {
    "a": "sq", "b": "vn", "c": "xv", "d": "sf", "e": "wr", "f": "dg", "g": "fh", "h": "gj", "i": "uo",
    "j": "hk", "k": "jl", "l": "k", "m": "n", "n": "bm", "o": "ip", "p": "o", "q": "w", "r": "et",
    "s": "ad", "t": "ry", "u": "yi", "v": "cb", "w": "qe", "x": "zc", "y": "tu", "z": "x",
}  # fmt: skip
_WORD = re.compile(r"[a-z]+")
_OF = re.compile(r"\b([a-z]+) of (?:the )?([a-z]+)\b")

Change = Callable[[list[str], frozenset[str], random.Random], list[str]]


def _polite(words: list[str], keep: frozenset[str], rng: random.Random) -> list[str]:
    if rng.random() < 0.6:
        return rng.choice(POLITE_BEFORE).split() + words
    return words + rng.choice(POLITE_AFTER).split()


def _chat(words: list[str], keep: frozenset[str], rng: random.Random) -> list[str]:
    return rng.choice(CHAT_WORDS).split() + words


def _filler(words: list[str], keep: frozenset[str], rng: random.Random) -> list[str]:
    at = rng.randint(0, len(words))
    return [*words[:at], rng.choice(FILLERS), *words[at:]]


def _typo(words: list[str], keep: frozenset[str], rng: random.Random) -> list[str]:
    """One letter swapped, dropped, doubled or struck beside on one word the line itself says."""
    places = [i for i, w in enumerate(words) if len(w) >= 4 and w.isalpha() and w not in keep]
    if not places:
        return words
    at = rng.choice(places)
    word = words[at]
    i = rng.randint(1, len(word) - 2)
    kind = rng.randrange(4)
    if kind == 0:
        word = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    elif kind == 1:
        word = word[:i] + word[i + 1 :]
    elif kind == 2:
        word = word[:i] + word[i] + word[i:]
    else:
        word = word[:i] + rng.choice(NEIGHBOURS.get(word[i], word[i])) + word[i + 1 :]
    return [*words[:at], word, *words[at + 1 :]]


def _british(words: list[str], keep: frozenset[str], rng: random.Random) -> list[str]:
    return [BRITISH.get(w, w) for w in words]


def _pointer(words: list[str], keep: frozenset[str], rng: random.Random) -> list[str]:
    """A name's noun pointed at another way: "the layer" as "that layer", "layer" as "my layer"."""
    out: list[str] = []
    for word in words:
        if word in keep and word.isalpha() and rng.random() < 0.7:
            if out and out[-1] in POINTERS:
                out[-1] = rng.choice(POINTERS)
            else:
                out.append(rng.choice(POINTERS))
        out.append(word)
    return out


def _reordered(words: list[str], keep: frozenset[str], rng: random.Random) -> list[str]:
    """The noun of "opacity of layer" said first ("layer's opacity"), or a closing "for"/"on"/"in"
    phrase said first; unchanged when it has neither. As people type it."""
    text = " ".join(words)
    match = _OF.search(text)
    if match and match.group(2) in keep:
        text = text[: match.start()] + f"{match.group(2)}'s {match.group(1)}" + text[match.end() :]
        return text.split()
    for at in range(len(words) - 2, 0, -1):
        if (
            words[at] in ("for", "on", "in")
            and words[at + 1 :]
            and all(w in keep or w in POINTERS for w in words[at + 1 :])
        ):
            return [*words[at:], *words[:at]]
    return words


def _plain(words: list[str], keep: frozenset[str], rng: random.Random) -> list[str]:
    """Articles left out, as a hurried line leaves them."""
    return [w for w in words if w not in ("the", "a", "an")] or words


CHANGES: tuple[Change, ...] = (_polite, _chat, _filler, _typo, _typo, _british, _pointer, _reordered, _plain)


def variants(bare: str, count: int, keep: Collection[str], rng: random.Random) -> list[str]:
    """``count`` ways of saying ``bare`` (one to three changes each); ``keep``: the words values
    turn into, which no change misspells."""
    kept = frozenset(keep) | {"2", "something", "thing"}
    base = bare.casefold().split()
    out = []
    for _ in range(count):
        words = list(base)
        for change in rng.sample(CHANGES, rng.randint(1, 3)):
            words = change(words, kept, rng)
        out.append(" ".join(words))
    return out
