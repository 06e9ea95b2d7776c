"""What kind of sentence a line is, and what a model's words claim: words answer questions, and
only commands do things.

- :func:`is_question`: a line that asks (a question mark, or opening with "what", "is", "can you
  tell", ...); a model may answer it in words.
- :func:`asks_about_the_data`: a question about what is in play (it names a live layer, glass, file
  or entity, or says "this", "the scene", "how many ..."): only a command that reads answers it;
  a model's words alone, which rest on nothing it read, are not shown as its answer.
- :func:`claims_action`: words that say something was done ("The yellow dots have been removed.",
  "I've hidden GFP", "Done!"); such words are never shown as fact when no command did it.
- :func:`is_remark`: a line that tells rather than asks ("my zoom meeting ran long", "we should
  spawn more seedlings next week", "thanks!"): a subject and a verb that tells (a tense, a modal,
  a time), or social words only. No model is asked to find a command in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

_QUESTION_START = re.compile(
    r"^\s*(?:(?:hey|hi|ok|okay|so|and|but|well|please|quick question)[,!.:]?\s+)*"
    r"(?:what|what's|whats|which|who|whose|whom|why|how|when|where|is|are|was|were|am|"
    r"(?:do|does|did)\s+(?:i|you|we|they|it|he|she|anyone|anybody|napari)\b|"
    r"has|have|had|should|shall|will|would|could|might|may|isn't|aren't|doesn't|don't|"
    r"can\s+(?:i|we|it|this|that|these|those|the|a|an|there|my|our)|"
    r"tell me|explain|describe why|any idea|i wonder|i'm wondering|im wondering)\b",
    re.IGNORECASE,
)
_REQUEST_START = re.compile(
    r"^\s*(?:can|could|would|will)\s+(?:you|u)\b|^\s*(?:please|pls|kindly)\b",
    re.IGNORECASE,
)
"""Polite requests that look like questions: "can you hide GFP?" asks for a command."""

_CLAIM = re.compile(
    r"\b(?:i(?:'ve| have| just)?|we(?:'ve| have)?|you(?:'ve| have)|it(?:'s| has)|they(?:'ve| have)|"
    r"(?:has|have) been|"
    r"is now|are now|now (?:shows?|hidden|visible|loaded|removed|set)|successfully|done\b|all set)"
    r"(?:\s+\w+){0,3}?\s*\b(?:\w+ed|set|made|shown|hidden|done|gone|run|put|taken|begun|drawn|"
    r"removed|loaded|opened|closed|deleted|changed|saved|written|zoomed|hid|showed|turned)\b"
    r"|\b(?:is|are) now\b|^\s*(?:done|ok,? done|all done|there you go|here you go)\b",
    re.IGNORECASE,
)


def is_question(text: str) -> bool:
    """Whether ``text`` asks something (words may answer it) rather than asks for something."""
    line = text.strip()
    if _REQUEST_START.search(line):
        return False
    return line.endswith("?") or bool(_QUESTION_START.search(line))


DATA_WORDS = frozenset(
    [
        "layer",
        "layers",
        "image",
        "images",
        "file",
        "files",
        "folder",
        "folders",
        "workspace",
        "model",
        "viewer",
        "data",
        "recording",
        "stack",
    ]
)
"""Words that point at what is in play after "the", "its" or "their"; each pack adds the words of its
own objects (``Pack(data_words=...)``: "the scene", "its glasses")."""


@lru_cache(maxsize=8)
def _the_data(words: tuple[str, ...]) -> re.Pattern[str]:
    things = "|".join(re.escape(word) for word in sorted({*DATA_WORDS, *words}, key=len, reverse=True))
    return re.compile(
        r"\b(?:this|these|those|current(?:ly)?|here|my|our|how many|how much of|are there|is there|"
        rf"(?:the|its|their) (?:{things}))\b",
        re.IGNORECASE,
    )


_HOW_TO = re.compile(
    r"^\s*(?:can|could|is it possible|how (?:do|can|could|would|should|might) (?:i|we|you|one)|how to)\b",
    re.IGNORECASE,
)


def asks_about_the_data(text: str, names: Iterable[str] = (), words: tuple[str, ...] = ()) -> bool:
    """Whether a question asks about what is in play rather than about the world ("what is a
    Brewster angle?"): it names a live name, or points at the layers, the files or one of the
    packs' ``words`` (the scene)."""
    if _HOW_TO.search(text):
        return False  # "can the image be blurred here?" asks what can be done, not what is there
    if _the_data(words).search(text):
        return True
    folded = text.casefold()
    return any(re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", folded) for name in names if name)


def claims_action(words: str) -> bool:
    """Whether ``words`` say that something was done."""
    return bool(_CLAIM.search(words))


_SOCIAL_WORDS = """thanks thank thx ty cheers lol haha ha hah hmm hm wow nice cool great good fine ok
okay sorry hi hello hey bye goodbye morning night evening afternoon brb whatever welcome awesome
perfect interesting excellent super lovely yay yes no nope yep yeah sure alright right you a lot so
much very all oh ah well pretty really"""
_SOCIAL = frozenset(_SOCIAL_WORDS.split())
"""Words of a line that only greets, thanks or reacts."""
_SUBJECT = re.compile(
    r"^\s*(?:(?:and|but|also|honestly|anyway|btw|fyi|ugh|sorry|[a-z]+)[,!.]+\s+|"
    r"(?:ok|okay|so|hmm|well|oh|ah|and|but|also|honestly|anyway|lol|argh|ugh|oops|meh|wow|haha|omg|"
    r"yikes|sigh|welp|phew)\s+)*"
    r"(?:(?P<person>i|i'm|im|i've|i'll|i'd|we|we're|we've|we'll|we'd|you|you're|he|she|they|they're|"
    r"he's|she's)|(?P<thing>it's|it|its|this|that's|that|these|those|there's|there|my|our|your|his|her|"
    r"their|the|a|an|some|nobody|everyone|everybody)|(?P<name>[A-Z][a-z]+))\b"
)
_ASKING = re.compile(
    r"(?:i|we)(?:'d|\s+would)\s+(?:really\s+|rather\s+)?(?:like|love|prefer|want|rather|go with|take|"
    r"appreciate|have)\b|(?:i|we)\s+(?:really\s+|just\s+|only\s+)?(?:want|wanna|need|wish)\b|"
    r"(?:i|we)'ll\s+(?:take|go with|have)\b"
)
"""How a person asks for something in the first person: "I want the nuclei hidden", "I'd like a
screenshot", "I'll take concept 2"."""
_TELLING = re.compile(
    r"\b(?:is|are|was|were|am|be|been|being|has|have|had|do|does|did|will|would|should|could|shall|"
    r"must|might|may|can't|cannot|won't|wouldn't|shouldn't|isn't|aren't|wasn't|weren't|don't|doesn't|"
    r"didn't|'s|'re|'ve|'ll|'d|"
    r"yesterday|today|tonight|tomorrow|earlier|later|ago|last\s+(?:week|month|year|night|time)|"
    r"next\s+(?:week|month|year|time)|this\s+(?:morning|afternoon|evening|week|month)|"
    r"(?:on|by|until|since)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"always|usually|often|sometimes|rarely|seldom|never|already|"
    r"ran|took|went|got|made|said|says|sent|spent|grew|came|left|saw|told|thought|felt|kept|broke|"
    r"fell|found|gave|knew|lost|met|paid|wrote|drove|ate|drank|slept|woke|"
    r"[a-z]{3,}ed)\b",
    re.IGNORECASE,
)
"""What makes a clause tell something: a tense, a modal, a time, how often, a verb in the past."""


_NAME_DID = re.compile(r"\s+(?:[a-z]+s|[a-z]{3,}ed|is|was|has|had|will|would)\b")
"""After a capitalized first word, what makes it someone who did something ("Priya rotated")."""


def is_remark(text: str) -> bool:
    """Whether ``text`` tells or reacts rather than asks: a subject, then a verb that tells (not
    "I want ..."), or only social words ("thanks, that's perfect", "lol", "good morning!")."""
    line = text.strip()
    if not line or is_question(line) or _REQUEST_START.search(line):
        return False
    words = re.findall(r"[a-z']+", line.casefold())
    if words and all(w.strip("'") in _SOCIAL for w in words) and not re.search(r"\d", line):
        return True
    subject = _SUBJECT.search(line) or _SUBJECT.search(line.casefold())
    if subject is None:
        return False
    if subject.group("person") and _ASKING.match(line.casefold(), subject.start("person")):
        return False
    rest = line[subject.end() :]
    if subject.group("name") and not re.match(
        r"\s+(?:[a-z]+s|[a-z]{3,}ed|is|was|has|had|will|would)\b", rest
    ):
        return False  # "Nuclei in grey" or "Lens 2 up by 20": a name, not someone who did something
    if subject.group("person") or "'" in (subject.group("thing") or ""):
        return True  # "we hid ...", "that's perfect": a clause
    return bool(_TELLING.search(rest))
