"""How people change something by an amount: a layer brighter, more contrast, gamma; the view panned,
rotated, seen from a side."""

from __future__ import annotations

from ....core.rules.rule import Rule
from .. import commands as cmd
from .words import A_BIT, IS, OF, SET

DIRECTIONS = {
    "left": "left",
    "right": "right",
    "up": "up",
    "down": "down",
    "upwards": "up",
    "downwards": "down",
}
SIDES = {
    **{s: s for s in ("front", "back", "left", "right", "top", "bottom")},
    "above": "top", "below": "bottom", "behind": "back", "underneath": "bottom", "beneath": "bottom",
}  # fmt: skip
BRIGHTER = r"(?:brighter|lighter|more bright|more light)"
DIMMER = r"(?:dimmer|darker|less bright|duller)"
UP = r"(?:increase|raise|boost|turn up|crank up|bump up|push up|pump up)"
DOWN = r"(?:decrease|lower|reduce|turn down|tone down|bring down|drop|cut)"
PAN = r"(?:pan|move|scroll|shift|slide)(?: the (?:view|camera|image|canvas))?"
SCREEN = (
    r"(?:screens?|views?|fields?(?: of view)?|windows?|canvas(?:es)?|frames?|pages?|widths?|heights?|ways?)"
)
PAN_WORDS = ("pan", "move", "scroll", "shift", "slide", "what")
BRIGHT_WORDS = ("bright", "dim", "dark", "light", "dull", "faint", "weak", "blinding", "glaring")
TOO = r"(?:is|are|looks?|seems?)(?: (?:way|much|far|a bit|a little|rather|kind of))? too"
ROTATE = (
    r"(?:rotate|turn|spin|orbit)(?: (?:it|this|that|the (?:view|camera|scene|data|model|image|volume)))?"
    r"(?: by| around)?"
)
SCREEN_AXES = {"horizontal": "horizontal", "vertical": "vertical"}
ABOUT_AXIS = r"(?:about|around|along|on|over) (?:the )?{axis:axes}(?: axis)?"
DEGREES = r"{degrees:number}(?: ?(?:°|degrees?|deg))?"
ROTATE_WORDS = ("rotat", "turn", "spin", "orbit", "tilt")


def _inverse(values: dict) -> dict:
    """'three times as dim' divides by three."""
    return {**values, "factor": 1 / values["factor"]}


def _negated(values: dict) -> dict:
    return {**values, "degrees": -values["degrees"]}


RULES: tuple[Rule, ...] = (
    Rule(
        cmd.Pan,
        rf"{PAN}(?: (?:to|towards) the)? {{direction:direction}}",
        r"(?:show|let me see) (?:me )?(?:more of )?what(?:'s| is| lies) (?:to the )?{direction:direction}",
        direction=DIRECTIONS,
        priority=14,
        requires=PAN_WORDS,
    ),
    Rule(
        cmd.Pan,
        rf"{PAN}(?: (?:to|towards) the)? {{direction:direction}} (?:a (?:bit|little|touch)|slightly)",
        rf"{PAN} (?:a (?:bit|little|touch)|slightly)(?: (?:to|towards) the)? {{direction:direction}}",
        direction=DIRECTIONS,
        fraction=0.1,
        priority=15,
        requires=PAN_WORDS,
    ),
    Rule(
        cmd.Pan,
        rf"{PAN}(?: (?:to|towards) the)? {{direction:direction}} (?:by )?{{fraction:amount}}"
        rf"(?: of)?(?: (?:the|a|one))? {SCREEN}",
        rf"{PAN} (?:by )?{{fraction:amount}}(?: of)?(?: (?:the|a|one))? {SCREEN}(?: (?:to|towards) the)?"
        r" {direction:direction}",
        rf"{PAN}(?: (?:to|towards) the)? {{direction:direction}} (?:by )?{{fraction:share}}",
        direction=DIRECTIONS,
        priority=15,
        requires=PAN_WORDS,
    ),
    Rule(
        cmd.Pan,
        rf"{PAN}(?: (?:to|towards) the)? {{direction:direction}} (?:a lot|far|a long way)",
        rf"{PAN} (?:a lot|far)(?: (?:to|towards) the)? {{direction:direction}}",
        direction=DIRECTIONS,
        fraction=0.5,
        priority=15,
        requires=PAN_WORDS,
    ),
    Rule(
        cmd.LayerGamma,
        rf"{SET}(?:the )?gamma {OF} {{name:layers}}{IS} {{gamma:number}}",
        r"gamma(?: (?:of|for|on))? {name:layers}(?: (?:to|at|=|:))? {gamma:number}",
        rf"{SET}{{name:layers}}(?:'s)? gamma{IS} {{gamma:number}}",
        rf"(?:{SET}|apply )(?:the |a )?gamma(?: (?:of|to|at|=|:))? {{gamma:number}}"
        r" (?:for|on|to|of) {name:layers}",
        priority=10,
        requires=("gamma",),
    ),
    Rule(
        cmd.AdjustBrightness,
        rf"(?:make |set )?{{name:layers}}{A_BIT} {BRIGHTER}",
        rf"{BRIGHTER} {{name:layers}}",
        r"(?:brighten|lighten|boost)(?: up)?(?: the)? {name:layers}(?: a (?:bit|little|touch))?",
        rf"(?:the )?{{name:layers}}(?: (?:channel|layer|signal|image))? {TOO} (?:faint|dim|dark|weak)",
        rf"{UP}(?: the)? brightness {OF} {{name:layers}}",
        rf"{UP}(?: the)? {{name:layers}}(?:'s)? brightness",
        r"(?:the )?{name:layers}(?:'s)? brightness (?:up|higher)",
        factor=1.5,
        priority=9,
        requires=BRIGHT_WORDS,
    ),
    Rule(
        cmd.AdjustBrightness,
        rf"(?:make |set )?{{name:layers}}{A_BIT} {DIMMER}",
        rf"{DIMMER} {{name:layers}}",
        r"(?:dim|darken|dull)(?: down)?(?: the)? {name:layers}(?: a (?:bit|little|touch))?",
        rf"(?:the )?{{name:layers}}(?: (?:channel|layer|signal|image))? {TOO} (?:bright|blinding|glaring)",
        rf"{DOWN}(?: the)? brightness {OF} {{name:layers}}",
        rf"{DOWN}(?: the)? {{name:layers}}(?:'s)? brightness",
        r"(?:the )?{name:layers}(?:'s)? brightness (?:down|lower)",
        factor=round(1 / 1.5, 6),
        priority=9,
        requires=BRIGHT_WORDS,
    ),
    Rule(
        cmd.AdjustBrightness,
        rf"(?:make )?{{name:layers}} (?:{{factor:times}} as (?:bright|light)"
        rf"|(?!half ){{factor:times}} {BRIGHTER})",
        priority=10,
        requires=BRIGHT_WORDS,
    ),
    Rule(
        cmd.AdjustBrightness,
        rf"(?:make )?{{name:layers}} (?:{{factor:times}} as (?:dim|dark)"
        rf"|(?!half ){{factor:times}} {DIMMER})",
        post=_inverse,
        priority=10,
        requires=BRIGHT_WORDS,
    ),
    Rule(
        cmd.AdjustContrast,
        rf"(?:{UP}|more|enhance|stretch)(?: the)? contrast {OF} {{name:layers}}",
        rf"(?:{UP}|enhance|stretch)(?: the)? {{name:layers}}(?:'s)? contrast",
        r"(?:more|higher|stronger) contrast(?: (?:for|on|of|in))? {name:layers}",
        rf"(?:give |make )?{{name:layers}}{A_BIT} (?:more|higher|stronger) contrast(?:y|ed)?",
        factor=1.5,
        priority=9,
        requires=("contrast",),
    ),
    Rule(
        cmd.AdjustContrast,
        rf"(?:{DOWN}|less|soften)(?: the)? contrast {OF} {{name:layers}}",
        rf"(?:{DOWN}|soften)(?: the)? {{name:layers}}(?:'s)? contrast",
        r"(?:less|lower|weaker) contrast(?: (?:for|on|of|in))? {name:layers}",
        rf"(?:give |make )?{{name:layers}}{A_BIT} (?:less|lower|weaker) contrast(?:y|ed)?",
        factor=round(1 / 1.5, 6),
        priority=9,
        requires=("contrast",),
    ),
    Rule(
        cmd.ViewFrom,
        r"(?:view|look(?: at it)?|see(?: it)?|show(?: it| me)?(?: the data)?)(?: (?:it|this))?"
        r" from(?: the)? {side:side}(?: side)?",
        r"(?:view|look at|see|show(?: me)?) (?:it|this|that|everything|the \w+(?: \w+)?) from(?: the)?"
        r" {side:side}(?: side)?",
        r"(?:the )?{side:side} view",
        side=SIDES,
        priority=14,
        requires=("view", "look", "see", "show"),
    ),
    Rule(
        cmd.RotateView,
        rf"{ROTATE} {DEGREES}(?: (?:to the )?right)?",
        rf"(?:tilt)(?: the (?:view|camera|scene))?(?: by)? {DEGREES}(?: up(?:wards)?)?",
        priority=14,
        requires=ROTATE_WORDS,
    ),
    Rule(
        cmd.RotateView,
        rf"{ROTATE} {DEGREES} {ABOUT_AXIS}",
        rf"{ROTATE} {ABOUT_AXIS}(?: by)? {DEGREES}",
        axes=SCREEN_AXES,
        priority=15,
        requires=ROTATE_WORDS,
    ),
    Rule(
        cmd.RotateView,
        rf"{ROTATE} {DEGREES} (?:to the )?left",
        post=_negated,
        priority=15,
        requires=ROTATE_WORDS,
    ),
    Rule(
        cmd.RotateView,
        rf"(?:tilt)(?: the (?:view|camera|scene))?(?: by)? {DEGREES}(?: up(?:wards)?)?",
        rf"(?:tilt)(?: the (?:view|camera|scene))? up(?:wards)?(?: by)? {DEGREES}",
        axis="horizontal",
        priority=15,
        requires=("tilt",),
    ),
    Rule(
        cmd.RotateView,
        rf"(?:tilt)(?: the (?:view|camera|scene))?(?: by)? {DEGREES} down(?:wards)?",
        rf"(?:tilt)(?: the (?:view|camera|scene))? down(?:wards)?(?: by)? {DEGREES}",
        axis="horizontal",
        post=_negated,
        priority=16,
        requires=("tilt",),
    ),
)
