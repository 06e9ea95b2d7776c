"""How people ask about the ray scene in words: how many rays, one object's index, place or size,
and angle or Fresnel questions that name a glass of the scene instead of its index. The pack reads
them after the rules of :mod:`.requests`, whose phrases they share."""

from __future__ import annotations

from ....core.rules.rule import Rule
from .. import commands as cmd
from .requests import ANGLE_ASK, ANGLE_KINDS, AT, FRESNEL, INTO, MEDIA, N1_ANY, N2_ANY, PRIORITY, THETA

WHATS = r"(?:what is|what's|whats|what was|tell me|give me|show me|get|say)"
SCENE = r"(?: (?:in|of) (?:the|this|my) (?:ray |optics? )?scene)?"
NAME_KINDS = ("scene_objects", "scene_object_words")
"""A full name first, then a word that names one object alone ("the prism", "glass")."""
INDEX_WORD = r"(?:refractive )?(?:index|ior|n)(?: of refraction)?"
LIVE = ("scene_objects",)
"""Rules tried only with a ray scene in play: their names may be free words then."""


def _named(*templates: str) -> tuple[str, ...]:
    """Each template once per kind of name, for every ``KIND`` in it."""
    return tuple(template.replace("KIND", kind) for kind in NAME_KINDS for template in templates)


OBJECT = r"(?:the )?{name:KIND}"
GLASS_1 = r"(?:the )?{n1:KIND}(?: glass)?"
GLASS_2 = r"(?:the )?{n2:KIND}(?: glass)?"
MEDIUM_1 = r"(?:the )?{n1:media}"
MEDIUM_2 = r"(?:the )?{n2:media}"
SCENE_PAIRS = (
    (GLASS_1, MEDIUM_2),
    (GLASS_1, N2_ANY),
    (MEDIUM_1, GLASS_2),
    (N1_ANY, GLASS_2),
    (GLASS_1, GLASS_2),
)
"""Two media, one or both a glass of the scene ("from the prism to air", "from 1 into Slab 1")."""

QUESTIONS: tuple[Rule, ...] = (
    Rule(
        cmd.CountRays,
        r"how many (?:light )?rays(?: are there| do (?:we|i) have| are (?:traced|emitted|drawn)"
        r"| does (?:the|this) scene have)?" + SCENE,
        r"(?:count|number of)(?: the| all the| all)? (?:light )?rays" + SCENE,
        rf"{WHATS} (?:the )?(?:number|count) of (?:light )?rays" + SCENE,
        r"(?:the )?ray count",
        requires=("rays", "ray count"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.DescribeSceneObject,
        *_named(rf"(?:{WHATS} )?(?:the )?refractive index (?:of|for) {OBJECT}"),
        what="index",
        requires=("refractive",),
        priority=PRIORITY,
    ),
    Rule(
        cmd.DescribeSceneObject,
        *_named(
            rf"(?:{WHATS} )?(?:the )?{INDEX_WORD} (?:of|for) {OBJECT}",
            rf"(?:{WHATS} )?{OBJECT}(?:'s|s')? {INDEX_WORD}",
            rf"what {INDEX_WORD} (?:does|has) {OBJECT}(?: got| have)?",
        ),
        what="index",
        when=LIVE,
        free_names=False,  # "which rays cross edge N" is not an index asked of "which rays cross edge"
        requires=("index", "ior", "refract", " n"),
        priority=PRIORITY - 1,
    ),
    Rule(
        cmd.DescribeSceneObject,
        *_named(
            rf"where(?: is|'s|s| are)? {OBJECT}(?: now)?",
            rf"{WHATS} (?:the )?(?:position|location|place|centre|center) of {OBJECT}",
            rf"{WHATS} {OBJECT}(?:'s|s')? (?:position|location|place|centre|center)",
        ),
        what="position",
        when=LIVE,
        requires=("where", "position", "location", "place", "centre", "center"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.DescribeSceneObject,
        *_named(
            rf"how (?:big|large|wide|tall|long) is {OBJECT}",
            rf"{WHATS} (?:the )?(?:size|dimensions) of {OBJECT}",
            rf"{WHATS} {OBJECT}(?:'s|s')? (?:size|dimensions)",
        ),
        what="size",
        when=LIVE,
        requires=("big", "large", "wide", "tall", "long", "size", "dimension"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.DescribeSceneObject,
        *_named(rf"(?:tell me about|describe|what is|what's|whats) {OBJECT}"),
        when=LIVE,
        free_names=False,  # "what is <anything>" is not the scene's unless it names an object
        requires=("about", "describe", "what"),
        priority=PRIORITY - 1,  # "describe the scene" is the scene's
    ),
    Rule(
        cmd.OpticsAngle,
        *_named(
            *(
                ANGLE_ASK + rf"{{kind:angles}} angles? (?:from|for|between|going from) {a} (?:{INTO}|and) {b}"
                for a, b in SCENE_PAIRS
            )
        ),
        angles=ANGLE_KINDS,
        media=MEDIA,
        when=LIVE,
        free_names=False,  # "from oil (1.518) to water (1.333)" names media by index, not glasses
        requires=("critical", "brewster"),
        priority=PRIORITY,
    ),
    Rule(
        cmd.OpticsAngle,
        *_named(ANGLE_ASK + rf"{{kind:angles}} angles? (?:of|for|in) {GLASS_1}(?: (?:in|to|into) air)?"),
        angles=ANGLE_KINDS,
        when=LIVE,
        free_names=False,
        requires=("critical", "brewster"),
        priority=PRIORITY - 1,
        n2=1.0,
    ),
    Rule(
        cmd.FresnelTransmittances,
        *_named(
            *(
                rf"{FRESNEL}(?: (?:for|of|from))?(?: (?:light )?(?:going|travell?ing|passing)(?: from)?)?"
                rf" {a} {INTO} {b} {AT} {THETA}"
                for a, b in SCENE_PAIRS
            )
        ),
        media=MEDIA,
        when=LIVE,
        free_names=False,
        requires=("fresnel", "reflect", "transmi"),
        priority=PRIORITY,
    ),
)
