"""Whether a line says what a model's reading of it does, word for word.

A model offered the canonical phrasings nearest to a line picks one even when the line asks
nothing ("lol the donut came out huge" read as "enlarge"), or when the line asks for something the
offer does not hold ("add a ray heading 15 degrees below the axis" read as "tilt the view 15
degrees"). Names and numbers are checked elsewhere (:mod:`.grounding`); this module checks the
request itself:

- **a word of the command**, unless the line is said as a request: a line that does not open
  with a verb ("get the nuclei out of view" does; "lol the donut came out huge" does not) says at
  least one word the command's own rules use (its templates' literal words and its word maps'
  words, compared by stem), besides the words that say nothing alone ("the", "please", units);
- **a leading verb it keeps**: a line that opens with a word the grammar knows ("add ...",
  "remove ..."; not a live name, nor a verb as general as "make") is read only as a command whose
  rules use that word;
- **a limit it keeps**: a line that limits its scope ("except", "other than", "but not") is
  read only as a reading that says the limit too, never as the request without it ("remove every
  light source except Beam 1" is not "remove Beam 1").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ..grammar.rephrase import CORE_NOUNS
from .words import DATA_WORDS

if TYPE_CHECKING:
    from ..contract.registry import Registry

_WORD = re.compile(r"[a-z]+")
_REGEX_ESCAPE = re.compile(r"\\[a-zA-Z]")
_SLOT = re.compile(r"\{\w+(?::\w+)?\}")

_QUIET_WORDS = """a an the this that these those it its them they their there here my our your me us we i
you he she his her of to in on at by for from with into onto about as and or but so then than too also
just only please pls kindly could would can will should may might must shall do does did done be is are
was were am been being have has had not no yes all any some each every one ones what which who how why
when where whats now again bit little lot more less very much many few degree degrees deg percent pixel
pixels px mm um nm cm times x y z s"""
QUIET = frozenset(_QUIET_WORDS.split())
"""Words that say no request alone: articles, pronouns, prepositions, helpers, politeness, units."""
_LIGHT_VERBS = "make get put set give let have do turn go take keep bring want need like"
LIGHT_VERBS = frozenset(_LIGHT_VERBS.split())
"""Verbs so general that many commands open with them: a line opening with one names no command."""
LIMITS = re.compile(
    r"\b(?:except(?: for)?|other than|apart from|but not|besides|excluding|all but|everything but|"
    r"anything but|save for|aside from)\b"
)
"""Words that take part of a request's scope away."""
KEEPS_LIMIT = re.compile(LIMITS.pattern + r"|\b(?:only|solo|isolate|alone)\b")
"""A reading that says a limit, or the one it leaves ("show only actin" for "hide all but actin")."""
_SUFFIXES = ("ing", "ed", "es", "s", "ly")
_THINGS = "everything anything nothing something everyone all both rest others other"
THINGS = frozenset(_THINGS.split())
"""Words for what is in play as a whole: nouns, never a verb a line opens with."""


def stem(word: str) -> str:
    """A crude stem (``bleaches`` → ``bleach``, ``hidden`` → ``hidd``): enough to meet a word of a
    rule in another form; never shorter than three letters."""
    word = word.casefold()
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)].rstrip("e") or word
    return word.rstrip("e") if len(word) > 3 else word


def words_of(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


@lru_cache(maxsize=4)
def vocabulary(registry: Registry) -> Mapping[str, frozenset[str]]:
    """Each command's words, by stem: its rules' templates' literal words and its word maps'
    words, without :data:`QUIET` words."""
    found: dict[str, set[str]] = {}
    for rule in registry.rules:
        words = found.setdefault(rule.action, set())
        for template in rule.templates:
            literal = _REGEX_ESCAPE.sub(" ", _SLOT.sub(" ", template))
            words.update(words_of(literal))
        for choices in rule.choices.values():
            for said in choices:
                words.update(words_of(str(said)))
    return {action: frozenset(stem(w) for w in words if w not in QUIET) for action, words in found.items()}


def unevidenced(
    actions: Sequence[str], line: str, canonical: str, registry: Registry, names: Iterable[str] = ()
) -> str | None:
    """Why a reading (its commands' ``actions``, and the ``canonical`` line they were read from)
    says what ``line`` does not; None when it may be offered."""
    known = vocabulary(registry)
    said = _said_words(line, names)
    opening = next((w for w in words_of(line) if w not in QUIET), None)
    if opening is None or not said or opening != said[0]:
        opening = None  # the line opens with a live name ("sol 1043 was ..."), or says nothing else
    verb = opening is not None and opening not in LIGHT_VERBS and stem(opening) in _every_word(registry)
    if verb and not any(stem(opening or "") in known.get(action, frozenset()) for action in actions):
        return f"the line opens with {opening!r}, which this does not do"
    if opening is None or (opening not in LIGHT_VERBS and stem(opening) not in _every_word(registry)):
        # not said as a request ("lol the donut came out huge"): the line must name what it asks
        stems = {stem(w) for w in said}
        for action in actions:
            if not stems & known.get(action, frozenset()):
                return "the line says none of its words"
    if LIMITS.search(line.casefold()) and not KEEPS_LIMIT.search(canonical.casefold()):
        return "the line limits its request, and this drops the limit"
    return None


def _said_words(line: str, names: Iterable[str]) -> list[str]:
    """The line's words in order, without quiet words and without the words of the live names it
    says (a layer called "sol" is no verb)."""
    folded = f" {' '.join(words_of(line))} "
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        spelled = " ".join(words_of(name))
        if spelled and f" {spelled} " in folded:
            folded = folded.replace(f" {spelled} ", " ")
    return [w for w in folded.split() if w not in QUIET]


@lru_cache(maxsize=4)
def _every_word(registry: Registry) -> frozenset[str]:
    """Every command's words but the nouns of what is in play: a line opening with one of them
    names what it asks for ("add ...", "zoom ..."; not "layers ...", "everything ...")."""
    nouns = {*CORE_NOUNS.values(), *registry.nouns.values(), *DATA_WORDS, *registry.data_words, *THINGS}
    return frozenset().union(*vocabulary(registry).values()) - {stem(n) for n in nouns}
