"""The words the viewer's rules share: verbs, nouns and value words people use for layers, the
camera and the window."""

from __future__ import annotations

from ....core.rules.tokens import WORD_VALUES

BUILTIN_PANELS = ("layer list", "layer controls", "console")
SHOW = (
    "show",
    "unhide",
    "display",
    "reveal",
    "turn on",
    "switch on",
    "enable",
    "un-hide",
    "bring back",
)
HIDE = (
    "hide", "turn off", "switch off", "shut off", "disable", "conceal", "stop showing", "stop displaying",
    "don't show", "do not show",
)  # fmt: skip
DIMENSIONS = {
    **dict.fromkeys(("2d", "2-d", "2 d", "two d", "2 dimensions", "2 dimensional", "flat"), 2),
    **dict.fromkeys(("3d", "3-d", "3 d", "three d", "3 dimensions", "3 dimensional"), 3),
}
COLORMAPS = {
    **{
        name: name
        for name in (
            "gray",
            "green",
            "red",
            "blue",
            "magenta",
            "cyan",
            "yellow",
            "viridis",
            "magma",
            "inferno",
            "plasma",
            "turbo",
            "twilight",
            "hsv",
            "jet",
            "gray_r",
            "bop blue",
            "bop orange",
            "bop purple",
            "orange",
            "PiYG",
            "cividis",
        )
    },
    "grey": "gray",
    "grayscale": "gray",
    "greyscale": "gray",
}
DIGITS = tuple("0123456789")
"""Rules whose every reading holds a number are not tried on lines without one."""
NUMERALS = (*DIGITS, *(word for word in WORD_VALUES if " " not in word))
"""The same for rules whose number may be spelled out ("go to slice seven")."""
SET = r"(?:(?:set|change|adjust|make|put|update|use)\s+)?"
IS = r"(?: ?[:=]| (?:to|as|at|=|is))?"
"""Between a name and its new value: "to", "=", ":" (also glued, "ch2: magenta") or nothing."""
OF = r"(?:of|for|on)"
A_BIT = r"(?: (?:(?:just )?a (?:little )?(?:bit|little|touch|tad)|slightly|somewhat))?"
THE_IMAGE = r"(?:the |my |this )?(?:image|view|canvas|viewer|screen|display|picture|figure|data)"
