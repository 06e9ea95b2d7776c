"""How people ask for the rays pack's commands, as grammar rules (see :mod:`napari_talk.core.rules.rule`).

Every template names what it is about (rays, edges, glass, polarization, Fresnel, energy, paths,
a ray scene), so none takes a viewer phrasing like "show nuclei" or "select Labels". Glass names
are the ``glasses`` the session knows; an edge is a cardinal word ("north", "NE") or any label.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ....core.grammar.questions import asked_about
from ....core.rules.rule import Rule
from .. import commands as cmd

PRIORITY = 25
"""Above the viewer's generic "<verb> <layer>" rules, below help and undo."""

ASK = (
    r"(?:(?:which|what|find|list|show(?: me)?|get|give me|highlight|select|count|how many|are there(?: any)?"
    r"|any|display|mark|search for|look for)(?: (?:of )?(?:the|all|all the))? )?"
)
RAYS = r"(?:(?:the|all|all the|any) )?(?:(?:light )?(?:rays?|ray segments?|segments?)|light)"
BE = r"(?: (?:that|which))?(?: (?:are|is|were|was))?"
GLASS = r"(?:(?:the )?glass )?{glass_name:glasses}(?: glass)?"
DEG = r"(?:°|deg|degs|degrees?)"
RELATIVE = r"(?:to|from|with|relative to|against|off|wrt)"
NORMAL = r"(?:(?:the )?normal (?:of|to|on) )?"
EDGE_FORMS = (
    r"(?:the )?edge (?:labell?ed |named |called |number |no |#)?{edge_label:LABEL} (?:of|on|in) " + GLASS,
    r"(?:the )?{edge_label:LABEL} edge (?:of|on|in) " + GLASS,
    GLASS + r"(?:'s|s')? edge {edge_label:LABEL}",
    GLASS + r"(?:'s|s')? {edge_label:LABEL} edge",
    r"(?:the )?edge (?:labell?ed |named |called |number |no |#)?{edge_label:LABEL}",
    r"(?:the )?{edge_label:LABEL} edge",
)
"""The last two name no glass: they hold when the scene has one (``only`` in the rules)."""
ONE_GLASS = {"glass_name": "glasses"}
CARDINAL = {
    **{word: word.upper() for word in ("n", "e", "s", "w", "ne", "nw", "se", "sw")},
    **{word: word.upper() for word in ("nne", "ene", "ese", "sse", "ssw", "wsw", "wnw", "nnw")},
    "north": "N",
    "east": "E",
    "south": "S",
    "west": "W",
    **{
        f"{a}{sep}{b}": (a[0] + b[0]).upper()
        for a in ("north", "south")
        for b in ("east", "west")
        for sep in ("", " ", "-")
    },
}
ABOVE = r"(?:above|over|greater than|more than|at least|higher than|exceeding|beyond|>=|>|≥)"
BELOW = r"(?:below|under|less than|at most|lower than|smaller than|up to|within|no more than|<=|<|≤)"
POLARIZATION = r"(?:(?:a |the |their |its )?(?:degree of polari[sz]ation|polari[sz]ation(?: degree)?|dop))"
WITH = r"(?: (?:with|having|whose|where|of|at))?"
PATHS = r"(?:(?:optical|ray|light) )?paths"
ENERGY = r"(?:energy|brightness|power|intensity)"
BY_ENERGY = rf"(?: (?:by|ranked by|sorted by|ordered by|in order of|according to) {ENERGY})?"
SHOW = r"(?:(?:show|list|find|give|get|tell|what are|rank|sort|order)(?: me| us)? )?(?:the )?"
BRIGHTEST = r"(?:brightest|strongest|most energetic|highest[- ]energy)"
CROSS = (
    r"(?:cross(?:es|ed|ing)?|hit(?:s|ting)?|touch(?:es|ed|ing)?|intersect(?:s|ed|ing)?|meet(?:s|ing)?"
    r"|reach(?:es|ed|ing)?|(?:pass(?:es|ed|ing)?|go(?:es|ing)?|went) (?:through|across|over)|on)"
)
STAY = (
    r"(?: (?:lie|lies|lying|travel(?:s|l?ing)?|go(?:es|ing)?|pass(?:es|ing)?|propagat(?:e|es|ing)"
    r"|stay(?:s|ing)?))?"
)
AT_ANGLE = r"(?: (?:at|with|making|make|hitting|arriving))?(?: (?:an? )?angles?(?: of)?)?"
FRESNEL = (
    r"fresnel(?: (?:coefficients?|transmittances?|reflectances?|transmission|reflection|equations|numbers"
    r"|values))?"
)
POWER_WORD = r"(?:reflectances?|transmittances?|reflection|transmission)"
N1 = r"(?:n ?1 ?[=:]? ?)?{n1:number}"
N2 = r"(?:n ?2 ?[=:]? ?)?{n2:number}"
INTO = r"(?:to|->|into|-)"
AT = (
    r"(?:at|with|for)(?: (?:an? )?(?:angle(?: of incidence)?|incidence(?: angle)?|incident angle"
    r"|theta(?: ?i)?)(?: of| =| :)?)?"
)
THETA = r"{theta_i_deg:number}(?: ?" + DEG + r")?(?: (?:of )?incidence)?"
MEDIA = {"air": 1.0, "vacuum": 1.0, "water": 1.333}
"""Media named instead of given by index (n at 589 nm)."""
GLASS_OF = r"(?:(?:a |the )?(?:glass|medium|material)(?: of)?(?: (?:index|n)(?: of)?)? ?(?:n ?= ?)?)?"
TELL = r"(?:describe|list|show(?: me)?|what are|give me|get|print|tell me)"
REDO = r"(?:trace|simulate|re-?simulate|re-?run|run|recompute|update|refresh)"
CLEAR = r"(?:clear|remove|reset|drop|delete|hide|erase)"
SAMPLE_WORD = r"(?:demo|sample|example|scene)"
COLOR_MODES = {
    **dict.fromkeys(
        ("polarization", "polarisation", "degree of polarization", "degree of polarisation", "dop"),
        "polarization",
    ),
    **dict.fromkeys(("brightness", "energy", "intensity", "power"), "brightness"),
}


RAY_WORDS = ("ray", "segment", "light")
ANGLE_ASK = r"(?:(?:what is|what are|what's|whats|give me|find|compute|calculate|tell me|show me) )?(?:the )?"
ANGLE_KINDS = {
    "critical": "critical",
    "brewster": "brewster",
    "brewster's": "brewster",
    "brewsters": "brewster",
}
N1_ANY = GLASS_OF + r"{n1:number}"
N2_ANY = GLASS_OF + r"{n2:number}"
MEDIA_PAIRS = (
    (N1_ANY, N2_ANY),
    (N1_ANY, r"(?:the )?{n2:media}"),
    (r"(?:the )?{n1:media}", N2_ANY),
    (r"(?:the )?{n1:media}", r"(?:the )?{n2:media}"),
)
"""Two media each said as an index ("1.5", "glass 1.5", "n = 1.5") or by name ("air", "water")."""

OBJECT = r"{name:scene_objects}"
DIRECTIONS = {
    "up": (0.0, 1.0),
    "down": (0.0, -1.0),
    "left": (-1.0, 0.0),
    "right": (1.0, 0.0),
    "upward": (0.0, 1.0),
    "upwards": (0.0, 1.0),
    "downward": (0.0, -1.0),
    "downwards": (0.0, -1.0),
    "higher": (0.0, 1.0),
    "lower": (0.0, -1.0),
}
MOVE = r"(?:move|shift|nudge|push|drag|slide|translate)"
UNITS = r"(?: (?:units?|pixels?|px|mm))?"
TURN = r"(?:rotate|turn|spin|tilt)"
SENSE = {
    "clockwise": -1.0,
    "cw": -1.0,
    "counterclockwise": 1.0,
    "counter-clockwise": 1.0,
    "counter clockwise": 1.0,
    "anticlockwise": 1.0,
    "anti-clockwise": 1.0,
    "ccw": 1.0,
    "to the left": 1.0,
    "to the right": -1.0,
    "left": 1.0,
    "right": -1.0,
}
SOURCE_KINDS = {
    "light source": "point",
    "source": "point",
    "light": "point",
    "point source": "point",
    "point light": "point",
    "point light source": "point",
    "lamp": "point",
    "bulb": "point",
    "light bulb": "point",
    "point": "point",
    "beam": "beam",
    "light beam": "beam",
    "beam of light": "beam",
    "parallel beam": "beam",
    "collimated beam": "beam",
    "beam source": "beam",
    "laser beam": "beam",
    "single ray": "single_ray",
    "ray": "single_ray",
    "laser": "single_ray",
    "light ray": "single_ray",
    "angle source": "angle",
    "angled source": "angle",
    "cone of light": "angle",
}
ADD = r"(?:add|put|place|insert|create|make|drop|new)(?: in)?(?: (?:a|an|one|another|a new))?"
HEADINGS = {
    "right": 0.0,
    "east": 0.0,
    "+x": 0.0,
    "up": 90.0,
    "upward": 90.0,
    "upwards": 90.0,
    "north": 90.0,
    "+y": 90.0,
    "left": 180.0,
    "west": 180.0,
    "-x": 180.0,
    "down": 270.0,
    "downward": 270.0,
    "downwards": 270.0,
    "south": 270.0,
    "-y": 270.0,
}
SHOW_READING = r"(?:(?:show|list|give|get|what are|what is|what's|plot|display|read)(?: me)? )?(?:the )?"
AS_TABLE = r"(?: (?:as|in) (?:a )?{table:tables})?"
TABLES = {
    "table": True, "list": True, "csv": True, "numbers": True, "plot": False, "chart": False, "graph": False,
}  # fmt: skip
READINGS = r"(?:detector|irradiance) (?:readings?|values|measurements?|data|map|profile)"
REMOVE = r"(?:remove|delete|take out|get rid of|drop)"
AIM = r"(?:pointing|pointed|shining|aimed|aiming|going|heading|directed|facing|at an angle of|angled)"
HITTING = ASK + RAYS + BE + f" {CROSS} {{EDGE}}" + AT_ANGLE
"""Rays that meet an edge, the angle said after it ("rays that hit edge N at under 20 degrees")."""


def _window(field: str, low: str, high: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A typed range ("between 30 and 60") becomes ``low`` and ``high``, in order."""

    def post(values: dict[str, Any]) -> dict[str, Any]:
        if field in values:
            a, b = values.pop(field)
            values[low], values[high] = min(a, b), max(a, b)
        return values

    return post


def _objects(*templates: str) -> tuple[str, ...]:
    """Each template once with an object's name and once with a word that names one object
    ("the prism" for "Main Prism"), so a known name is read before any free words: a viewer line
    ("remove nuclei", "rotate the view 30 degrees") names a layer or nothing, and its rule wins."""
    return tuple(
        template.replace(OBJECT, kind)
        for kind in (OBJECT, "{name:scene_object_words}")
        for template in templates
    )


def _moved(values: dict[str, Any]) -> dict[str, Any]:
    """ "up by 20" is ``by = [0, 20]`` (y up); a bare "by 5, 10" stays as typed."""
    heading = values.pop("heading", None)
    distance = values.pop("distance", None)
    if heading is not None and distance is not None:
        values["by"] = [heading[0] * distance, heading[1] * distance]
    return values


def _scene_file(values: dict[str, Any]) -> dict[str, Any]:
    """ "load optics/bench.json": a JSON file is loaded as a scene (read as text it is opened or
    read); other files are left to the packs whose files they are."""
    if not str(values["path"]).casefold().endswith(".json"):
        raise ValueError("not a scene file")
    return values


_THE_VIEW = re.compile(r"^(?:the )?(?:view|camera|canvas|viewer|image|picture|scene)\b", re.IGNORECASE)
"""What the viewer turns, never a scene object: "tilt the camera up 20 degrees" is napari's camera."""


def _turned(values: dict[str, Any]) -> dict[str, Any]:
    if _THE_VIEW.match(str(values.get("name", ""))):
        raise ValueError("the view, not an object of the scene")
    sense = values.pop("sense", 1.0)
    values["degrees"] = sense * values["degrees"]
    return values


def _aimed(values: dict[str, Any]) -> dict[str, Any]:
    heading = values.pop("heading", None)
    if heading is not None:
        values["direction_deg"] = heading
    return values


def _with_edges(*templates: str) -> tuple[str, ...]:
    """Each template once per way of naming the edge: a cardinal word first, then any label."""
    return tuple(
        template.replace("{EDGE}", form).replace("LABEL", kind)
        for template in templates
        for kind in ("cardinal", "word")
        for form in EDGE_FORMS
    )


RULES: tuple[Rule, ...] = (
    Rule(
        cmd.FindRaysInsideGlass,
        ASK + RAYS + BE + STAY + r" (?:inside|within|in|through|in the interior of|in the body of) " + GLASS,
        requires=RAY_WORDS,
        priority=PRIORITY,
    ),
    Rule(
        cmd.FindRaysCrossingEdge,
        *_with_edges(ASK + RAYS + BE + f" {CROSS} {{EDGE}}"),
        requires=RAY_WORDS,
        priority=PRIORITY,
        only=ONE_GLASS,
        cardinal=CARDINAL,
    ),
    Rule(
        cmd.FindRaysByAngleToEdge,
        *_with_edges(
            ASK
            + RAYS
            + BE
            + AT_ANGLE
            + rf"(?: (?:between|from))? {{angles:range}} ?{DEG} {RELATIVE} {NORMAL}{{EDGE}}",
            ASK
            + RAYS
            + BE
            + AT_ANGLE
            + rf" {BELOW} {{max_angle:number}} ?{DEG} (?:of|to|from) {NORMAL}{{EDGE}}",
            ASK
            + RAYS
            + BE
            + AT_ANGLE
            + rf" {ABOVE} {{min_angle:number}} ?{DEG} (?:of|to|from) {NORMAL}{{EDGE}}",
            ASK + RAYS + rf" by angle {RELATIVE} {{EDGE}},? (?:between |from )?{{angles:range}}(?: ?{DEG})?",
            HITTING + rf"(?: at)? {BELOW} {{max_angle:number}} ?{DEG}",
            HITTING + rf"(?: at)? {ABOVE} {{min_angle:number}} ?{DEG}",
            HITTING + rf"(?: at)?(?: (?:between|from))? {{angles:range}} ?{DEG}",
        ),
        post=_window("angles", "min_angle", "max_angle"),
        requires=RAY_WORDS,
        priority=PRIORITY,
        only=ONE_GLASS,
        cardinal=CARDINAL,
    ),
    Rule(
        cmd.FindRaysByPolarization,
        ASK + RAYS + BE + WITH + rf" {POLARIZATION}(?: (?:is|of|in))?"
        r"(?: (?:between|from|in(?: the range)?|within))? {dops:range}",
        ASK + RAYS + BE + WITH + rf" {POLARIZATION}(?: (?:is|of))? {ABOVE} {{min_dop:scale}}",
        ASK + RAYS + BE + WITH + rf" {POLARIZATION}(?: (?:is|of))? {BELOW} {{max_dop:scale}}",
        rf"(?:(?:filter|select|find|show|list|get) )?(?:the )?{RAYS} by {POLARIZATION}"
        r"(?: (?:between|from|in))? {dops:range}",
        rf"{POLARIZATION} (?:between|from|in(?: the range)?) {{dops:range}}",
        post=_window("dops", "min_dop", "max_dop"),
        requires=("polari", "dop"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.RankPathsByEnergy,
        rf"{SHOW}(?:top|best|{BRIGHTEST}) {{top_n:int}} {PATHS}{BY_ENERGY}",
        rf"{SHOW}(?:top|best|{BRIGHTEST}) {PATHS}{BY_ENERGY}",
        rf"{SHOW}{{top_n:int}} (?:top|best|{BRIGHTEST}) {PATHS}{BY_ENERGY}",
        rf"rank(?: the)? {PATHS}{BY_ENERGY}(?:,? (?:top|first|show(?: the)?(?: top)?) {{top_n:int}})?",
        rf"{PATHS} (?:ranked|sorted|ordered) by {ENERGY}",
        rf"(?:which|what) {PATHS} carry (?:the )?most (?:energy|light|power)",
        requires=("path",),
        priority=PRIORITY,
    ),
    Rule(
        cmd.CheckEnergyConservation,
        r"(?:is|was) (?:the )?energy (?:conserved|preserved)"
        r"(?: (?:in|by|for) (?:the|this) (?:simulation|trace|scene|rays|setup|set-up))?",
        r"(?:check|verify|test|validate|confirm)(?: the)? energy (?:conservation|balance)",
        r"(?:check|verify|test|confirm) (?:that|whether|if) (?:the )?energy is (?:conserved|preserved)",
        r"energy (?:conservation|balance)(?: check)?",
        r"(?:does|did) the (?:simulation|trace|tracer|scene) conserve energy",
        requires=("energy",),
        priority=PRIORITY,
    ),
    Rule(
        cmd.FresnelTransmittances,
        rf"{FRESNEL}(?: (?:for|of|from))?(?: (?:light )?(?:going|travell?ing|passing)(?: from)?)?"
        rf" {N1} {INTO} {N2} {AT} {THETA}",
        rf"{FRESNEL} {{n1:number}} {{n2:number}} {{theta_i_deg:number}}(?: ?{DEG})?",
        rf"{FRESNEL} {AT} {THETA}(?: (?:going|from))? {N1} {INTO} {N2}",
        rf"(?:(?:what are )?the )?{POWER_WORD}(?: and {POWER_WORD})?(?: coefficients?)?"
        rf" (?:from|for) {N1} {INTO} {N2} {AT} {THETA}",
        requires=("fresnel", "reflect", "transmi"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.FresnelTransmittances,
        rf"{FRESNEL}(?: (?:for|of))?(?: (?:light )?(?:going|travell?ing|passing))?(?: from)?"
        rf" {GLASS_OF}{{n1:number}} {INTO} (?:the )?{{n2:media}} {AT} {THETA}",
        rf"{FRESNEL}(?: (?:for|of))?(?: (?:light )?(?:going|travell?ing|passing))?(?: from)?"
        rf" (?:the )?{{n1:media}} {INTO} {GLASS_OF}{{n2:number}} {AT} {THETA}",
        media=MEDIA,
        requires=("fresnel", "reflect", "transmi"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.OpticsAngle,
        *(
            ANGLE_ASK
            + rf"{{kind:angles}} angles? (?:from|for|between|going from) {first} (?:{INTO}|and) {second}"
            for first, second in MEDIA_PAIRS
        ),
        *(
            ANGLE_ASK + rf"{{kind:angles}} angles? (?:from|for|between) {first} (?:{INTO}|and) {second}"
            for first, second in MEDIA_PAIRS
        ),
        angles=ANGLE_KINDS,
        media=MEDIA,
        requires=("critical", "brewster"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.OpticsAngle,
        ANGLE_ASK + rf"{{kind:angles}} angles? (?:of|for|in) {GLASS_OF}{{n1:number}}(?: (?:in|to|into) air)?",
        angles=ANGLE_KINDS,
        requires=("critical", "brewster"),
        priority=PRIORITY - 1,
        n2=1.0,
    ),
    asked_about(
        cmd.DescribeGlassEdges, "edges", "sides", "faces", of="{glass_name:glasses}", priority=PRIORITY
    ),
    Rule(
        cmd.DescribeGlassEdges,
        rf"{TELL}(?: all)?(?: of)? (?:the )?edges(?: and (?:their )?labels)? (?:of|on|for|in) " + GLASS,
        rf"{TELL} (?:the )?edge (?:labels|names|descriptions) (?:of|on|for|in) " + GLASS,
        r"(?:describe|list) " + GLASS + r"(?:'s|s')? edges",
        r"(?:the )?edges of " + GLASS,
        r"describe (?:the )?glass {glass_name:glasses}",
        requires=("edge", "glass"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.TraceScene,
        r"re-?trace(?: (?:the|all|all the))?(?: (?:scene|rays|light|glass(?:es)?|optics|simulation))?"
        r"(?: again| now)?",
        rf"{REDO}(?: the)? (?:rays|ray trac(?:e|ing)|ray scene|scene|simulation|optics|light paths|light)"
        r"(?: again| now)?",
        r"trace(?: it)? again",
        r"(?:run |do )?(?:the |a )?(?:ray )?trace(?: it| that)?",
        requires=("trac", "ray", "scene", "simul", "optic", "light"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.LoadScene,
        r"(?:load|open|import|read)(?: the| a| this)?(?: ray[- ]?optics| ray| optics| optical)? scene"
        r"(?: file)?(?: (?:from|at))? {path:path}",
        r"(?:load|open|import)(?: the)? {path:path} as (?:a |the )?(?:ray )?scene",
        requires=("scene",),
        priority=PRIORITY,
    ),
    Rule(
        cmd.LoadScene,
        r"(?:load|import) {path:path}",
        post=_scene_file,
        requires=(".json",),
        priority=PRIORITY,
    ),
    Rule(
        cmd.LoadSampleScene,
        rf"(?:load|open|show(?: me)?|start|run|try)(?: the| a)? {{name:samples}} {SAMPLE_WORD}"
        rf"(?: {SAMPLE_WORD})?",
        r"(?:load|open)(?: the| a)? {name:samples}",
        samples={"prism": "prism demo", "slab": "slab"},
        requires=("prism", "slab"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.ClearRaySelection,
        rf"{CLEAR}(?: the)? (?:ray|rays|query) (?:selection|highlights?|highlighting)",
        rf"{CLEAR}(?: the| all)? highlights?(?: (?:of|on) (?:the )?rays)?",
        rf"{CLEAR}(?: the)? (?:highlighted|selected) rays",
        r"un-?highlight(?: the| all)?(?: rays)?",
        requires=("highlight", "ray", "query"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.ColorRays,
        r"(?:colou?r|shade|paint|tint)(?: the)? (?:rays|ray segments|light)"
        r"(?: (?:by|according to|with|using))? (?:their |the )?{by:modes}",
        r"(?:show|display)(?: the)? {by:modes} (?:of|on) (?:the )?rays",
        modes=COLOR_MODES,
        requires=("ray", "light"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.DescribeScene,
        r"(?:describe|list|summari[sz]e|show(?: me)?|explain)(?: me)?(?: the| this| my)?"
        r" (?:ray |optics? |optical )?scene"
        r"(?: objects| contents)?",
        r"(?:what|which) (?:objects )?(?:is|are|'s) (?:there )?in (?:the|this|my) (?:ray |optics? )?scene",
        r"(?:what's|whats) in (?:the|this|my) (?:ray |optics? )?scene",
        r"(?:list|show(?: me)?|what are)(?: all)? (?:the )?(?:scene |optical )?objects"
        r"(?: (?:in|of) (?:the|this) scene)?",
        r"(?:the )?scene (?:contents|objects|summary|description)",
        requires=("scene", "objects"),
        priority=PRIORITY,
    ),
    asked_about(
        cmd.DescribeScene,
        "objects",
        "scene objects",
        "elements",
        "light sources",
        "sources",
        "mirrors",
        "detectors",
        holder=r"(?:the |this |my )?(?:ray |optics? |optical )?scene",
        priority=PRIORITY,
    ),
    Rule(
        cmd.AddLightSource,
        rf"{ADD} {{kind:sources}} (?:at|to|in|on) {{at:point}}"
        rf"(?:,? (?:{AIM} )?(?:at |towards? |to |by )?{{direction_deg:number}} ?{DEG})?"
        r"(?:,? (?:with (?:a )?)?(?:width|wide) (?:of )?{width:number}| {width:number} (?:units )?wide)?"
        r"(?:,? (?:with (?:a )?)?brightness (?:of )?{brightness:number})?",
        rf"{ADD} {{kind:sources}} (?:at|to|in|on) {{at:point}},? {AIM}"
        r" (?:towards? |to the )?{heading:headings}"
        r"(?:,? (?:with (?:a )?)?(?:width|wide) (?:of )?{width:number}| {width:number} (?:units )?wide)?",
        rf"{ADD} {{kind:sources}}(?: {AIM})? (?:at|towards?) {{direction_deg:number}} ?{DEG}"
        r" (?:at|from) {at:point}",
        sources=SOURCE_KINDS,
        headings=HEADINGS,
        post=_aimed,
        requires=("source", "beam", "ray", "laser", "lamp", "bulb", "light", "point", "cone"),
        priority=PRIORITY + 1,
    ),
    Rule(
        cmd.MoveSceneObject,
        *_objects(
            rf"{MOVE} {OBJECT} {{heading:headings}}(?: by)? {{distance:number}}{UNITS}",
            rf"{MOVE} {OBJECT}(?: by)? {{distance:number}}{UNITS} {{heading:headings}}",
            rf"{MOVE} {OBJECT} by {{by:point}}",
            rf"{MOVE} {OBJECT} (?:to|onto|over to|at) {{to:point}}",
        ),
        headings=DIRECTIONS,
        post=_moved,
        requires=("move", "shift", "nudge", "push", "drag", "slide", "translate"),
        priority=PRIORITY + 1,
    ),
    Rule(
        cmd.RotateSceneObject,
        *_objects(
            rf"{TURN} {OBJECT}(?: by| through)? {{degrees:number}} ?{DEG}(?: {{sense:senses}})?",
            rf"{TURN} {OBJECT} {{sense:senses}}(?: by| through)? {{degrees:number}} ?{DEG}",
            rf"{TURN} {OBJECT}(?: by| through)? {{degrees:number}} ?{DEG}",
        ),
        senses=SENSE,
        post=_turned,
        requires=("rotate", "turn", "spin", "tilt"),
        priority=PRIORITY + 1,
    ),
    Rule(
        cmd.SetRefractiveIndex,
        *_objects(
            r"(?:set|change|make|put)(?: the)? (?:refractive )?(?:index|ior|n)(?: of refraction)? (?:of|for) "
            + OBJECT
            + r" (?:to|=|at) {index:number}",
            r"(?:set|change|make) "
            + OBJECT
            + r"(?:'s|s')? (?:refractive )?(?:index|ior|n)(?: of refraction)?"
            r" (?:to|=|at) {index:number}",
            r"(?:make|set|give) "
            + OBJECT
            + r" (?:an? )?(?:(?:refractive )?index(?: of)?|n ?=|n of) ?{index:number}",
            OBJECT + r" (?:n|index|refractive index) ?(?:=|to|:) ?{index:number}",
        ),
        requires=("index", "ior", "refract", "n ", "n="),
        priority=PRIORITY + 1,
    ),
    Rule(
        cmd.RemoveSceneObject,
        *_objects(rf"{REMOVE} " + OBJECT + r"(?: from (?:the|this) (?:ray )?scene)?"),
        requires=("remove", "delete", "take out", "get rid", "drop"),
        priority=-1,  # below the viewer's remove_layer: a layer's name, even quoted, is the layer's
        free_names=False,  # a name the scene has: "remove macrophages" is about a layer
    ),
    Rule(
        cmd.RemoveSceneObject,
        rf"{REMOVE} {{name:scene_objects}} from (?:the|this) (?:ray )?scene",
        requires=("scene",),
        priority=PRIORITY,
    ),
    Rule(
        cmd.DetectorReadings,
        rf"{SHOW_READING}(?:detector|irradiance) (?:readings?|reading|values|measurements?|map|plot|profile"
        rf"|data){AS_TABLE}",
        rf"{SHOW_READING}irradiance (?:on|at|along|across) (?:the )?{{name:scene_objects}}{AS_TABLE}",
        rf"{SHOW_READING}(?:detector |irradiance )?(?:readings?|values|measurements?|data)"
        rf" (?:for|of|from|on|at) (?:the )?{{name:scene_objects}}{AS_TABLE}",
        rf"{SHOW_READING}irradiance (?:on|at|along|across) (?:the )?detector{AS_TABLE}",
        r"what (?:does|did) (?:the )?detector (?:read|measure|see|show)",
        r"(?:the )?(?:detector|irradiance) (?:readings? )?(?:as|in) (?:a )?{table:tables}",
        tables=TABLES,
        requires=("detector", "irradiance"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.DetectorReadings,
        rf"{SHOW_READING}{{name:scene_objects}}(?:'s)? (?:readings?|values|measurements?|data){AS_TABLE}",
        rf"{SHOW_READING}(?:detector )?(?:readings?|values|measurements?|data) (?:of|for|from|on|at) "
        rf"(?:the )?{{name:scene_objects}}{AS_TABLE}",
        tables=TABLES,
        requires=("reading", "values", "measurement", "data"),
        priority=PRIORITY,
        free_names=False,  # a detector the scene has: "the blood pressure readings" are not the scene's
    ),
    Rule(
        cmd.DetectorReadings,
        rf"(?:list|tabulate|print|dump)(?: me)? (?:the )?{READINGS}",
        rf"{READINGS} (?:as |in )?(?:a )?(?:table|csv|list)",
        rf"(?:show|give|get|display|make|print|write)(?: me)? (?:a |the )?(?:table|csv|list) (?:of|for|with) "
        rf"(?:the )?{READINGS}",
        rf"(?:export|write|print|dump|copy) (?:the )?{READINGS}"
        r"(?: (?:as|in|to) (?:a )?(?:table|csv|list|text))?",
        table=True,
        requires=("detector", "irradiance"),
        priority=PRIORITY + 1,
    ),
    Rule(
        cmd.SaveScene,
        r"(?:save|write|export|store)(?: the| this| my)?(?: ray| optics| optical)? (?:scene|setup|set-up)"
        r"(?: file)? (?:as|to|in|into) {path:path}",
        r"save(?: it)? as (?:a )?(?:ray[- ]optics )?scene (?:file )?(?:at |to |in )?{path:path}",
        requires=("scene", "setup", "set-up"),
        priority=PRIORITY + 1,
    ),
    Rule(
        cmd.MoreRays,
        r"(?:(?:use|trace|give me|show|draw|i want|with) )?{factor:more} rays(?: please| per source)?",
        r"(?:(?:use|trace|give me|show|draw) )?{factor:times} (?:as many|more) rays",
        r"(?:double|twice) (?:the )?(?:number of )?rays",
        r"(?:increase|raise) (?:the )?(?:number of )?rays(?: by {factor:times})?",
        r"(?:decrease|reduce|lower) (?:the )?(?:number of )?rays",
        more={"more": 2.0, "many more": 4.0, "fewer": 0.5, "less": 0.5, "half the": 0.5, "twice the": 2.0},
        requires=("rays",),
        priority=PRIORITY,
    ),
)
