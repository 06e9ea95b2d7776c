"""How people add a mirror, a detector or a lens to the ray scene by typing. Above the mesh pack's
"add <a material>" reading: with these words and a place, the line is about the ray scene."""

from __future__ import annotations

from ....core.rules.rule import Rule
from .. import commands as cmd
from .requests import ADD, DEG, PRIORITY

ELEMENT_KINDS = {
    "mirror": "mirror",
    "flat mirror": "mirror",
    "plane mirror": "mirror",
    "detector": "detector",
    "light detector": "detector",
    "sensor": "detector",
    "screen": "detector",
    "lens": "lens",
    "ideal lens": "lens",
    "thin lens": "lens",
    "converging lens": "lens",
}
LONG = r"(?:,? (?:{length:number} (?:units? )?long|(?:with )?(?:a )?length (?:of )?{length:number}))?"
TILT = rf"(?:,? (?:at|tilted|angled|turned|rotated)(?: (?:at|by|to))? {{angle_deg:number}} ?{DEG})?"
FOCAL = r"(?:,? (?:with )?(?:a )?(?:focal length|f) ?(?:of |= ?)?{focal_length:number})?"

ELEMENTS: tuple[Rule, ...] = (
    Rule(
        cmd.AddSceneElement,
        rf"{ADD} {{kind:elements}} (?:from|between) {{start:point}} (?:to|and) {{end:point}}{FOCAL}",
        rf"{ADD} {{kind:elements}} (?:at|to|in|on|centred at|centered at) {{start:point}}{LONG}{TILT}{FOCAL}",
        elements=ELEMENT_KINDS,
        requires=("mirror", "detector", "sensor", "screen", "lens"),
        priority=PRIORITY + 1,
    ),
)
