"""The PBR material library and the matching of a description ("a dark, rusty metal") to it.

Each material has glTF metallic-roughness values, names it answers to (synonyms) and words that
describe it (keywords). A description scores every material: its name or a synonym in the text
counts most, a keyword or the category ("metal", "wood") less; phrases beat single words. The
best match is then adjusted by the colour and intensity words in the text ("blue", "dark",
"glowing", "shiny", "worn", "very"), and the runner-up is reported alongside.
"""

from __future__ import annotations

import colorsys
import json
import re
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from importlib import resources

NAME_WEIGHT = 3.0
SYNONYM_WEIGHT = 2.5
KEYWORD_WEIGHT = 1.0
CATEGORY_WEIGHT = 1.0
PHRASE_BONUS = 0.5
COVERAGE_WEIGHT = 0.75
"""Per extra word of a matched phrase: "brushed steel" beats "steel"."""

COLOURS = {
    "red": "#C21F1F", "crimson": "#9E1030", "scarlet": "#E0301E", "maroon": "#6B1420",
    "orange": "#F07820", "yellow": "#F2D230", "lime": "#9ACD32", "green": "#2E9E48",
    "olive": "#6B7A2A", "teal": "#1F8C8C", "cyan": "#22C8DC", "turquoise": "#30D5C8",
    "blue": "#2454D6", "navy": "#1A2A6C", "azure": "#3A8FE8", "indigo": "#3F2A9E",
    "purple": "#7B35B5", "violet": "#8A4FE0", "magenta": "#D92ACF", "pink": "#F28DB5",
    "brown": "#6E4426", "tan": "#C8A878", "beige": "#DCCFB0", "cream": "#F1E8CF",
    "white": "#F4F4F4", "black": "#141414", "grey": "#808080", "gray": "#808080",
    "charcoal": "#333538",
}  # fmt: skip
COLOUR_ALIASES = {
    "reddish": "red", "bluish": "blue", "blueish": "blue", "greenish": "green", "yellowish": "yellow",
    "purplish": "purple", "pinkish": "pink", "orangey": "orange", "greyish": "grey", "grayish": "gray",
    "brownish": "brown", "golden": "yellow", "silvery": "grey", "emerald": "green", "ruby": "red",
    "sapphire": "blue", "jet": "black", "snowy": "white", "ivory": "cream",
}  # fmt: skip

DARK = {"dark", "darker", "deep", "dim", "shadowy", "dusky"}
LIGHT = {"light", "lighter", "pale", "pastel", "faded"}
VIVID = {"vivid", "saturated", "bright", "brilliant", "intense", "rich"}
SHINY = {"shiny", "glossy", "polished", "lustrous", "reflective", "gleaming", "sleek", "smooth"}
SATIN = {"satin", "brushed", "semi-gloss", "eggshell", "silky"}
"""A finish between shiny and matte (satin nickel, brushed brass): roughness about 0.35."""
WET = {"wet", "damp", "soaked", "rain-soaked", "rainy", "moist"}
"""Water on a surface darkens it and makes it glossy (wet asphalt, wet stone)."""
TARNISHED = {"tarnished", "oxidized", "oxidised", "dulled", "stained"}
"""A metal gone dark and dull (tarnished copper, tarnished silver)."""
MATTE = {"matte", "matt", "dull", "rough", "flat", "chalky", "dusty", "sandblasted"}
WORN = {"worn", "old", "weathered", "aged", "scratched", "dirty", "battered", "ancient", "used", "grimy"}
GLOW = {"glowing", "glow", "luminous", "emissive", "radiant", "incandescent", "lit", "shining", "fluorescent",
        "phosphorescent", "bioluminescent", "blazing", "burning", "neon"}  # fmt: skip
METALLIC = {"metallic", "metal", "metalic"}
CLEAR = {"transparent", "clear", "see-through", "translucent", "seethrough"}
MODIFIERS = DARK | LIGHT | VIVID | SHINY | SATIN | WET | TARNISHED | MATTE | WORN | GLOW | CLEAR
"""Words that change a material's look rather than name one."""
STRONG = {"very", "really", "extremely", "super", "ultra", "highly", "intensely", "deeply", "strongly"}
WEAK = {"slightly", "somewhat", "faintly", "softly", "subtly", "lightly", "little", "bit", "mildly", "gently"}


def srgb_to_linear(value: float) -> float:
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def linear_to_srgb(value: float) -> float:
    value = min(max(value, 0.0), 1.0)
    return value * 12.92 if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055


def hex_to_linear(text: str) -> tuple[float, float, float]:
    text = text.lstrip("#")
    return tuple(round(srgb_to_linear(int(text[i : i + 2], 16) / 255), 6) for i in (0, 2, 4))  # type: ignore[return-value]


def linear_to_hex(rgb) -> str:
    return "#" + "".join(f"{round(linear_to_srgb(c) * 255):02X}" for c in rgb)


@dataclass(frozen=True)
class Material:
    """glTF metallic-roughness parameters; colours in linear RGB, as glTF stores them."""

    name: str
    base_color: tuple[float, float, float]
    metallic: float
    roughness: float
    alpha: float = 1.0
    emissive: tuple[float, float, float] = (0.0, 0.0, 0.0)
    emissive_strength: float = 1.0
    category: str = ""
    synonyms: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()

    @property
    def base_color_hex(self) -> str:
        return linear_to_hex(self.base_color)

    @property
    def glows(self) -> bool:
        return max(self.emissive) > 0

    def summary(self) -> dict:
        """What a person or the export metadata needs (no matching vocabulary)."""
        data = asdict(self)
        for key in ("synonyms", "keywords"):
            data.pop(key)
        data["base_color_hex"] = self.base_color_hex
        return data

    @classmethod
    def from_summary(cls, data: dict) -> Material:
        fields = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        for key in ("base_color", "emissive"):
            if key in fields:
                fields[key] = tuple(fields[key])
        return cls(**fields)


@dataclass(frozen=True)
class Match:
    """The outcome of matching a description against the library."""

    material: Material
    """The chosen material, adjusted by the description's colour and intensity words."""
    library_name: str
    score: float
    runner_up: str | None
    runner_up_score: float
    adjustments: tuple[str, ...] = ()
    matched_terms: tuple[str, ...] = field(default=())

    def describe(self) -> str:
        tweaks = f" ({', '.join(self.adjustments)})" if self.adjustments else ""
        second = f"; runner-up: {self.runner_up}" if self.runner_up else ""
        return f"{self.library_name}{tweaks}{second}"


@lru_cache(maxsize=1)
def library() -> tuple[Material, ...]:
    raw = json.loads(resources.files(__package__).joinpath("data/materials.json").read_text("utf-8"))
    return tuple(
        Material(
            name=entry["name"],
            base_color=hex_to_linear(entry["base_color"]),
            metallic=float(entry["metallic"]),
            roughness=float(entry["roughness"]),
            alpha=float(entry.get("alpha", 1.0)),
            emissive=hex_to_linear(entry.get("emissive", "#000000")),
            emissive_strength=float(entry.get("emissive_strength", 1.0)),
            category=entry.get("category", ""),
            synonyms=tuple(entry.get("synonyms", ())),
            keywords=tuple(entry.get("keywords", ())),
        )
        for entry in raw["materials"]
    )


def by_name(name: str) -> Material | None:
    folded = name.strip().casefold()
    return next((m for m in library() if m.name == folded), None)


_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")


def words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _singular(word: str) -> str:
    for suffix, replacement in (("ies", "y"), ("ves", "f"), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2 and not word.endswith("ss"):
            return word[: -len(suffix)] + replacement
    return word


def _forms(tokens: list[str]) -> frozenset[str]:
    """Every run of up to four words of the text, as typed and in the singular: what a term
    ("brushed steel", "crystals") is looked up in."""
    found: set[str] = set()
    for words_ in (tokens, [_singular(t) for t in tokens]):
        for size in range(1, 5):
            found.update(" ".join(words_[i : i + size]) for i in range(len(words_) - size + 1))
    return frozenset(found)


def _contains(texts: frozenset[str], term: str) -> bool:
    return term in texts


def score(material: Material, texts: frozenset[str]) -> tuple[float, list[str]]:
    """Naming the material (its name or a synonym) counts once, at its best; every describing
    word (keyword, category) adds up."""
    total, terms = 0.0, []
    names = [(NAME_WEIGHT, material.name)] + [(SYNONYM_WEIGHT, s) for s in material.synonyms]
    named = [(w + PHRASE_BONUS * (len(t.split()) - 1), t) for w, t in names if _contains(texts, t)]
    if named:
        value, term = max(named)
        total += value
        terms.append(term)
        # each further word of the text that the material's names hold counts too, so "rusty iron"
        # is rusted iron (rusty + iron) rather than cast iron (iron), whatever the file's order
        said = {word for _, name in names for word in name.split()} & texts
        total += COVERAGE_WEIGHT * (len(said - set(term.split())))
    describing = [(KEYWORD_WEIGHT, k) for k in material.keywords]
    if material.category:
        describing.append((CATEGORY_WEIGHT, material.category))
    for weight, term in describing:
        if _contains(texts, term):
            total += weight + PHRASE_BONUS * (len(term.split()) - 1)
            terms.append(term)
    return total, terms


def match(description: str) -> Match | None:
    """The best material for a description, adjusted by its colour and intensity words."""
    tokens = words(description)
    if not tokens:
        return None
    texts = _forms(tokens)
    head = _head(tokens)
    ranked = []
    for index, material in enumerate(library()):
        value, terms = score(material, texts)
        names_head = value > 0 and bool(head & _name_words(material))
        ranked.append((-value, index, material, terms, names_head))
    # the word a description ends on names the material ("satin nickel" is nickel, satin-finished):
    # a material named by it beats one named only by a word in front of it ("satin" is also silk)
    ranked.sort(key=lambda entry: (not entry[4], entry[0], entry[1]))
    best_value, _, best, terms, _ = ranked[0]
    if -best_value > 0 and not _names_it(best, terms) and all(_is_modifier(t) for t in terms):
        best_value, terms = 0.0, []  # only colour or finish words: "make it blue" means paint
    if -best_value <= 0:
        if not any(_is_modifier(t) for t in tokens):
            return None
        best = by_name(PAINT) or library()[0]
    by_score = sorted(ranked, key=lambda entry: (entry[0], entry[1]))
    runner = next((entry for entry in by_score if entry[2] is not best and -entry[0] > 0), None)
    colour = _colour_word(tokens, terms)
    material, adjustments = adjust(best, tokens, colour, named=_named_words(best, terms))
    return Match(
        material,
        best.name,
        -best_value + 0.0,
        runner[2].name if runner else None,
        -runner[0] if runner else 0.0,
        tuple(adjustments),
        tuple(terms),
    )


PAINT = "matte plastic"
"""What a description naming only a colour or finish is applied as."""


def _head(tokens: list[str]) -> set[str]:
    """The last word that is not a colour, finish or intensity word (what the text is about), as
    typed and in the singular; empty when every word only describes."""
    for token in reversed(tokens):
        if not _is_modifier(token) and token not in STRONG | WEAK:
            return {token, _singular(token)}
    return set()


def _name_words(material: Material) -> set[str]:
    return {word for name in (material.name, *material.synonyms) for word in name.split()}


def _names_it(material: Material, terms: list[str]) -> bool:
    return any(t == material.name or t in material.synonyms for t in terms)


def _named_words(material: Material, terms: list[str]) -> set[str]:
    """Words of the text that name the material ("neon" in "neon pink" is no glow request)."""
    return {w for t in terms if t == material.name or t in material.synonyms for w in t.split()}


def _is_modifier(word: str) -> bool:
    return all(w in COLOURS or w in COLOUR_ALIASES or w in MODIFIERS for w in word.split())


def _colour_word(tokens: list[str], terms: list[str]) -> str | None:
    """The last colour named, unless the material already is that colour ("red brick", "ruby")."""
    matched = {w for t in terms for w in t.split()}
    found = None
    for token in tokens:
        colour = COLOUR_ALIASES.get(token, token)
        if colour in COLOURS and token not in matched and colour not in matched:
            found = colour
    return found


def _amount(tokens: list[str], index: int) -> float:
    before = tokens[max(0, index - 2) : index]
    if any(t in STRONG for t in before):
        return 1.5
    if any(t in WEAK for t in before):
        return 0.5
    return 1.0


def _hsv_tweak(rgb, saturation: float = 1.0, value: float = 1.0, towards_white: float = 0.0):
    srgb = [linear_to_srgb(c) for c in rgb]
    h, s, v = colorsys.rgb_to_hsv(*srgb)
    s = min(max(s * saturation, 0.0), 1.0)
    v = min(max(v * value, 0.0), 1.0)
    hsv = colorsys.hsv_to_rgb(h, s, v)
    whitened = [c + (1.0 - c) * towards_white for c in hsv]
    red, green, blue = (round(srgb_to_linear(c), 6) for c in whitened)
    return red, green, blue


def adjust(
    material: Material, tokens: list[str], colour: str | None, named: frozenset[str] | set[str] = frozenset()
) -> tuple[Material, list[str]]:
    """Apply the description's colour and intensity words to a library material."""
    changed, notes = material, []
    tokens = [t if t not in named else "" for t in tokens]
    base = material.base_color
    if colour is not None:
        base = hex_to_linear(COLOURS[colour])
        notes.append(colour)
    for index, token in enumerate(tokens):
        amount = _amount(tokens, index)
        if token in DARK:
            base = _hsv_tweak(base, value=0.55**amount)
            notes.append("darker")
        elif token in LIGHT:
            base = _hsv_tweak(base, saturation=0.7, towards_white=min(0.35 * amount, 0.8))
            notes.append("lighter")
        elif token in VIVID and token not in GLOW:
            base = _hsv_tweak(base, saturation=1.3 * amount)
            notes.append("more vivid")
        elif token in SHINY:
            changed = replace(changed, roughness=round(min(changed.roughness, 0.35) * 0.4 / amount, 3))
            notes.append("shinier")
        elif token in SATIN:
            changed = replace(changed, roughness=round(0.35 + 0.05 * (amount - 1), 3))
            notes.append("satin")
        elif token in WET:
            base = _hsv_tweak(base, saturation=1.1, value=0.6 / amount**0.5)
            changed = replace(changed, roughness=round(min(changed.roughness, 0.15), 3))
            notes.append("wet")
        elif token in TARNISHED:
            base = _hsv_tweak(base, saturation=0.75, value=0.6**amount)
            changed = replace(
                changed, roughness=round(min(max(changed.roughness, 0.45) + 0.1 * amount, 1.0), 3)
            )
            notes.append("tarnished")
        elif token in MATTE:
            changed = replace(
                changed, roughness=round(max(changed.roughness, min(0.7 + 0.15 * amount, 1.0)), 3)
            )
            notes.append("matte")
        elif token in WORN:
            changed = replace(changed, roughness=round(min(changed.roughness + 0.2 * amount, 1.0), 3))
            base = _hsv_tweak(base, saturation=0.8, value=0.85)
            notes.append("worn")
        elif token in METALLIC and material.category != "metal":
            changed = replace(changed, metallic=1.0)
            notes.append("metallic")
        elif token in CLEAR and material.alpha > 0.5:
            changed = replace(changed, alpha=0.6 if token == "translucent" else 0.35)
            notes.append("see-through")
    glow = [i for i, t in enumerate(tokens) if t in GLOW]
    if glow:
        amount = _amount(tokens, glow[0])
        if material.glows and colour is None:
            changed = replace(changed, emissive_strength=round(material.emissive_strength * (1 + amount), 3))
        else:
            changed = replace(changed, emissive=base, emissive_strength=round(1.5 * amount, 3))
        notes.append("glowing")
    elif colour is not None and material.glows:
        changed = replace(changed, emissive=base)
    red, green, blue = (round(c, 6) for c in base)
    changed = replace(changed, base_color=(red, green, blue))
    unique = list(dict.fromkeys(notes))
    if unique:
        changed = replace(changed, name=f"{material.name} ({', '.join(unique)})")
    return changed, unique
