"""How people ask for 2D or 3D, and for a slice of a stack."""

from __future__ import annotations

from ....core.rules.rule import Rule
from .. import commands as cmd
from .words import DIMENSIONS, NUMERALS

NDISPLAY = {**DIMENSIONS, "2": 2, "3": 3}
ORDINAL_SLICES = {
    word: i
    for i, word in enumerate(
        ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
    )
}
"""Slices counted as people do, from the first (index 0)."""
GO = r"(?:go|jump|move|skip|set|change|switch|show|scroll|step|slide|drag|put)(?: me)?(?: (?:to|the))?"
SLICE_WORD = r"(?:slice|frame|plane|section|timepoint|time point|time step|step)"
STACK_WORD = r"(?:stack|volume|slices|frames|movie|time ?series|time ?lapse|series|data|sequence|planes)"
SLIDER_PLACES = {
    **dict.fromkeys(("last", "final", "very last", "end"), "last"),
    **dict.fromkeys(("middle", "mid", "center", "centre", "central", "midmost", "halfway"), "middle"),
}
"""Slider steps said by place; the first is the ordinal rule's index 0."""


RULES: tuple[Rule, ...] = (
    Rule(
        cmd.SetNdisplay,
        r"(?:(?:switch|go|change|toggle|set|flip|move|turn)(?: it| the view| the viewer)?"
        r"(?: (?:to|into|back to|in))? )?(?:a |the )?{ndisplay:dims}"
        r"(?: (?:view|mode|display|rendering|viewer))?",
        r"(?:view|show|display|render|see|look at)(?: (?:it|the \w+|everything|this|that|my \w+))?"
        r"(?: in)? {ndisplay:dims}",
        r"(?:set )?(?:the )?ndisplay(?: to| =)? {ndisplay:nd}",
        r"(?:(?:go|switch|get) )?back (?:to|into) {ndisplay:dims}(?: (?:view|mode|display))?",
        r"(?:display|show) {ndisplay:nd} (?:dimensions|dims)",
        dims=DIMENSIONS,
        nd=NDISPLAY,
        priority=15,
        requires=("2", "3", "two", "three", "flat"),
    ),
    Rule(
        cmd.SetSlice,
        rf"(?:{GO} )?(?:the )?{SLICE_WORD}(?: number| index| no\.?)?(?: to| =)? {{index:int}}"
        r"(?: (?:on|of|along|in|for) (?:the )?(?:axis|dim|dimension)? ?{axis:axis}(?: axis)?)?",
        r"(?:set )?(?:the )?(?:axis|dim|dimension) {axis:axis}(?: slider)? (?:to|=|at) {index:int}",
        rf"(?:{GO} )?(?:the )?{{axis:axis_word}}(?:[- ]?(?:slice|plane|slider|axis|position|index|level))?"
        r"(?: (?:to|at)| ?=)? ?{index:int}",
        priority=5,
        requires=NUMERALS,
    ),
    Rule(
        cmd.SetSlice,
        rf"(?:{GO} )?(?:to )?(?:the )?{{index:ordinal}} {SLICE_WORD}",
        ordinal=ORDINAL_SLICES,
        priority=5,
        requires=tuple(ORDINAL_SLICES),
    ),
    Rule(
        cmd.SetSlice,
        rf"(?:{GO} )?(?:to )?(?:the )?(?:very )?{{position:places}} (?:{{axis:axis_word}}[- ]?)?{SLICE_WORD}"
        r"(?: (?:on|of|along|in|for) (?:the )?(?:axis|dim|dimension)? ?{axis:axis}(?: axis)?)?",
        rf"(?:{GO} )?(?:to )?(?:the )?{{position:places}} of the (?:{{axis:axis_word}}[- ]?)?{STACK_WORD}",
        rf"(?:{GO} )?(?:to )?(?:the )?{{position:ends}} of the (?:{{axis:axis_word}}[- ]?)?{STACK_WORD}",
        places=SLIDER_PLACES,
        ends={"end": "last", "start": "first", "beginning": "first"},
        priority=5,
        requires=("last", "final", "mid", "cent", "end", "start", "beginning"),
    ),
)
