"""How people set how a layer looks: opacity, colour map, contrast limits."""

from __future__ import annotations

from rapidfuzz.distance import OSA
from rapidfuzz.process import extractOne

from ....core.rules.rule import Rule
from ....core.rules.tokens import FRACTIONS, NoMatch
from .. import commands as cmd
from .words import A_BIT, COLORMAPS, IS, OF, SET

FRACTION_WORDS = tuple({word for phrase in FRACTIONS for word in phrase.split()})
OPACITY_WORDS = ("opac", "opaq", "alpha", "transparen", "through", "translucen", "op ")
""""op " opens the opacity rules on the word "op" alone, not on "open", "stop" or "microscope"."""
OPACITY = r"(?:opacity|alpha)"
CLEAR_NOUN = r"(?:transparency|translucency)"
CLEAR = r"(?:transparen(?:t|cy)|see-through|see through|translucen(?:t|cy))"
"""Transparency is one minus opacity: "20% transparent" is an opacity of 0.8, "fully transparent" 0."""
CMAP = r"(?: (?:colou?r ?map|cmap|lut|colou?r|look ?up table|palette|colou?r scheme))"


def _not_a_slip(values: dict) -> dict:
    """A colormap the grammar does not know but is one slip from one it does ("infreno") is not
    taken as typed: the line is read again with the slip corrected, and the reply says so."""
    typed = str(values.get("colormap", "")).casefold()
    if typed not in COLORMAPS and extractOne(typed, list(COLORMAPS), scorer=OSA.distance, score_cutoff=1):
        raise NoMatch(typed)
    return values


def _transparency(values: dict) -> dict:
    """'50% transparent' is an opacity of 0.5; '30% transparent' one of 0.7."""
    return {**values, "opacity": round(1 - values["opacity"], 6)}


RULES: tuple[Rule, ...] = (
    Rule(
        cmd.LayerOpacity,
        rf"{SET}(?:the )?{OPACITY} {OF} {{name:layers}}{IS} {{opacity:amount}}",
        rf"(?:{OPACITY}|op) {{name:layers}}{IS} {{opacity:amount}}",
        rf"{SET}(?:the )?{OPACITY}(?: (?:to|at|of|=|:))? {{opacity:amount}} (?:for|on|of|to) {{name:layers}}",
        # the name first, then one of several endings: the name is read once for all of them
        rf"{SET}(?:the )?{{name:layers}}(?:(?:'s)? {OPACITY}{IS} {{opacity:amount}}"
        rf"|{A_BIT}(?: (?:more |less )?{CLEAR})?,?(?: (?:like|about|to|at|=|:))? {{opacity:amount}}"
        rf" (?:{OPACITY}|opaque))",
        priority=10,
        requires=OPACITY_WORDS,
    ),
    Rule(
        cmd.LayerOpacity,
        rf"{SET}(?:the )?{CLEAR_NOUN} {OF} {{name:layers}}{IS} {{opacity:amount}}",
        rf"{CLEAR_NOUN} {{name:layers}}{IS} {{opacity:amount}}",
        rf"{SET}(?:the )?{CLEAR_NOUN}(?: (?:to|at|of|=|:))? {{opacity:amount}}"
        r" (?:for|on|of|to) {name:layers}",
        rf"{SET}(?:the )?{{name:layers}}(?:(?:'s)? {CLEAR_NOUN}{IS} {{opacity:amount}}"
        rf"|(?: (?:to|at|=|:))? {{opacity:amount}} {CLEAR}"
        rf"| {CLEAR}(?: (?:to|at|by|=|:))? {{opacity:amount}})",
        post=_transparency,
        priority=11,
        requires=OPACITY_WORDS,
    ),
    Rule(
        cmd.LayerOpacity,
        r"{name:layers}(?: (?:to|at|=|:))? {opacity:share}",
        free_names=False,
        priority=10,
        requires=("%", "percent", *FRACTION_WORDS),
    ),
    Rule(
        cmd.LayerColormap,
        rf"{{name:layers}}(?: (?:to|in|as|=|:))?(?: the)? {{colormap:known}}{CMAP}?",
        known=COLORMAPS,
        free_names=False,
        priority=9,
        requires=tuple(COLORMAPS),
    ),
    Rule(
        cmd.LayerColormap,
        rf"{SET}(?:the )?(?:colou?r ?map|cmap|lut|colou?r|look ?up table) {OF} {{name:layers}}"
        rf"(?: (?:to|as|=|:))? {{colormap:word}}",
        rf"{SET}(?:the )?{{name:layers}}(?:'s)? (?:colou?r ?map|cmap|lut|colou?r)"
        rf"(?: (?:to|as|=|:))? {{colormap:word}}",
        rf"(?:colou?r ?map|cmap|lut)(?: (?:of|for|on))? {{name:layers}}{IS} {{colormap:word}}",
        r"(?:make|colou?r|paint|render|show|turn|display|see|view|switch|change|set|put|give|tint|draw)"
        rf" {{name:layers}}(?: (?:in|as|with|to|into))?(?: (?:the|a))? {{colormap:known}}{CMAP}?",
        rf"(?:use|apply) (?:the |a )?{{colormap:known}}{CMAP}? (?:for|on|to) {{name:layers}}",
        rf"{{name:layers}} (?:in|as|to) (?:the |a )?{{colormap:known}}{CMAP}?",
        known=COLORMAPS,
        post=_not_a_slip,
        priority=9,
        requires=("colo", "cmap", "lut", "look", *COLORMAPS),
    ),
    Rule(
        cmd.LayerContrast,
        rf"{SET}(?:the )?contrast(?: limits| range)? {OF} {{name:layers}}(?: (?:to|=|:))?"
        r"(?: (?:from|between))? {limits:range}",
        rf"{SET}(?:the )?{{name:layers}}(?:'s)? contrast(?: limits| range)?(?: (?:to|=|:))?"
        r"(?: (?:from|between))? {limits:range}",
        rf"(?:contrast|clim|clims)(?: limits| range)?(?: (?:of|for|on))? {{name:layers}}{IS}"
        r"(?: (?:from|between))? {limits:range}",
        r"clim {name:layers} {limits:range}",
        priority=9,
        requires=("contrast", "clim"),
    ),
    Rule(
        cmd.AutoContrast,
        r"auto(?:[- ]?(?:contrast|scale|level|levels|adjust))(?: (?:of|for|on))? {name:layers}",
        r"auto[- ]?(?:adjust|scale|level|set)(?: the)? contrast(?: (?:limits|levels))?(?: (?:of|for|on))?"
        r" {name:layers}",
        rf"(?:reset|fix|optimi[sz]e|adjust|normali[sz]e|set|improve|recompute|scale)(?: the)? contrast"
        rf"(?: limits)? {OF} {{name:layers}} (?:automatically|auto)",
        rf"(?:reset|fix|optimi[sz]e|adjust|normali[sz]e|auto-?set|improve|recompute)"
        rf"(?: the)? contrast(?: limits)? {OF} {{name:layers}}",
        r"{name:layers} auto[- ]?contrast",
        priority=9,
        requires=("contrast", "auto"),
    ),
)
