"""Ways of asking that say a request in other grammar, said again as the plain request.

Each is one general form of English, not a phrasing of one command, so a pack's rules read it
without a template of their own:

- a wish for the thing in the state a request leaves it: "I'd like the catalogue backed up to
  a.jsonl" is "back up the catalogue to a.jsonl" (only after a wish: "the file saved fine" is news);
- what a thing should be or have: "the oil should have an index of 1.5" is "set the index of the
  oil to 1.5", "the mask should be red" is "make the mask red";
- a request named by its noun: "run the segmentation on the kidney" is "segment the kidney";
- "break X up" is "split X"; "just A, hide the rest" is "only A"; "minus 40" is "-40"; "every
  file" is "all files".
"""

from __future__ import annotations

import re

from ..rules.text import BASE_VERBS, rephrase

_IRREGULAR = {
    "hide": "hidden", "show": "shown", "make": "made", "take": "taken", "write": "written",
    "choose": "chosen", "give": "given", "bring": "brought", "keep": "kept", "leave": "left",
    "go": "gone", "get": "gotten", "read": "read", "set": "set", "put": "put", "cut": "cut",
    "split": "split", "shut": "shut", "spin": "spun", "drag": "dragged", "grab": "grabbed",
    "snap": "snapped", "step": "stepped", "drop": "dropped", "stop": "stopped", "shrink": "shrunk",
}  # fmt: skip


def _participle(verb: str) -> str:
    """The form after "have": "save" → "saved", "export" → "exported", "copy" → "copied"."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in ("a", "e", "o", "u"):
        return verb[:-1] + "ied"
    return verb + "ed"


_DONE = {_participle(v): v for v in (*BASE_VERBS, "back", "copy", "upload", "download", "store", "load")}
_DONE |= {"turned": "turn", "shown": "show", "hid": "hide", "gotten": "get", "got": "get"}
_PARTICLE = r"up|out|off|down|on|back|over|in"
_WISH_HEAD = re.compile(
    r"^\s*(?:(?:please|pls|ok(?:ay)?|so|now|can|could)\W+)*"
    r"(?:i(?:'d| would)? (?:like|want|need|prefer)|i'?d love|(?:can|could|may) (?:i|we) (?:get|have)"
    r"|(?:please )?(?:get|have))\b",
    re.IGNORECASE,
)
_WISHED_DONE = re.compile(
    rf"^(?P<thing>(?:the|my|our|this|that|these|those|all|every|both)\b[^,;]*?) (?P<done>{'|'.join(_DONE)})"
    rf"(?P<particle> (?:{_PARTICLE}))?(?P<rest>(?: (?:to|as|into|in|at|by|from|with|for|on)\b[^;]*)?)$",
    re.IGNORECASE,
)
_SHOULD_HAVE = re.compile(
    r"^(?P<thing>[^,;]+?) (?:should|must|needs to|ought to) (?:have|get) (?:a|an|the) "
    r"(?P<field>[a-z]+(?: [a-z]+)?) (?:of|at|=) (?P<value>[^\s,;]+)$",
    re.IGNORECASE,
)
_SHOULD_BE = re.compile(
    r"^(?P<thing>(?:the|my|our|both|all) [^,;]+?) (?:should|must|needs to|ought to) be (?:made )?"
    r"(?!(?:fine|ok|okay|good|great|better|done|ready|alright|all right|enough|there|right|correct|"
    r"working|finished|over|back|here|possible|easy|hard|slow|fast|quick|safe|sure|true|false)\b)"
    r"(?P<what>[^,;]+)$",
    re.IGNORECASE,
)
"""Only of a thing said with "the" (or "my", "both"), and not how it will turn out: "it should be
fine", "the model should be done soon" are remarks."""


def _noun_forms(verb: str) -> set[str]:
    """Nouns of a verb: "segment" → "segmentation", "rotate" → "rotation", "select" → "selection"."""
    stem = verb[:-1] if verb.endswith("e") else verb
    forms = {verb + "ation", stem + "ation", stem + "ion"}
    if verb.endswith(("yse", "yze")):
        forms.add(verb[:-2] + "sis")
    return forms


_NOUNS = {noun: verb for verb in sorted(BASE_VERBS) for noun in _noun_forms(verb)}
_RUN_NOUN = re.compile(
    r"^(?:run|do|perform|start|kick off|launch|carry out|execute|begin|go ahead with)"
    r" (?:a |an |the )?(?:new |quick |full |fresh )?(?P<noun>[a-z]+)(?: (?:on|of|for|over) (?P<what>.+))?$",
    re.IGNORECASE,
)
_BREAK_UP = re.compile(r"^break (?:(?P<what>[^,;]+?) up|up (?P<after>[^,;]+))\b", re.IGNORECASE)
_REST = r"the rest|everything else|all the rest|all the others|the others|all else|the other ones"
_ALONE_AND_REST = re.compile(
    rf"^(?:(?:just|only) )?(?P<kept>[^,;]+?),? (?:and )?(?:hide|lose|drop|turn off|switch off|get rid of)"
    rf" (?:{_REST})$",
    re.IGNORECASE,
)
_EVERY = re.compile(
    r"\b(?:every|each) (?:single )?(?P<thing>[a-z]+[^s\W])"
    r"(?=$|[,;.!?]| (?:in|on|of|from|under|inside|there)\b)",
    re.IGNORECASE,
)
"""'list every file in notes' is 'list all files in notes' (a lone noun: 'every light source' stays)."""
_ELSE = re.compile(r"\b(?P<wh>who|what|which|anyone|anything|anybody) else\b", re.IGNORECASE)
"""'who else shares sref 88120' asks who shares it: the one asking already knows one."""
_MINUS = re.compile(r"(?<![\w-])(?:minus|negative) (?=\d)", re.IGNORECASE)


def says_a_wish(text: str) -> bool:
    """Whether a line opens with a wish ("I'd like", "can I get", "please have")."""
    return _WISH_HEAD.match(text) is not None


def plain_forms(text: str, *, wished: bool = False) -> str:
    """``text`` with each form above said as its plain request, then the shared synonyms and
    other second readings of :func:`.text.rephrase`. ``wished``: the line as typed opened with a
    wish, so a thing in a done state is a request ("I'd like the scene saved to a.json")."""
    text = _EVERY.sub(lambda m: f"all {m['thing']}s", _MINUS.sub("-", text))
    text = _ELSE.sub(lambda m: m["wh"], text)
    if wished and (done := _WISHED_DONE.match(text)) is not None:
        verb = _DONE[done["done"].casefold()]
        text = f"{verb}{done['particle'] or ''} {done['thing']}{done['rest']}"
    elif (have := _SHOULD_HAVE.match(text)) is not None:
        text = f"set the {have['field']} of {have['thing']} to {have['value']}"
    elif (be := _SHOULD_BE.match(text)) is not None:
        text = f"make {be['thing']} {be['what']}"
    elif (run := _RUN_NOUN.match(text)) is not None and run["noun"].casefold() in _NOUNS:
        text = f"{_NOUNS[run['noun'].casefold()]} {run['what'] or ''}".strip()
    elif (broken := _BREAK_UP.match(text)) is not None:
        text = f"split {broken['what'] or broken['after']}{text[broken.end() :]}"
    elif (alone := _ALONE_AND_REST.match(text)) is not None:
        text = f"only {alone['kept']}"
    return rephrase(text)
