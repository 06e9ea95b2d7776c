"""The atlas pack: a catalogue of images and entities with embedding search (seed 002).

Domain modules (no napari, no Qt): ``catalogue`` (SQLite, parameterized), ``embeddings`` (offline
hashed, a local MiniLM, an OpenAI-compatible server) with ``lexicon``, ``analysis``
(scikit-image measurements), ``describe`` (the catalogue's voice, with or without a model),
``fetch`` (bounded downloads and decoding), ``sref``, ``jsonl``, ``samples`` and ``store`` (a
session's catalogue file and embedder). ``handlers`` joins them to a session and a viewer.
"""

from ...pack import Pack
from .commands import COMMANDS
from .grammar import RULES

PACK = Pack(name="atlas", commands=COMMANDS, rules=RULES, handlers_module=f"{__name__}.handlers")
