"""How people ask for viewer commands, as grammar rules (see :mod:`napari_talk.core.grammar.rules`).

Specific phrasings carry a higher priority than the generic "<verb> <layer>" ones, so "show only
spots", "show all layers" and "show layers" never read as showing a layer of that name.
"""

from __future__ import annotations

from rapidfuzz.distance import OSA
from rapidfuzz.process import extractOne

from ...core.grammar.lookup import said_mark
from ...core.grammar.questions import asked_about
from ...core.grammar.rules import Rule
from ...core.grammar.tokens import FRACTIONS, WORD_VALUES, NoMatch
from . import commands as cmd

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
SOLO_VERB = r"(?:show|display|view|keep|leave|see|look at)"
HIDE_VERB = "(?:" + "|".join(sorted(HIDE, key=len, reverse=True)) + ")"
ALONE = (
    r"(?: only| alone| by itself| on its own|,? and nothing else|,? nothing else"
    r"| and no others?(?: layers?)?)"
)
"""After a name: that one and no other ("nuclei and nothing else")."""
TOGGLE_VISIBILITY = r"(?:toggle|flip|switch|invert|swap) (?:the )?visibility (?:of|for|on)"
VISIBILITY = {
    **dict.fromkeys(SHOW, "show"),
    **dict.fromkeys(HIDE, "hide"),
    "toggle": "toggle",
    "flip": "toggle",
    "toggle visibility of": "toggle",
    "toggle the visibility of": "toggle",
}
STATE_AFTER = {
    **dict.fromkeys(("on", "visible", "shown", "back on"), "show"),
    **dict.fromkeys(("off", "invisible", "hidden", "disappear", "go away", "vanish"), "hide"),
    **dict.fromkeys(("appear", "reappear", "come back"), "show"),
}
PANEL_OPS = {
    **dict.fromkeys(("open", "show", "display", "bring up", "pop up", "reveal", "unhide"), "open"),
    **dict.fromkeys(("close", "hide", "dismiss", "collapse", "shut", "put away"), "close"),
}
SWITCH = {"on": "on", "off": "off"}
ON_OFF = {
    **dict.fromkeys(("show", "enable", "turn on", "switch on", "activate", "add"), "on"),
    **dict.fromkeys(
        (
            "hide",
            "disable",
            "turn off",
            "switch off",
            "deactivate",
            "remove",
            "exit",
            "leave",
            "quit",
            "get rid of",
            "stop",
        ),
        "off",
    ),
    **dict.fromkeys(("enter", "use", "start"), "on"),
    "toggle": "toggle",
}
SHOW_HIDE = {"on": "show", "off": "hide", "toggle": "toggle"}
DIMENSIONS = {
    **dict.fromkeys(("2d", "2-d", "2 d", "two d", "2 dimensions", "2 dimensional", "flat"), 2),
    **dict.fromkeys(("3d", "3-d", "3 d", "three d", "3 dimensions", "3 dimensional"), 3),
}
NDISPLAY = {**DIMENSIONS, "2": 2, "3": 3}
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

ZOOM_WORDS = (
    "zoom", "magnif", "enlarge", "closer", "double", "halve", "triple", "quadruple", "shrink", "reduce",
    "divide", "decrease", "multiply", "increase", "scale",
)  # fmt: skip
DIGITS = tuple("0123456789")
"""Rules whose every reading holds a number are not tried on lines without one."""
NUMERALS = (*DIGITS, *(word for word in WORD_VALUES if " " not in word))
"""The same for rules whose number may be spelled out ("go to slice seven")."""
FRACTION_WORDS = tuple({word for phrase in FRACTIONS for word in phrase.split()})
ORDINAL_SLICES = {
    word: i
    for i, word in enumerate(
        ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
    )
}
"""Slices counted as people do, from the first (index 0)."""
OPACITY_WORDS = ("opac", "opaq", "alpha", "transparen", "through", "translucen", "op ")
""""op " opens the opacity rules on the word "op" alone, not on "open", "stop" or "microscope"."""
OPACITY = r"(?:opacity|alpha)"
CLEAR_NOUN = r"(?:transparency|translucency)"
CLEAR = r"(?:transparen(?:t|cy)|see-through|see through|translucen(?:t|cy))"
"""Transparency is one minus opacity: "20% transparent" is an opacity of 0.8, "fully transparent" 0."""
SET = r"(?:(?:set|change|adjust|make|put|update|use)\s+)?"
IS = r"(?: ?[:=]| (?:to|as|at|=|is))?"
"""Between a name and its new value: "to", "=", ":" (also glued, "ch2: magenta") or nothing."""
OF = r"(?:of|for|on)"
LAYERS_WORD = (
    r"(?:all|everything|every layer|each layer|all (?:the )?layers|all of the layers|the layers|all of them"
    r"|them all|every one of them)"
)
GO = r"(?:go|jump|move|skip|set|change|switch|show|scroll|step|slide|drag|put)(?: me)?(?: (?:to|the))?"
SLICE_WORD = r"(?:slice|frame|plane|section|timepoint|time point|time step|step)"
STACK_WORD = r"(?:stack|volume|slices|frames|movie|time ?series|time ?lapse|series|data|sequence|planes)"
SLIDER_PLACES = {
    **dict.fromkeys(("last", "final", "very last", "end"), "last"),
    **dict.fromkeys(("middle", "mid", "center", "centre", "central", "midmost", "halfway"), "middle"),
}
"""Slider steps said by place; the first is the ordinal rule's index 0."""
BOX_WORD = r"(?:box|region|area|rectangle|rect|roi|bounding box|window)"
POINT_WORD = r"(?:point|position|coordinates?|location|pixel|spot)"


CMAP = r"(?: (?:colou?r ?map|cmap|lut|colou?r|look ?up table|palette|colou?r scheme))"

PUT = r"(?:move|put|place|bring|send|shift|push|drag|take|set|stick)"
"""Verbs that put a layer somewhere in the layer list."""
LIST_ENDS = {
    **dict.fromkeys(("top", "very top", "front", "very front", "foreground", "first place"), "top"),
    **dict.fromkeys(("bottom", "very bottom", "back", "very back", "background", "last place"), "bottom"),
}
LIST_STEPS = {
    **dict.fromkeys(("up", "upwards", "forward", "forwards", "higher", "one up", "up one"), "up"),
    **dict.fromkeys(("down", "downwards", "backward", "backwards", "lower", "one down", "down one"), "down"),
}
NEXT_TO = {
    **dict.fromkeys(("above", "over", "on top of", "in front of", "on"), "above"),
    **dict.fromkeys(("below", "under", "underneath", "beneath", "behind"), "below"),
}
THE_LIST = (
    r"(?: (?:of|in|on) (?:the )?(?:layers? list|list of layers|layer stack|stack|layers|list|layer panel"
    rf"|{said_mark('panels', 'layers? list')}))?"
)
"""Where a layer goes, said or not; "layer list" is also a panel's name, marked in a line."""
A_STEP = r"(?: (?:by )?(?:one|a|1|a single) (?:step|level|place|position|notch|slot|spot|layer))?"
LIST_WORDS = (
    "top", "front", "foreground", "first place", "bottom", "back", "last place", "up", "down", "forward",
    "higher", "lower", "above", "over", "on", "below", "under", "beneath", "behind", "raise", "position",
    "index", "slot", "sink", "lift",
)  # fmt: skip


def _not_a_slip(values: dict) -> dict:
    """A colormap the grammar does not know but is one slip from one it does ("infreno") is not
    taken as typed: the line is read again with the slip corrected, and the reply says so."""
    typed = str(values.get("colormap", "")).casefold()
    if typed not in COLORMAPS and extractOne(typed, list(COLORMAPS), scorer=OSA.distance, score_cutoff=1):
        raise NoMatch(typed)
    return values


def _zoom_out(values: dict) -> dict:
    """'zoom out 2x' is a factor of 1/2; 'zoom out 0x' keeps its 0, which validation refuses."""
    factor = values["factor"]
    return {**values, "factor": 1 / factor if factor else factor}


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
A_BIT = r"(?: (?:(?:just )?a (?:little )?(?:bit|little|touch|tad)|slightly|somewhat))?"
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
THE_IMAGE = r"(?:the |my |this )?(?:image|view|canvas|viewer|screen|display|picture|figure|data)"
ON_IMAGE = rf"(?: (?:on|to|in|onto|into) {THE_IMAGE})"
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


def _transparency(values: dict) -> dict:
    """'50% transparent' is an opacity of 0.5; '30% transparent' one of 0.7."""
    return {**values, "opacity": round(1 - values["opacity"], 6)}


RULES: tuple[Rule, ...] = (
    Rule(
        cmd.ListLayers,
        r"(?:list|display|print|name|enumerate|give me|show me|tell me)"
        r"(?: (?:all|the|of|the names of|a list of|what))* (?:layers|layer names|loaded layers)"
        r"(?: (?:loaded|open|there are|are loaded|in the viewer|i have))?",
        r"show layers|show (?:me )?(?:a )?list of (?:all )?(?:the )?layers",
        r"(?:what|which) layers(?: (?:are there|do (?:i|we) have|are (?:loaded|open|available|here)"
        r"|exist|have i got|are in the viewer))?",
        r"(?:what|which) (?:layers )?(?:is|are) (?:loaded|open|in the viewer)",
        r"what'?s (?:loaded|open|in the viewer)",
        r"how many layers(?: (?:are there|do (?:i|we) have|are (?:loaded|open)))?",
        r"layers(?: list)?|ls layers|get layers",
        r"what (?:are|is) (?:the|my) layers(?: called| named)?|(?:the )?names of (?:the|my|all) layers",
        r"what layers do (?:i|we) have(?: open| loaded)?|what(?:'s| is) in the layer list",
        priority=20,
        requires=("layer", "ls", "loaded", "open", "viewer"),
    ),
    asked_about(
        cmd.ListLayers, "layers", "channels", holder=r"(?:the )?viewer", named_list=False, priority=19
    ),
    Rule(
        cmd.AllLayersVisibility,
        rf"{{op}} {LAYERS_WORD}",
        rf"(?:turn|switch) {LAYERS_WORD} {{op:state}}",
        rf"make {LAYERS_WORD} {{op:state}}",
        rf"{LAYERS_WORD} {{op:state}}",
        op=VISIBILITY,
        state=STATE_AFTER,
        priority=20,
        requires=("all", "every", "layers"),
    ),
    Rule(
        cmd.SoloLayer,
        rf"{SOLO_VERB} (?:me )?(?:only|just) {{name:layers}}(?: visible| on)?{ALONE}?",
        rf"(?:show|display|view|see|look at) (?:me )?{{name:layers}}(?: visible| on)?{ALONE}",
        rf"(?:only|just) {SOLO_VERB} (?:me )?{{name:layers}}{ALONE}?",
        rf"(?:i )?(?:only|just) (?:want|wanna|need) to {SOLO_VERB}(?: only| just)? {{name:layers}}{ALONE}?",
        rf"(?:i )?(?:want|wanna|need) to {SOLO_VERB} (?:only|just) {{name:layers}}{ALONE}?",
        r"solo {name:layers}",
        rf"{HIDE_VERB} {LAYERS_WORD} (?:but|except(?: for)?|apart from|other than|save) {{name:layers}}",
        rf"{HIDE_VERB} (?:all )?(?:the )?other(?:s| layers)(?: (?:but|except) {{name:layers}})?",
        rf"{HIDE_VERB} (?:all )?(?:the )?other(?:s| layers)(?: and|,)(?: only)? (?:keep|leave|show)"
        r" {name:layers}(?: visible| on)?",
        r"(?:show|display) nothing (?:but|except|other than) {name:layers}",
        r"isolate {name:layers}",
        priority=20,
        requires=(
            "only", "just", "solo", "but", "except", "other", "nothing", "isolate", "alone", "itself",
            "apart", "save",
        ),
    ),
    Rule(
        cmd.SoloLayer,
        rf"(?:only|just) {{name:layers}}{ALONE}?",
        rf"{{name:layers}}{ALONE}",
        r"nothing (?:but|except|other than) {name:layers}",
        free_names=False,
        priority=20,
        requires=("only", "just", "nothing", "alone", "itself"),
    ),
    Rule(
        cmd.PanelToggle,
        "{op} {name:panels}",
        "(?:turn|switch) {name:panels} {state}",
        "{name:panels} {state}",
        op=PANEL_OPS,
        state={"on": "open", "off": "close"},
        priority=15,
    ),
    Rule(
        cmd.GridMode,
        r"(?:turn|switch|put|set) (?:the )?grid(?: mode| view)? {op:switch}",
        r"(?:turn|switch) {op:switch} (?:the )?grid(?: mode| view)?",
        r"grid(?: mode| view)?(?: to)? {op:switch}",
        r"{op:verbs} (?:the )?grid(?: mode| view)?",
        r"grid(?: mode| view)?",
        switch=SWITCH,
        verbs=ON_OFF,
        priority=15,
        op="toggle",
        requires=("grid", "tile", "side by side"),
    ),
    Rule(
        cmd.GridMode,
        r"(?:show|arrange|lay out|tile|put|display|view|place) (?:all )?(?:the )?layers"
        r"(?: side by side| next to each other)?(?: (?:in|as|into|on) (?:a )?grid)?"
        r"|tile (?:the )?layers|side by side",
        priority=15,
        op="on",
        requires=("grid", "tile", "side by side", "next to each other"),
    ),
    Rule(
        cmd.ScaleBar,
        r"(?:turn|switch|set) (?:the )?scale ?bar {op:switch}",
        r"(?:turn|switch) {op:switch} (?:the )?scale ?bar",
        r"scale ?bar(?: to)? {op:switch}",
        rf"{{op:verbs}} (?:a |the )?scale ?bar(?: (?:on|to|in|onto|into|from|off) {THE_IMAGE})?",
        r"scale ?bar",
        switch=SHOW_HIDE,
        verbs={**{k: SHOW_HIDE[v] for k, v in ON_OFF.items()}, "display": "show"},
        op="toggle",
        priority=15,
        requires=("scale",),
    ),
    Rule(
        cmd.ScaleBar,
        rf"(?:i )?(?:add|need|want|would like|'d like|put|place|draw|include|stick|insert|give me)"
        rf" (?:a |the )?scale ?bar{ON_IMAGE}?",
        rf"(?:a |the )scale ?bar{ON_IMAGE}?|scale ?bar{ON_IMAGE}",
        rf"(?:show|display|turn on|switch on|enable) (?:a |the )?scale ?bar{ON_IMAGE}",
        op="show",
        priority=15,
        requires=("scale",),
    ),
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
    Rule(
        cmd.RenameLayer,
        r"rename {name:layers} (?:to|as|into|->|=>|=) ?{new_name:text}",
        r"(?:change|set|update|switch) (?:the )?name of {name:layers} to {new_name:text}",
        r"(?:change|set|update|switch) {name:layers}(?:'s)? name (?:to|as|into) {new_name:text}",
        r"give {name:layers} the name {new_name:text}",
        r"(?:call|name|label) {name:layers} (?:as )?{new_name:text}",
        priority=8,
        requires=("name", "call", "label"),
    ),
    Rule(
        cmd.MoveLayer,
        rf"{PUT} {{name:layers}} (?:to|at|on|onto|in|into) (?:the )?{{position:ends}}{THE_LIST}",
        rf"{PUT} {{name:layers}} {{position:next_to}} {{relative_to:layers}}{THE_LIST}",
        rf"{PUT} {{name:layers}} (?:to |at |in |into )?(?:the )?(?:position|index|place|slot|spot|level)"
        rf"(?: (?:number|no\.?|#))? ?{{position:int}}{THE_LIST}",
        r"make {name:layers} the {position:ends}(?:most)?(?: layer| one)?",
        ends=LIST_ENDS,
        next_to=NEXT_TO,
        priority=13,
        requires=LIST_WORDS,
    ),
    Rule(
        cmd.MoveLayer,
        # no place but a direction: "move nuclei up" names a layer, never free words ("move the view up")
        rf"{PUT} {{name:layers}}{A_STEP} {{position:steps}}{A_STEP}{THE_LIST}",
        rf"{{position:lifts}} {{name:layers}}{A_STEP}{THE_LIST}",
        rf"{{name:layers}} to (?:the )?{{position:ends}}{THE_LIST}",
        steps=LIST_STEPS,
        ends=LIST_ENDS,
        lifts={"raise": "up", "lift": "up", "lower": "down", "sink": "down"},
        free_names=False,
        priority=13,
        requires=LIST_WORDS,
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
    Rule(
        cmd.SelectLayer,
        r"(?:select|activate|choose|pick|highlight|focus on)(?: the)?(?: layer)? {name:layers}",
        r"make {name:layers} (?:the )?(?:active|selected|current)(?: layer| one)?",
        r"(?:set|change|switch) (?:the )?(?:active|current|selected) layer to {name:layers}",
        r"switch to {name:layers}",
        priority=0,
        requires=("select", "activ", "choose", "pick", "highlight", "focus", "current", "switch"),
    ),
    Rule(
        cmd.RemoveLayer,
        r"(?:delete|remove|drop|discard|trash|get rid of|kill|close|erase|rm|del|throw away) {name:layers}",
        r"(?:delete|remove|drop|discard) (?:the )?layer {name:layers}",
        priority=0,
        requires=("del", "remov", "drop", "discard", "trash", "rid", "kill", "close", "erase", "rm", "throw"),
    ),
    Rule(
        cmd.LayerVisibility,
        "{op} (?:me )?{name:layers}",
        "(?:turn|switch|set|make) {name:layers} {op:state}",
        "{name:layers} {op:state}",
        "make {name:layers} (?:be )?{op:state}",
        op=VISIBILITY,
        state=STATE_AFTER,
        priority=-10,
    ),
    Rule(cmd.LayerVisibility, rf"{TOGGLE_VISIBILITY} {{name:layers}}", op="toggle", priority=-10),
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
