"""How people ask to save what the canvas shows as an image."""

from __future__ import annotations

from ....core.rules.rule import Rule
from .. import commands as cmd

RULES: tuple[Rule, ...] = (
    Rule(
        cmd.Screenshot,
        r"(?:take|save|grab|capture|make|get|export|write|create|produce|store)(?: me)?(?: a| the| one)?"
        r" (?:screen ?shot|screen ?grab|snapshot|snap|picture|capture|png)"
        r"(?: of (?:the )?(?:canvas|view|viewer|screen|image))?"
        r"(?:(?: and)? (?:save|store|write|put)(?: it)?)?(?: (?:to|as|in|into|at|named|called))?"
        r"(?: {path:path})?",
        r"(?:capture|snap|grab|save|photograph) (?:the )?(?:canvas|view|viewer|screen)"
        r"(?: (?:to|as|in|into) {path:path})?",
        r"screen ?shot(?: (?:to|as|in|into))?(?: {path:path})?",
        r"snapshot(?: (?:to|as))?(?: {path:path})?",
        r"(?:save|export) (?:the )?(?:view|canvas|screen) (?:to|as) {path:path}",
        priority=5,
        requires=("shot", "snap", "grab", "capture", "png", "picture", "save", "export", "photo"),
    ),
)
