"""How people ask for parts of the window: panels, the grid, the scale bar."""

from __future__ import annotations

from ....core.rules.rule import Rule
from .. import commands as cmd
from .words import THE_IMAGE

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
ON_IMAGE = rf"(?: (?:on|to|in|onto|into) {THE_IMAGE})"


RULES: tuple[Rule, ...] = (
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
)
