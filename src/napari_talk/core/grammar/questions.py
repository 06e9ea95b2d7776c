"""Questions about what is in play, asked the same ways of every pack.

A pack's read command that lists things (layers, files, segments, entities, a glass's edges) is
asked about them in the same handful of shapes, whatever the things are: "what layers have I got
loaded?", "which parts are there at the moment?", "how many entities are in the catalogue?",
"show me the file list", "what edges does the front lens have?". A pack's grammar names the
things and where they are, and :func:`asked_about` gives the rule that reads those questions, so
every pack answers the next person's way of asking, not only the ways its author thought of:

    asked_about(cmd.ListLayers, "layers", "channels", holder="(?:the )?viewer")
    asked_about(cmd.DescribeGlassEdges, "edges", "sides", of="{glass_name:glasses}")

The answer is the read command, so a question about the data is answered from the data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rules.rule import Rule

if TYPE_CHECKING:
    from ..basics.commands import Command

ASKING = r"(?:what|which)(?: (?:are|were))?(?: (?:the|all the|all|my|our|its|any))?"
HOW_MANY = r"how many"
HAVING = (
    r"(?:are there|is there|there are|do (?:i|we|you) (?:have|see)|have (?:i|we) got|(?:i|we)'?ve got"
    r"|(?:i|we) have|are|is|exist|can (?:i|you) see)"
)
"""What comes after the things in a question: "are there", "have I got", "do we have"."""
STATE = r"(?:loaded|open|opened|available|in play|shown|here|there|in here)"
WHEN = r"(?:right now|now|at the moment|currently|so far|at present|as of now)"
MADE_OF = ("made", "consist", "composed", "built", "makes up")
"""Words of a question about what a holder is made of: the rule is tried on lines with one."""
LIST_OF = r"(?:show|give|get|tell|send)(?: (?:me|us))?(?: (?:a|the))? list of(?: (?:the|all the|all|my))?"


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") else word


def asked_about(
    command: type[Command],
    *things: str,
    holder: str | None = None,
    of: str | None = None,
    named_list: bool = True,
    priority: int = 0,
    **parameters: Any,
) -> Rule:
    """The rule that reads questions about ``things`` (plural nouns, as people name them) as
    ``command``. ``holder``: a pattern for where they are ("(?:the )?catalogue"), said or not
    ("what's in the catalogue?"). ``of``: a template of the one thing they belong to, with its
    slot, which the question then names ("what edges does {glass_name:glasses} have?").
    ``named_list=False``: "the layer list" is something else (napari's panel), not a question."""
    if not things:
        raise ValueError("asked_about needs the things the command lists")
    many = "(?:" + "|".join(things) + ")"
    one = "(?:" + "|".join(sorted({_singular(t) for t in things})) + ")"
    tail = rf"(?: {HAVING})?(?: {STATE})?"
    where = ""
    templates = []
    if holder is not None:
        where = (
            rf"(?: (?:(?:in|on|inside|of|within|from) {holder}"
            rf"|(?:does|do|has|did) {holder}(?: got)?(?: (?:have|contain|hold|show))?"
            rf"|{holder} (?:has|have|contains?|holds?|shows?)))?"
        )
        templates.append(
            rf"what(?:'s| is| are)(?: (?:there|loaded|open))? (?:in|on|inside) {holder}(?: {WHEN})?"
        )
        templates.append(  # what it is made of: "what's the model made of right now?"
            rf"(?:what(?:'s| is| are) {holder}(?: {WHEN})?"
            r" (?:made (?:up )?of|composed of|built from|built of)"
            rf"|what does {holder} consist of|what makes up {holder})(?: {WHEN})?"
        )
    templates += [
        rf"{ASKING} {many}{tail}{where}(?: {STATE})?(?: {WHEN})?",
        rf"{HOW_MANY} {many}{tail}{where}(?: {STATE})?(?: {WHEN})?",
        rf"{LIST_OF} {many}{where}",
    ]
    if named_list:
        templates += [rf"(?:(?:show|give|get|send)(?: (?:me|us))? )?(?:the |a |my )?{one} list{where}"]
    if of is not None:
        slot = of
        belong = r"(?:are|is|live|lives|belong|belongs|sit|sits|exist|are there|there are)"
        inside = r"(?:in|of|on|inside|under|from|for|to)"
        templates += [
            rf"(?:{ASKING}|{HOW_MANY}) {many}(?: {belong})? {inside} {slot}(?: {WHEN})?",
            rf"(?:{ASKING}|{HOW_MANY}) {many} (?:does|do|has|did) {slot}(?: got)?(?: (?:have|contain|hold))?",
            rf"{LIST_OF} {many} (?:of|in|for) {slot}",
        ]
    return Rule(
        command,
        *templates,
        priority=priority,
        requires=tuple(sorted({*things, *(_singular(t) for t in things), *(MADE_OF if holder else ())})),
        **parameters,
    )
