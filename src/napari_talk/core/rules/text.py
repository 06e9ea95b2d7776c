"""Normalizing a typed line and finding where one request ends and the next begins."""

from __future__ import annotations

import re
from functools import lru_cache

_TRANSLATE = str.maketrans(
    {"‘": "'", "’": "'", "“": '"', "”": '"', "×": "x", "–": "-", "—": "-", "→": "->", "\u00a0": " "}
)
_HEAD_WORDS = (
    r"hey|hi|hello|ok(?:ay)?|oops|whoops|sorry|hmm+|well|ah|so|now|then|also|and|actually|"
    r"right|alright|great|cool|thanks|please|pls|kindly|maybe|perhaps|"
    r"quickly|quick|go ahead and|do me a favou?r and|for now|for the (?:moment|time being)|from now on|"
    r"from here on|going forward|real quick|"
    r"(?:can|could|would|will) you(?: please| kindly)?|(?:can|could|may) i (?:get|have)|"
    r"(?:can|could|may) (?:i|we)(?: please)?(?= (?:look|see|view|have|get|go|switch|zoom))|"
    r"i(?: would|'d)? (?:like|want|need|love)(?: (?:you|u))?(?: to)?|"
    r"i wanna|let'?s|let me|try to|napari"
)
"""Polite openings dropped before rules are tried: "could you", "I'd like", "I want (to)", "please"."""
_POLITE_HEAD = re.compile(rf"^(?:(?:{_HEAD_WORDS}|just)\b[\s,:]*)+", re.IGNORECASE)
_POLITE_HEAD_BUT_JUST = re.compile(rf"^(?:(?:{_HEAD_WORDS})\b[\s,:]*)+", re.IGNORECASE)
"""The same, keeping "just": "just GFP" says "only GFP" once nothing else reads the line."""
_BASE_VERBS = (
    "show", "hide", "turn", "switch", "toggle", "make", "set", "change", "open", "close", "zoom", "pan",
    "move", "rotate", "spin", "tilt", "rename", "call", "delete", "remove", "select", "take", "save",
    "capture", "grab", "snap", "give", "put", "bring", "pull", "reset", "fit", "frame", "center", "centre",
    "go", "jump", "use", "apply", "add", "display", "reveal", "unhide", "increase", "decrease", "raise",
    "lower", "boost", "brighten", "darken", "dim", "lighten", "list", "find", "rank", "sort", "check",
    "verify", "describe", "spawn", "create", "segment", "split", "export", "generate", "pick", "choose",
    "search", "read", "write", "edit", "replace", "analyse", "analyze", "isolate", "paint", "color",
    "colour", "undo", "redo", "revert", "roll", "shut", "get", "adjust", "enable", "disable", "activate",
    "deactivate", "flip", "look", "view", "keep", "leave", "crank", "bump", "tone", "stick", "place",
    "clear", "print", "render", "scroll", "shift", "slide", "step", "drag", "magnify", "enlarge",
    "shrink", "reduce", "double", "halve", "normalize", "normalise", "stop", "start", "focus", "tint",
    "label", "name", "solo", "hand", "assign", "compute", "measure", "test", "cut", "drop",
)  # fmt: skip


def _gerund(verb: str) -> str:
    """The -ing form: "hide" → "hiding", "set" → "setting", "open" → "opening"."""
    vowels = "aeiou"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    one_syllable = len(re.findall(f"[{vowels}]+", verb)) == 1
    short = (
        len(verb) >= 3 and verb[-1] not in vowels + "wxy" and verb[-2] in vowels and verb[-3] not in vowels
    )
    return verb + verb[-1] + "ing" if one_syllable and short else verb + "ing"


BASE_VERBS = frozenset(_BASE_VERBS)
GERUNDS = {_gerund(verb): verb for verb in _BASE_VERBS} | {"resetting": "reset"}
"""Verb forms after "would you mind" / "how about": "would you mind hiding GFP" asks "hide GFP"."""
_GERUND_HEAD = re.compile(
    r"^(?:(?:would|do) you mind|mind|how about|what about|try)\s+(?P<verb>[a-z]+ing)\b", re.IGNORECASE
)


def _base_verb(match: re.Match) -> str:
    verb = GERUNDS.get(match["verb"].casefold())
    return match[0] if verb is None else verb


_JUST = re.compile(r"\bjust\b", re.IGNORECASE)
_POLITE_TAIL = re.compile(
    r"(?:[\s,]*\b(?:please|pls|for me|now|thanks|thank you|thx|right now|again|instead|for a (?:sec|second|"
    r"moment|bit|minute)|for now|if possible|too|as well|also|while you'?re at it|"
    r"if you (?:can|could|would|don't mind)|real quick|quickly|"
    r"from now on|for good|going forward|from here on|when you (?:can|get a chance)|asap|at once)\b)+"
    r"[\s.!?]*$"
    r"|[\s.!?]+$",
    re.IGNORECASE,
)
_SEPARATORS = re.compile(
    r"\s*;\s*|,?\s+(?:and\s+)?then\s+|,\s*and\s+|\s+and\s+|,\s+(?=[^\W\d])|\s*\.\s+(?=[^\W\d])",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"""'[^']*'|"[^"]*\"""")


TAIL_WINDOW = 100
"""A polite closing is looked for in a line's last this many characters (and again, should it run
on): the pattern tried at every place of a long line costs as much as the rest of its reading."""


def _drop_polite_tail(text: str) -> str:
    cut = text.rfind(" ", 0, len(text) - TAIL_WINDOW) if len(text) > 2 * TAIL_WINDOW else -1
    if cut <= 0:
        return _POLITE_TAIL.sub("", text)
    return text[:cut] + _POLITE_TAIL.sub("", text[cut:])


def normalize(text: str, *, drop_just: bool = True) -> str:
    """Fold typography, white space and polite wrapping, keeping the case of names.

    ``drop_just=False`` keeps a leading "just", for a second reading of a line the first did not
    understand ("just GFP please" is "only GFP", while "just zoom in" is "zoom in")."""
    text = " ".join(text.translate(_TRANSLATE).split())
    head = _POLITE_HEAD if drop_just else _POLITE_HEAD_BUT_JUST
    previous = None
    while previous != text:
        previous = text
        text = _drop_polite_tail(text)
        text = head.sub("", text)
        text = _GERUND_HEAD.sub(_base_verb, text)
    return text.strip()


normalized = lru_cache(maxsize=4096)(normalize)
""":func:`normalize`, remembered: the parser normalizes the same parts of a chained line often."""


_OPENS = r"(?:^|(?<=[,;:] )|(?<=\band )|(?<=\bthen ))"
"""Where a request may open: the line's start or after a word that joins requests."""
_PICTURE = (
    r"(?:snap|grab|take|capture|save|make|get|shoot|export|keep)(?: me)?(?: (?:a|an|the|one))?"
    r" (?:picture|image|photo(?:graph)?|pic|snap ?shot|shot|still|copy|png)"
    r" of (?:the |this |my |what'?s on the )?(?:canvas|view|viewer|screen|display|window|scene)"
)
SYNONYMS: tuple[tuple[re.Pattern, str], ...] = tuple(
    (re.compile(_OPENS + pattern, re.IGNORECASE), canonical)
    for pattern, canonical in (
        (r"(?:pull|bring|call|pop|open) up\b", "open"),
        (r"(?:bring back|un-?hide|reveal|make visible)\b", "show"),
        (r"bring (?P<what>(?:[^\s,;]+ ){0,3}?[^\s,;]+) back\b", r"show \g<what>"),
        (r"(?:take|roll) (?:it |that |this )?back\b", "undo"),
        (r"gimme\b", "give me"),
        (r"(?:give|show) me (?=the )", "show "),
        (r"get rid of\b", "remove"),
        (
            r"(?:yeet|spit|kick|push|send|pop|churn|crank|fire) (?P<what>it|this|that|the [\w-]+)"
            r" out (?=as\b)",
            r"export \g<what> ",
        ),
        (r"(?:write|type|draw) up\b", "write"),
        (
            r"(?:drop|lower|reduce|decrease|raise|increase|bump(?: up)?|crank(?: up)?|turn (?:up|down)|"
            r"push|pull down)(?= (?:the |its )[^,;]*? to -?\d[\d.]*\s*(?:%|percent)?"
            r"(?:$|[,;.!?]| and\b| then\b))",
            "set",
        ),
        (r"lose\b", "hide"),
        (r"(?:bin|ditch|trash|chuck|nuke|scrap|toss)\b", "delete"),
        (_PICTURE, "take a screenshot"),
        (
            r"(?:give|get|show|let) (?:me|us) (?:have |see )?(?:a |an |the )?"
            r"(?=(?:flat |plain |normal )?(?:[23]|two|three)[- ]?d"
            r"(?: (?:view|mode|display|rendering|viewer))?(?:$|[,;.!?]| and\b| then\b))",
            "switch to ",
        ),
    )
)
"""Phrasings with one plain meaning, said once for every pack: "pull up" is "open", "bring back" is
"show", "roll back" is "undo", "snap a picture of the canvas" is "take a screenshot", "gimme" is "give
me", "lose" is "hide", "bin" is "delete"; a change said with the value it ends at ("drop the opacity
of GFP to 20%", "raise its gamma to 2") is "set", whichever way the verb points; a thing sent "out as"
a format ("spit it out as a glb") is exported.
A second reading of a line the rules did not understand as typed."""
_FLAT = re.compile(r"\b(?:flat|plain|normal|regular) (?=(?:[23]|two|three)[- ]?d\b)", re.IGNORECASE)
_TIMES = {"twice": 2, "two times": 2, "2 times": 2, "thrice": 3, "three times": 3, "3 times": 3}
_REPEATED = re.compile(
    rf"^(?P<request>[^,;]+?),? (?:{'|'.join(_TIMES)})$|^(?P<verb>undo|redo) (?P<count>two|three|2|3)$",
    re.IGNORECASE,
)
"""A request said once with how many times ("undo twice", "zoom in three times"), which is that
many requests: only a whole line of one request, so "twice as bright" is left to the rules."""


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_NUMBERED = r"segment|part|piece|region|concept|option|design|result|hit|match|entity|picture|image"
_ORDINAL = re.compile(
    rf"\b(?:the )?(?P<nth>{'|'.join(ORDINALS)}) (?P<thing>(?:{_NUMBERED})s?)\b", re.IGNORECASE
)
"""Things counted in the order shown, named by their place: "the third segment" is "segment 3"."""


def _numbered(match: re.Match) -> str:
    return f"{match['thing'].rstrip('s')} {ORDINALS.index(match['nth'].casefold()) + 1}"


_WISHES = tuple(
    (re.compile(pattern, re.IGNORECASE), plain)
    for pattern, plain in (
        (r"^(?:i'?d|i would) rather not (?:see|have) ", "hide "),
        (r"^(?:i )?(?:don'?t|do not) (?:want|need) to see ", "hide "),
        (r"^it(?:'?d| would) be (?:nice|good|great|better|handy|lovely) to (?:have|see|get) ", ""),
    )
)
_STATE = {
    "open": "open", "opened": "open", "closed": "close", "shut": "close", "off": "hide", "hidden": "hide",
    "gone": "hide", "on": "show", "visible": "show", "shown": "show",
}  # fmt: skip
_WISHED_STATE = re.compile(rf"^(?P<thing>[^,;]+?) (?P<state>{'|'.join(_STATE)})$", re.IGNORECASE)
"""A wish said as the state wanted ("I need the console open", "I'd rather not see the mask",
"it would be nice to have the scale bar off"), said again as the request that makes it so."""


def _wished(text: str) -> str:
    for pattern, plain in _WISHES:
        text = pattern.sub(plain, text)
    state = _WISHED_STATE.match(text)
    if state is None:
        return text
    return f"{_STATE[state['state'].casefold()]} {state['thing']}"


_GIVEN_VALUE = re.compile(
    r"\b(?:(?!(?:from|to|into|in|at|of|and|the|between|going)\b)[A-Za-z][\w-]* ){1,2}\((?P<value>\d\.\d+)\)",
    re.IGNORECASE,
)
"""A thing said with its value beside it in brackets ("from oil (1.518) to water (1.333)"): the
value is what counts. Only a decimal alone in brackets, so names like "CT volume (450 kV)" stay."""


def rephrase(text: str) -> str:
    """The line with each shared synonym put in its plain words (see :data:`SYNONYMS`), things
    named by their place by their number, a wish said as the state wanted as the request that
    makes it so, a thing said with its value by the value, and a request said with how many
    times as that many requests."""
    for pattern, canonical in SYNONYMS:
        text = pattern.sub(canonical, text)
    text = _wished(_ORDINAL.sub(_numbered, _FLAT.sub("", text)))
    text = _GIVEN_VALUE.sub(lambda m: m["value"], text)
    repeated = _REPEATED.match(text)
    if repeated is not None:
        request = repeated["request"] or repeated["verb"]
        said = (repeated["count"] or text[len(request) :].strip(" ,")).casefold()
        times = _TIMES.get(said) or _TIMES.get(f"{said} times", 1)
        text = "; ".join([request] * times)
    return text


def says_just(text: str) -> bool:
    return _JUST.search(text) is not None


def separators(text: str, limit: int = 12) -> list[tuple[int, int]]:
    """Where the line could split into two requests: (start, end) spans outside quotes."""
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    spans = []
    for m in _SEPARATORS.finditer(text):
        if any(a <= m.start() < b for a, b in quoted):
            continue
        spans.append(m.span())
        if len(spans) >= limit:
            break
    return spans


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """Where quoted text stands: it is taken as typed (no name lookup, no spelling correction)."""
    return [m.span() for m in _QUOTED.finditer(text)]
