"""Live names found in a line by lookup, never by compiling them into patterns.

A session may hold thousands of names (a scene of 5,000 glasses). The rules' patterns know only
that a name of some kind stands somewhere; the names themselves sit in a dictionary keyed by their
first word, so finding them in a line costs a look per word of the line, whatever their number.

A name found in a line is replaced by a *mark*: one token that says which kinds of name it is
and what was typed. A rule's name slot matches a mark of its kind (see :func:`mark_pattern`); the
typed words are then resolved against the names of that kind (:func:`resolve_marked`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from .recent import Recent
from .text import BASE_VERBS

OPEN, SEP, SPACE, CLOSE = "\ue000", "\ue002", "\ue003", "\ue001"
"""Private-use characters: nobody types them, so a mark never collides with a line's words."""
MARK_CHARS = frozenset(OPEN + SEP + SPACE + CLOSE)
_SUFFIX = re.compile(r"(?:'s|[:=,;.!?)\]]+)+$")
"""What may stick to the end of a name's last word as typed: "GFP's", "ch2:", "spots,"."""
_WORD = re.compile(r"\S+")
_ASIDE = re.compile(r"\s*[(\[][^()\[\]]*[)\]]\s*|\s+(?:layer|channel|image)$", re.IGNORECASE)
"""What a name may be said without: an aside in brackets, a trailing "layer"."""
_PIECES = re.compile(r"[\s_-]+")
_STICKY = frozenset("s:=,;.!?)]")


class KnownNames(tuple[str, ...]):
    """The names of one kind, with the indexes that find them quickly (built on first use)."""

    @property
    def lookup(self) -> NameIndex:
        found = self.__dict__.get("_lookup")
        if found is None:
            found = self.__dict__["_lookup"] = _index_of(self)
        return found


MAX_INDEXES = 32
_INDEXES: Recent[tuple[str, ...], NameIndex] = Recent(MAX_INDEXES)


def _index_of(names: tuple[str, ...]) -> NameIndex:
    return _INDEXES.get_or_make(names, NameIndex)


class SomeNames(KnownNames):
    """Some of the names of a kind, not all: a name among them is read as that name, and other
    words stay as typed, as when no name of the kind is known (the glasses of a ray scene stand
    for its objects, which may hold a light source too)."""


def known(names: Iterable[str]) -> KnownNames:
    return names if isinstance(names, KnownNames) else KnownNames(names)


@dataclass(frozen=True, eq=False)
class NameIndex:
    """Exact, case-folded, by-first-word and by-substring access to a tuple of names."""

    names: tuple[str, ...]
    exact: frozenset[str] = field(init=False)
    folded: dict[str, list[str]] = field(init=False)
    by_first_word: dict[str, list[tuple[tuple[str, ...], str]]] = field(init=False)

    def __post_init__(self) -> None:
        folded: dict[str, list[str]] = {}
        first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for name in self.names:
            words = tuple(name.casefold().split())
            if not words:
                continue
            folded.setdefault(" ".join(words), []).append(name)
            first.setdefault(words[0], []).append((words, name))
        aliases: dict[tuple[str, ...], set[str]] = {}
        for name in self.names:
            for alias in _aliases(name):
                if alias and " ".join(alias) not in folded:
                    aliases.setdefault(alias, set()).add(name)
        for alias, owners in aliases.items():
            if len(owners) == 1:  # said of two names, a part names neither
                first.setdefault(alias[0], []).append((alias, owners.pop()))
        for entries in first.values():
            entries.sort(key=lambda entry: -len(entry[0]))
        object.__setattr__(self, "exact", frozenset(self.names))
        object.__setattr__(self, "folded", folded)
        object.__setattr__(self, "by_first_word", first)

    @cached_property
    def _haystack(self) -> tuple[str, list[int]]:
        """Every folded name on one line each, and where each starts: a substring search is one
        C-speed ``str.find`` per hit instead of a Python loop over thousands of names."""
        starts, parts, at = [], [], 0
        for name in self.names:
            starts.append(at)
            folded = " ".join(name.casefold().split())
            parts.append(folded)
            at += len(folded) + 1
        return "\n".join(parts), starts

    def said(self, typed: str) -> str | None:
        """The one name ``typed`` stands for, whole or by an alias (see :func:`_aliases`)."""
        words = tuple(typed.casefold().split())
        same = self.folded.get(" ".join(words), [])
        if len(same) == 1:
            return same[0]
        if same:
            return None
        return next((name for said, name in self.by_first_word.get(words[0], ()) if said == words), None)

    def with_folded(self, text: str) -> list[str]:
        return self.folded.get(" ".join(text.casefold().split()), [])

    def containing(self, text: str, limit: int = 50) -> list[str]:
        """The names that contain ``text`` (folded), at most ``limit`` of them."""
        needle = " ".join(text.casefold().split())
        if not needle or "\n" in needle:
            return []
        haystack, starts = self._haystack
        found: list[str] = []
        at = haystack.find(needle)
        while at >= 0 and len(found) < limit:
            which = bisect.bisect_right(starts, at) - 1
            name = self.names[which]
            if not found or found[-1] is not name:
                found.append(name)
            at = haystack.find(needle, starts[which + 1] if which + 1 < len(starts) else len(haystack))
        return found

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """Names said in ``text`` as whole words, the longest at each place, left to right:
        (start, end, name); ``end`` leaves out what sticks to the last word ("GFP's")."""
        return self.spans_in(words_of(text))

    def spans_in(self, words: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
        found: list[tuple[int, int, str]] = []
        first_words = self.by_first_word
        i = 0
        while i < len(words):
            word = words[i][2]
            if word not in first_words and (
                word[-1] not in _STICKY or _SUFFIX.sub("", word) not in first_words
            ):
                i += 1
                continue
            hit = self._at(words, i)
            if hit is None:
                i += 1
                continue
            size, end, name = hit
            found.append((words[i][0], end, name))
            i += size
        return found

    def _at(self, words: list[tuple[int, int, str]], i: int) -> tuple[int, int, str] | None:
        first = words[i][2]
        bare = _SUFFIX.sub("", first)
        for key in dict.fromkeys((first, bare)):
            for name_words, name in self.by_first_word.get(key, ()):
                size = len(name_words)
                if i + size > len(words):
                    continue
                said = [w[2] for w in words[i : i + size]]
                last = said[-1]
                if said[:-1] != list(name_words[:-1]):
                    continue
                if last == name_words[-1]:
                    return size, words[i + size - 1][1], name
                if _SUFFIX.sub("", last) == name_words[-1] and last.startswith(name_words[-1]):
                    start = words[i + size - 1][0]
                    return size, start + len(name_words[-1]), name
        return None


NOT_ALONE = frozenset(
    {"the", "and", "for", "with", "from", "into", "onto", "its", "our", "your", "this", "that"}
)
"""Words that never name a thing alone: "the" is not "The Shallows" (it stood before every name).
Nor does a verb of the grammar: "list" is not napari's "layer list" panel in "list the scripts folder"."""


def _aliases(name: str) -> set[tuple[str, ...]]:
    """What a name may be said as: without its aside ("nuclei" for "nuclei (H2B)"), or by one of
    its words of three letters or more ("skeletons" for "neuron skeletons", "DR5" for "DR5-Venus")."""
    folded = tuple(name.casefold().split())
    found = {tuple(_ASIDE.sub("", name).casefold().split())}
    pieces = _PIECES.split(_ASIDE.sub("", name).casefold())
    found |= {(word,) for word in pieces if len(word) >= 3 and word not in NOT_ALONE | BASE_VERBS}
    found.discard(folded)
    found.discard(())
    return found


def words_of(text: str) -> list[tuple[int, int, str]]:
    """The white-space separated words of ``text``: (start, end, folded word)."""
    return [(m.start(), m.end(), m.group().casefold()) for m in _WORD.finditer(text)]


def mark(text: str, context: Mapping[str, Sequence[str]], protected: Sequence[tuple[int, int]] = ()) -> str:
    """``text`` with every live name it says replaced by a mark of its kinds (outside
    ``protected`` spans: quoted text). Names of several kinds ("Prism" a glass and a layer) get
    one mark naming every kind."""
    words = words_of(text)
    firsts = _first_words(context)
    if not any(w[2] in firsts or _SUFFIX.sub("", w[2]) in firsts for w in words):
        return text
    spans: dict[tuple[int, int], list[str]] = {}
    for kind, names in context.items():
        if not names:
            continue
        for start, end, _ in known(names).lookup.spans_in(words):
            if any(a <= start < b for a, b in protected):
                continue
            spans.setdefault((start, end), []).append(kind)
    if not spans:
        return text
    out, at = [], 0
    for (start, end), kinds in sorted(spans.items(), key=lambda item: (item[0][0], -item[0][1])):
        if start < at:
            continue  # overlapped by a longer name of another kind
        typed = text[start:end].replace(" ", SPACE)
        out += [text[at:start], f"{OPEN}{','.join(sorted(kinds))}{SEP}{typed}{CLOSE}"]
        at = end
    out.append(text[at:])
    return "".join(out)


_FIRST_WORDS: Recent[tuple, frozenset[str]] = Recent(MAX_INDEXES)


def _first_words(context: Mapping[str, Sequence[str]]) -> frozenset[str]:
    """Every word a live name (or its alias) starts with, of every kind: most lines name none,
    and one look per word tells."""
    key = tuple((kind, known(names)) for kind, names in context.items() if names)
    return _FIRST_WORDS.get_or_make(key, _words_starting)


def _words_starting(key: tuple[tuple[str, KnownNames], ...]) -> frozenset[str]:
    return frozenset(w for _, names in key for w in names.lookup.by_first_word)


def mark_pattern(kind: str) -> str:
    """The pattern a name slot of ``kind`` matches on a marked line."""
    return rf"{OPEN}(?:\w+,)*{re.escape(kind)}(?:,\w+)*{SEP}[^{CLOSE}]*{CLOSE}"


def said_mark(kind: str, words: str) -> str:
    """The pattern of a mark of ``kind`` typed as ``words`` (a regex over plain words): a rule's
    fixed words that are also a live name ("of the layer list", the "layer list" panel)."""
    typed = words.replace(" ", SPACE)
    return rf"{OPEN}(?:\w+,)*{re.escape(kind)}(?:,\w+)*{SEP}{typed}{CLOSE}"


_MARK = re.compile(rf"{OPEN}[^{SEP}]*{SEP}([^{CLOSE}]*){CLOSE}")


def unmark(text: str) -> str:
    """What was typed, marks undone."""
    return _MARK.sub(lambda m: m.group(1).replace(SPACE, " "), text) if OPEN in text else text


def is_marked(text: str) -> bool:
    return text.startswith(OPEN) and text.endswith(CLOSE)
