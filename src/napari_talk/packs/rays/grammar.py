"""How people ask for the rays pack's commands, as grammar rules (see :mod:`napari_talk.core.grammar.rules`).

Every template names what it is about (rays, edges, glass, polarization, Fresnel, energy, paths,
a ray scene), so none takes a viewer phrasing like "show nuclei" or "select Labels". Glass names
are the ``glasses`` the session knows; an edge is a cardinal word ("north", "NE") or any label.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.grammar.rules import Rule
from . import commands as cmd

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
STAY = r"(?: (?:lie|lies|lying|travel(?:s|l?ing)?|go(?:es|ing)?|propagat(?:e|es|ing)|stay(?:s|ing)?))?"
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
        ASK + RAYS + BE + STAY + r" (?:inside|within|in|in the interior of|in the body of) " + GLASS,
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
        r"(?: (?:in|by) the (?:simulation|trace|scene|rays))?",
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
        cmd.FresnelTransmittances,
        r"(?:(?:what is|what's|give me|find) )?(?:the )?"
        r"(?:critical|brewster(?:'s)?|critical and brewster(?:'s)?)"
        rf" angles? (?:from|for|between) {N1} (?:{INTO}|and) {N2}",
        requires=("critical", "brewster"),
        priority=PRIORITY,
        theta_i_deg=0,
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
)
