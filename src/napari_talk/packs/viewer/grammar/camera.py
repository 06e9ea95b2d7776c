"""How people aim the camera: zoom in or out, to a box or a layer, centre it, reset it."""

from __future__ import annotations

from ....core.rules.rule import Rule
from .. import commands as cmd
from .words import DIGITS, NUMERALS, SET

ZOOM_WORDS = (
    "zoom", "magnif", "enlarge", "closer", "double", "halve", "triple", "quadruple", "shrink", "reduce",
    "divide", "decrease", "multiply", "increase", "scale",
)  # fmt: skip
BOX_WORD = r"(?:box|region|area|rectangle|rect|roi|bounding box|window)"
POINT_WORD = r"(?:point|position|coordinates?|location|pixel|spot)"


def _zoom_out(values: dict) -> dict:
    """'zoom out 2x' is a factor of 1/2; 'zoom out 0x' keeps its 0, which validation refuses."""
    factor = values["factor"]
    return {**values, "factor": 1 / factor if factor else factor}


RULES: tuple[Rule, ...] = (
    Rule(
        cmd.ZoomBy,
        r"zoom in",
        r"(?:zoom|go) closer|magnify|enlarge|double (?:the )?zoom",
        r"zoom in (?:a lot|more)",
        priority=12,
        factor=2,
        requires=ZOOM_WORDS,
    ),
    Rule(
        cmd.ZoomBy,
        r"zoom (?:in )?(?:a (?:bit|little)|slightly|a touch)(?: more)?|(?:a bit|slightly) closer",
        priority=12,
        factor=1.5,
        requires=ZOOM_WORDS,
    ),
    Rule(
        cmd.ZoomBy,
        r"zoom out (?:a (?:bit|little)|slightly|a touch)(?: more)?",
        priority=12,
        factor=1 / 1.5,
        requires=ZOOM_WORDS,
    ),
    Rule(
        cmd.ZoomBy,
        r"{factor:multiple} (?:the )?(?:zoom|magnification)",
        multiple={"double": 2, "triple": 3, "quadruple": 4, "halve": 0.5},
        priority=12,
        requires=ZOOM_WORDS,
    ),
    Rule(
        cmd.ZoomBy,
        r"zoom out",
        r"zoom (?:away|further out)|halve (?:the )?zoom|zoom out (?:a lot|more)",
        priority=12,
        factor=0.5,
        requires=ZOOM_WORDS,
    ),
    Rule(
        cmd.ZoomBy,
        r"zoom in (?:by )?(?:a factor of )?{factor:scale}",
        r"zoom in(?: (?:a (?:little|bit)|some))?(?: more)?,?(?: (?:like|say|about|by|maybe))? {factor:number}"
        r" ?(?:x|times|fold)",
        r"zoom (?:by )?(?:x|\*|times) ?{factor:number}",
        r"zoom (?:by )?{factor:number} ?(?:x|times)",
        r"zoom by (?:a factor of )?{factor:scale}",
        r"(?:magnify|enlarge|scale)(?: (?:the )?view)?(?: by)? {factor:scale}",
        r"(?:multiply|increase) (?:the )?zoom by {factor:scale}",
        r"zoom in(?: more)?,?(?: (?:like|say|about|by|maybe|roughly))? {factor:times}",
        r"(?:get|go|move|bring|take)(?: me| us)? closer,?(?: (?:like|say|about|by|maybe|roughly))?"
        r" {factor:times}",
        priority=12,
        requires=ZOOM_WORDS,
    ),
    Rule(
        cmd.ZoomBy,
        r"zoom out (?:by )?(?:a factor of )?{factor:scale}",
        r"zoom out(?: (?:a (?:little|bit)|some))?(?: more)?,?(?: (?:like|say|about|by|maybe))?"
        r" {factor:number} ?(?:x|times|fold)",
        r"(?:shrink|reduce|divide|decrease) (?:the )?(?:view|zoom) by {factor:scale}",
        r"zoom out(?: more)?,?(?: (?:like|say|about|by|maybe|roughly))? {factor:times}",
        r"(?:get|go|move|pull|take)(?: me| us)? (?:further|farther) (?:away|out|back),?"
        r"(?: (?:like|say|about|by|maybe|roughly))? {factor:times}",
        post=_zoom_out,
        priority=12,
        requires=ZOOM_WORDS,
    ),
    Rule(
        cmd.ZoomBox,
        rf"(?:zoom|frame|focus|view|show|go|fit)(?: in)?(?: (?:to|into|onto|on|in on|the view to))?"
        rf"(?: the)?(?: {BOX_WORD})?(?: (?:from|between|spanning))? {{box:box}}",
        rf"{BOX_WORD} zoom {{box:box}}|zoom {BOX_WORD} {{box:box}}",
        rf"(?:{BOX_WORD} zoom|zoom(?: to)? {BOX_WORD}) {{box:labelled_box}}",
        rf"(?:zoom|frame|focus|view|show|go|fit|crop)(?: in)?(?: (?:to|into|onto|on|in on|the view to))?"
        rf"(?: the)?(?: {BOX_WORD})?(?: (?:of|from|at|with|spanning|covering))? {{box:axis_box}}",
        priority=12,
        requires=DIGITS,
    ),
    Rule(
        cmd.CenterOn,
        rf"(?:center|centre|recenter|recentre)(?: the)?(?: (?:view|camera|canvas|viewer))?"
        rf"(?: (?:on|at|to|around|over))?(?: the)?(?: {POINT_WORD})? {{point:point}}",
        rf"(?:pan|move|go|jump|look|navigate|scroll|fly)(?: the (?:view|camera))?(?: over)?(?: (?:to|at))?"
        rf"(?: the)?(?: {POINT_WORD})? {{point:point}}",
        r"show me (?:where )?{point:point}(?: is)?|where is {point:point}",
        r"(?:(?:set|move|put|pan|shift) )?(?:the )?(?:camera|view)(?: cent(?:er|re))?"
        r"(?: to| =| at)? {point:point}",
        r"(?:center|centre|recenter|recentre|pan|move|go|jump|look|navigate|scroll|fly)"
        rf"(?: the (?:view|camera))?(?: (?:on|at|to|around|over))?(?: the)?(?: {POINT_WORD})?(?: (?:at|of))?"
        r" {point:grid_point}",
        priority=12,
        requires=DIGITS,
    ),
    Rule(
        cmd.SetZoom,
        rf"{SET}(?:the )?(?:zoom|zoom level|zoom factor|magnification)"
        r"(?: (?:to|at|=|:|of|level))? {zoom:scale}",
        r"zoom (?:to|at|=|level) {zoom:scale}",
        r"zoom {zoom:number}(?: ?%| percent)?",
        r"{zoom:scale} zoom",
        priority=11,
        requires=NUMERALS,
    ),
    Rule(
        cmd.ResetView,
        r"(?:reset|restore|home)(?: the)?(?: (?:default|original))?(?: (?:view|camera|zoom|viewer))*",
        r"(?:view|camera|zoom) reset",
        r"(?:put|set|bring|get|take) (?:the )?(?:view|camera|zoom) back(?: to (?:normal|default|the start))?",
        r"(?:fit|frame|show) (?:all|everything|all (?:the )?layers|the whole (?:image|scene|thing))"
        r"(?: (?:in|to) (?:the )?(?:view|screen|window|canvas))?",
        r"(?:zoom|fit)(?: out)?(?: to)? (?:fit|the (?:view|screen|window|canvas))"
        r"(?: all| everything| all (?:the )?layers)?",
        r"fit(?: to)?(?: the)? (?:view|screen|window|canvas)|re-?cent(?:er|re)(?: the view)?",
        r"(?:go )?back to (?:the )?(?:default|original|home) view|home view|default view",
        priority=10,
    ),
    Rule(
        cmd.FitToLayer,
        r"(?:fit|frame|focus)(?: (?:the )?(?:view|camera))?(?: (?:to|on))? {name:layers}"
        r"(?: (?:to|in) (?:the )?(?:view|screen|window|canvas))?",
        r"zoom (?:to|on|in on|onto)(?: fit)? {name:layers}",
        r"zoom to fit {name:layers}",
        r"make (?:the )?(?:whole |entire )?{name:layers} fit(?: (?:on|in|to|into) (?:the )?"
        r"(?:screen|view|window|canvas))?",
        r"(?:show|see) (?:the )?(?:whole|entire|all of(?: the)?) {name:layers}",
        r"(?:zoom|fit) (?:to )?(?:the )?(?:extent|bounds) of {name:layers}",
        priority=5,
        requires=("fit", "frame", "focus", "zoom", "extent", "bounds", "whole", "entire", "all of"),
    ),
)
