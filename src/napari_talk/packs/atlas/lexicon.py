"""Words for the offline embedder: stop words, a light stemmer, and groups of words that mean
nearly the same (so "guardian" meets "warden" and "cosmic" meets "stellar" without a model).

The groups are general English near-synonyms in the vocabulary of descriptions of imagined
entities and of microscopy images; they are data, not tuned to any query.
"""

from __future__ import annotations

# fmt: off
STOP_WORDS = frozenset((
    "a", "an", "the", "and", "or", "but", "if", "of", "to", "in", "on", "at", "by", "for", "with",
    "from", "into", "onto", "over", "under", "as", "is", "are", "was", "were", "be", "been",
    "being", "it", "its", "it's", "this", "that", "these", "those", "there", "their", "they",
    "them", "he", "she", "his", "her", "him", "i", "me", "my", "we", "our", "you", "your", "who",
    "whom", "which", "what", "when", "where", "how", "than", "then", "so", "such", "very", "just",
    "only", "also", "not", "no", "nor", "can", "could", "would", "should", "will", "shall", "may",
    "might", "must", "do", "does", "did", "done", "have", "has", "had", "having", "about", "across",
    "after", "again", "all", "any", "both", "each", "few", "more", "most", "other", "some", "same",
    "too", "up", "down", "out", "off", "own", "while", "through", "between", "before", "behind",
    "beyond", "like", "one", "ones", "thing", "things", "something", "entity", "entities",
))
# fmt: on

SYNONYM_GROUPS: tuple[tuple[str, ...], ...] = (
    ("guardian", "guard", "warden", "protector", "sentinel", "keeper", "defender", "watcher", "watch",
     "bulwark", "shield", "ward", "custodian", "patrol"),
    ("gold", "golden", "gilded", "amber", "yellow", "sun", "sunlight", "sunny", "solar", "gilt", "blond"),
    ("desert", "dune", "dunes", "sand", "sandy", "arid", "waste", "wastes", "wasteland", "barren"),
    ("cosmic", "cosmos", "star", "stars", "stellar", "celestial", "astral", "galactic", "space", "sky",
     "heaven", "heavens", "constellation", "constellations", "comet", "universe"),
    ("void", "null", "absence", "empty", "emptiness", "nothing", "nothingness", "abyss", "vacuum",
     "oblivion", "hollow"),
    ("walk", "walker", "walks", "wander", "wanderer", "roam", "roamer", "travel", "traveller",
     "traveler", "drift", "drifter", "nomad", "stride", "strider", "journey", "pilgrim", "cross"),
    ("light", "glow", "glowing", "radiance", "radiant", "luminous", "shine", "shining", "bright",
     "brilliant", "gleam", "beam", "lantern", "lamp", "beacon", "lighthouse", "illuminate", "lit", "dawn"),
    ("dark", "darkness", "shadow", "shadows", "black", "night", "dim", "gloom", "murk", "dusk"),
    ("sea", "ocean", "water", "tide", "tidal", "wave", "waves", "underwater", "submerged", "sunken",
     "drowned", "flood", "flooded", "marine", "deep", "brine", "salt", "shore", "shoreline"),
    ("fire", "flame", "flames", "burn", "burning", "burnt", "blaze", "ember", "embers", "cinder",
     "inferno", "lava", "magma", "molten", "furnace", "forge", "spark", "sparks", "smoke", "ash",
     "ashen", "volcanic", "pyre"),
    ("ice", "frost", "frozen", "cold", "snow", "glacier", "winter", "chill"),
    ("signal", "data", "code", "information", "transmission", "message", "messages", "bit", "bits",
     "packet", "bandwidth", "digital", "binary", "network", "node", "nodes"),
    ("glitch", "corrupt", "corrupted", "corruption", "error", "noise", "static", "distortion", "broken"),
    ("memory", "remember", "memories", "recall", "forget", "forgotten", "archive", "record", "records",
     "library", "librarian", "book", "books", "catalogue", "catalog", "index", "list"),
    ("machine", "mechanical", "construct", "golem", "automaton", "robot", "clockwork", "engine", "iron"),
    ("forest", "tree", "trees", "wood", "woods", "grove", "thicket", "canopy", "branch", "branches",
     "root", "roots", "moss", "fern", "leaf", "leaves", "plant", "plants", "treetop", "treetops"),
    ("flower", "flowers", "bloom", "blossom", "meadow", "petal", "garden"),
    ("song", "sing", "sings", "singer", "choir", "chorus", "hum", "humming", "music", "chant", "chord",
     "voice", "voices", "cantor", "melody"),
    ("door", "gate", "gateway", "portal", "threshold", "doorway", "passage", "entrance", "hinge", "key"),
    ("change", "transform", "transformation", "shift", "becoming", "metamorphosis", "rewrite",
     "shapeshifter", "shape", "morph", "evolve"),
    ("king", "queen", "ruler", "monarch", "crown", "throne", "court", "royal", "lord", "sovereign",
     "matriarch", "emperor", "empress"),
    ("warrior", "knight", "knights", "soldier", "legion", "army", "host", "champion", "hero", "heroic",
     "battle", "vanguard", "march", "marches"),
    ("spirit", "ghost", "wraith", "phantom", "spectre", "specter", "spectral", "apparition", "revenant",
     "sprite", "pale"),
    ("beast", "creature", "monster", "serpent", "snake", "leviathan", "dragon", "drake", "colossus",
     "fish", "lizard", "salamander", "reptile", "wolf", "animal"),
    ("see", "seer", "oracle", "fortune", "teller", "soothsayer", "divine", "divination", "prophet", "omen",
     "omens", "foresee", "future", "vision", "augur", "eyes"),
    ("map", "chart", "charts", "cartographer", "navigator", "navigate", "compass", "guide", "wayfinder",
     "course"),
    ("mirror", "reflect", "reflection", "reflector", "symmetry", "symmetric", "symmetrical"),
    ("swarm", "cloud", "haze", "flock", "horde", "thousands", "many", "collective", "crowd"),
    ("small", "tiny", "little", "minute", "miniature"),
    ("huge", "giant", "colossal", "vast", "enormous", "great", "massive", "hulking"),
    ("abstract", "pattern", "patterns", "geometry", "geometric", "fractal", "lattice", "grid", "matrix"),
    ("loop", "loops", "recursion", "recursive", "repeat", "repeating", "iteration", "cycle", "spiral",
     "self"),
    ("cell", "cells", "cellular", "cytoplasm", "membrane", "specimen", "tissue"),
    ("nucleus", "nuclei", "nuclear", "dna", "chromosome", "chromosomes", "chromatin", "dapi"),
    ("fluorescent", "fluorescence", "gfp", "fluorophore", "label", "labelled", "labeled", "stain",
     "stained"),
    ("division", "divide", "dividing", "mitosis", "mitotic", "daughter", "split"),
    ("filament", "filaments", "fibre", "fibres", "fiber", "fibers", "actin", "cytoskeleton", "thread",
     "threads", "net", "weave", "weaver", "knit"),
    ("microscope", "microscopy", "micrograph", "magnified"),
    ("red", "crimson", "scarlet", "ruby", "blood"),
    ("blue", "azure", "cobalt", "sapphire", "navy", "cyan", "teal"),
    ("purple", "violet", "magenta", "lilac", "mauve", "indigo"),
    ("white", "pale", "ivory", "pearl", "silver", "snowy"),
    ("grey", "gray", "silver", "ashen", "smoky", "mist", "misty", "fog"),
    ("orange", "copper", "bronze", "rust", "rusty"),
    ("pink", "rose", "coral", "blush"),
    ("mythic", "myth", "mythical", "legend", "legendary", "fabled", "epic"),
    ("quiet", "silent", "silence", "still", "calm", "hush", "whisper", "whispers"),
    ("urgent", "hurried", "breathless", "warning", "warnings", "alarm", "herald", "messenger"),
    ("power", "powers", "powerful", "might", "mighty", "strength", "force"),
    ("build", "builder", "architect", "maker", "craft", "artisan", "smith", "hammer", "create",
     "creator"),
    ("river", "stream", "brook", "creek"),
    ("boat", "boatman", "ferry", "ferryman", "row", "oar", "ship", "ships", "sail", "sailor", "sailors"),
    ("moon", "moons", "lunar", "crescent"),
    ("mountain", "peak", "spire", "summit", "tower", "towers", "high", "highest"),
    ("bird", "birds", "owl", "kestrel", "hawk", "moth", "moths", "wings", "wing", "flutter"),
    ("trickster", "mischief", "prank", "laugh", "playful"),
    ("glass", "obsidian", "crystal", "crystalline", "shard", "facet", "facets"),
)  # fmt: skip


def _concepts() -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for group in SYNONYM_GROUPS:
        concept = group[0]
        for word in group:
            keys = {word, stem(word)}
            for key in keys:
                if concept not in found.setdefault(key, []):
                    found[key].append(concept)
    return {word: tuple(concepts) for word, concepts in found.items()}


_SUFFIXES = (
    ("ational", "ate"), ("ization", "ize"), ("fulness", "ful"), ("ousness", "ous"), ("iveness", "ive"),
    ("ically", "ic"), ("ities", "ity"), ("ments", "ment"), ("ings", ""), ("ness", ""), ("less", ""),
    ("ies", "y"), ("ied", "y"), ("ing", ""), ("edly", ""), ("ed", ""), ("ly", ""), ("es", ""), ("s", ""),
)  # fmt: skip


def stem(word: str) -> str:
    """A light suffix stripper: enough for "walks"/"walking"/"walked" to meet, nothing more."""
    if len(word) <= 4 or word.endswith("ss"):
        return word
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)] + replacement
            if suffix in ("ing", "ed", "ings") and len(base) > 3 and base[-1] == base[-2]:
                base = base[:-1]  # "running" → "run"
            return base
    return word


CONCEPTS = _concepts()
"""Word (or its stem) → the concepts (group heads) it belongs to."""

FACET_WORDS: dict[str, tuple[str, ...]] = {
    # colours (the facets of :mod:`.facets`, measured on the picture)
    "red": ("red", "reds", "reddish", "crimson", "scarlet", "ruby", "vermilion", "cherry", "blood"),
    "orange": ("orange", "oranges", "tangerine", "copper", "rust", "rusty", "ochre", "peach", "apricot"),
    "gold": ("gold", "golden", "gilded", "gilt", "yellow", "yellows", "yellowish", "amber", "honey",
             "lemon", "mustard", "sunny"),
    "green": ("green", "greens", "greenish", "emerald", "jade", "olive", "lime", "verdant", "leafy"),
    "teal": ("teal", "turquoise", "cyan", "aqua", "aquamarine"),
    "blue": ("blue", "blues", "bluish", "azure", "cobalt", "sapphire", "navy", "cerulean", "indigo"),
    "purple": ("purple", "purples", "violet", "lilac", "lavender", "mauve", "plum", "amethyst"),
    "pink": ("pink", "pinks", "pinkish", "magenta", "fuchsia", "rose", "rosy", "salmon", "coral"),
    "brown": ("brown", "browns", "brownish", "earthy", "umber", "sepia", "chocolate", "tan", "bronze",
              "rust", "rusty", "amber"),
    "black": ("black", "blackness", "inky", "jet", "ebony", "pitch"),
    "white": ("white", "whites", "whitish", "ivory", "snowy", "silver", "silvery", "pearly"),
    "grey": ("grey", "gray", "greys", "grays", "greyish", "grayish", "greyscale", "grayscale", "colourless",
             "colorless", "monochrome", "silver", "silvery", "ashen"),
    # tone
    "dark": ("dark", "darker", "darkest", "shadowy", "dim", "gloomy", "murky"),
    "bright": ("bright", "brighter", "luminous", "radiant", "pastel", "pastels"),
    "pale": ("pale", "pastel", "pastels", "washed", "faded", "whitish", "bleached"),
    "vivid": ("vivid", "colourful", "colorful", "saturated", "vibrant", "bold", "intense"),
    "warm": ("warm", "warmth", "hot", "heat", "burning", "blazing", "autumnal"),
    "cool": ("cool", "cold", "icy", "ice", "frozen", "frosty", "chilly", "wintry", "glacial"),
    # patterns and shapes
    "stripes": ("stripe", "stripes", "striped", "stripy", "bands", "banded", "banding", "parallel"),
    "grid": ("grid", "grids", "lattice", "lattices", "mesh", "net", "checkered", "chequered", "checkerboard",
             "chessboard", "crosshatch", "crosshatched", "crisscross", "crisscrossed", "tiled", "tiles",
             "squares", "plaid"),
    "rings": ("ring", "rings", "ringed", "circles", "concentric", "target", "bullseye", "ripples", "halo",
              "halos"),
    "orb": ("orb", "orbs", "ball", "sphere", "globe", "round", "disc", "disk"),
    "void": ("void", "hole", "empty", "emptiness", "hollow", "halo"),
    "rays": ("rays", "ray", "beams", "radiating", "radiate", "starburst", "sunburst", "burst", "bursting",
             "spokes", "radial"),
    "spiral": ("spiral", "spirals", "swirl", "swirls", "swirling", "vortex", "whirl", "whirlpool", "coil",
               "helix", "twirl"),
    "waves": ("wave", "waves", "wavy", "ripple", "rippling", "undulating", "squiggly", "wiggly", "billowing"),
    "noise": ("noise", "noisy", "grain", "grainy", "static", "speckled", "speckle", "speckles", "fuzzy",
              "mottled", "cloudy"),
    "crystal": ("crystal", "crystals", "crystalline", "shard", "shards", "faceted", "facets", "angular",
                "prism", "prismatic", "jagged", "kaleidoscope"),
    "cells": ("cell", "cells", "blob", "blobs", "blobby", "dots", "spots", "spotty", "bubbles", "droplets"),
    "glitch": ("glitch", "glitches", "glitchy", "corrupted", "corruption", "pixelated", "distorted",
               "datamosh"),
}  # fmt: skip
"""Facet (:mod:`.facets`) → the words that name it in a query or an entity's text. General English
for colours, tones, shapes and patterns; a word may name two facets ("rust": orange and brown)."""


def facet_index() -> dict[str, tuple[str, ...]]:
    """Word → the facets it names."""
    found: dict[str, list[str]] = {}
    for facet, names in FACET_WORDS.items():
        for word in names:
            found.setdefault(word, []).append(facet)
    return {word: tuple(facets) for word, facets in found.items()}


FACETS_OF_WORD = facet_index()
