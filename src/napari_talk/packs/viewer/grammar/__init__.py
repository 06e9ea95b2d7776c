"""How people ask for viewer commands, as grammar rules (see :mod:`napari_talk.core.rules.rule`).

One module per family of commands, named as the module of :mod:`..handlers` that runs them
(:mod:`.layers`, :mod:`.panels`, :mod:`.camera`, :mod:`.dims`, :mod:`.appearance`, :mod:`.adjust`,
:mod:`.screenshot`); the words two or more of them use are in :mod:`.words`.

Specific phrasings carry a higher priority than the generic "<verb> <layer>" ones, so "show only
spots", "show all layers" and "show layers" never read as showing a layer of that name.
"""

from __future__ import annotations

from ....core.rules.rule import Rule
from . import adjust, appearance, camera, dims, layers, panels, screenshot
from .words import BUILTIN_PANELS

RULES: tuple[Rule, ...] = (
    *layers.RULES,
    *panels.RULES,
    *camera.RULES,
    *dims.RULES,
    *appearance.RULES,
    *adjust.RULES,
    *screenshot.RULES,
)
"""Rules of one priority are tried in this order, the first that reads a clause winning: "make the
picture fit", with a layer named picture, fits the view to it (:mod:`.camera`) and takes no screenshot."""

__all__ = ["BUILTIN_PANELS", "RULES"]
