"""How people ask about the layer list: which layers show, which one alone, their names, order,
selection and removal."""

from __future__ import annotations

from ....core.grammar.questions import asked_about
from ....core.rules.lookup import said_mark
from ....core.rules.rule import Rule
from .. import commands as cmd
from .words import HIDE, SHOW

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
LAYERS_WORD = (
    r"(?:all|everything|every layer|each layer|all (?:the )?layers|all of the layers|the layers|all of them"
    r"|them all|every one of them)"
)
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
            "only",
            "just",
            "solo",
            "but",
            "except",
            "other",
            "nothing",
            "isolate",
            "alone",
            "itself",
            "apart",
            "save",
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
)
