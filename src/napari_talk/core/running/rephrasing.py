"""The canonical stage as a session runs it: made ready once, off any GUI thread, then asked what
a line the parser does not read may mean (:mod:`napari_talk.core.grammar.rephrase`, the command
chosen by a classifier trained on the grammar's phrasings, :mod:`napari_talk.core.grammar.intents`),
which the session offers the person and never runs unasked.

Getting ready loads the shared sentence model and embeds the grammar's canonical phrasings
(a few seconds), or reads those embeddings from the user's cache, keyed by the model and the
phrasings themselves, so a new rule or word embeds anew. Until it is ready, and on a machine whose
sentence model is not here (nothing is downloaded for it: the atlas fetches the model when a
search needs it), the stage stays silent and lines go on as before, to a model or to suggestions.

The set-up is background work that nobody waits for: it embeds on one thread, in steps, and gives
way between them (``prepare(give_way)``) to a person's line, such as a search that needs the same
model; it holds the model in use only while a step embeds.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .. import sentences
from ..grammar.intents.reader import IntentReader
from ..grammar.rephrase import Embed, Rephraser
from ..llm.words import is_question, is_remark

if TYPE_CHECKING:
    from ..contract.registry import Registry
    from ..grammar.parser import Parser

log = logging.getLogger(__name__)
KEEP_FROM = 64
"""Batches of at least this many texts (the phrasings, never a typed line) are kept on disk."""
STEP = 64
"""Phrasings embedded between two chances to give way (a tenth of a second of one core)."""


class _GaveUp(Exception):
    """The set-up was told to end before it was done: nothing is kept, it may be tried again."""


class Rephrasing:
    def __init__(
        self, registry: Registry, reader: Callable[[Registry, Embed], Rephraser] = IntentReader
    ) -> None:
        """``reader``: what reads a line once the phrasings are embedded: a trained classifier's
        command filled by its nearest phrasing (:mod:`napari_talk.core.grammar.intents`), or the
        nearest phrasing alone (:class:`Rephraser`)."""
        self._registry = registry
        self._make_reader = reader
        self._reader: Rephraser | None = None
        self._failed = False
        """It could not get ready once: it is not tried again in this session."""
        self._lock = threading.Lock()

    @property
    def ready(self) -> bool:
        return self._reader is not None

    @property
    def reader(self) -> Rephraser | None:
        """The embedded canonical phrasings once ready (a model's canonical mode offers them too)."""
        return self._reader

    def prepare(self, give_way: Callable[[], bool] | None = None) -> None:
        """Make the stage ready (blocking: a GUI calls it in a thread); nothing when the sentence
        model is not here, or the stage is ready already. ``give_way()`` is called between the
        set-up's steps: it blocks while the person's work should go first, and says False when
        the set-up should end (it is tried again by the next call)."""
        if self._reader is not None or self._failed or not sentences.ready():
            return
        with self._lock:
            if self._reader is not None or self._failed:
                return
            try:
                self._reader = self._load(give_way or (lambda: True))
            except _GaveUp:
                log.debug("the canonical stage's set-up ended before it was done")
            except Exception:  # the stage is a help, never a failure: lines go on without it
                self._failed = True
                log.warning("the canonical stage could not get ready", exc_info=True)

    def read(self, text: str, names: Mapping[str, Sequence[str]], parser: Parser) -> str | None:
        """The canonical line a line the parser did not read may mean, when the stage is ready and
        sure of it: a guess to offer the person, never to run unasked."""
        reader = self._reader
        if reader is None or is_remark(text):
            return None
        reading = reader.read(text, names, lambda line: [c.to_wire() for c in parser.parse(line, names)])
        if reading is None:
            return None
        commands = parser.parse(reading.canonical, names)
        if not commands or (is_question(text) and any(c.risk != "read" for c in commands)):
            return None  # "why do the spots look so dim?" asks; it does not ask to brighten them
        return reading.canonical

    def _load(self, give_way: Callable[[], bool]) -> Rephraser:
        if not give_way():
            raise _GaveUp
        with sentences.in_use():  # the load is shared: a search asking meanwhile waits for it alone
            model = sentences.minilm(True)
        folder = sentences.onnx_minilm.cache_dir()
        tag = sentences.onnx_minilm.model_file(True).name  # names the weights the model was built from

        def embed(texts: Sequence[str]) -> np.ndarray:
            """A typed line (or a few texts): at once."""
            vectors = model.embed(list(texts))
            return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

        def embed_kept(texts: Sequence[str]) -> np.ndarray:
            """The phrasings' vectors from the cache when this model embedded these very texts,
            else embedded in steps that give way."""
            if len(texts) < KEEP_FROM:
                return embed(texts)
            key = hashlib.sha256("\n".join([tag, *texts]).encode()).hexdigest()[:16]
            path = folder / f"canonical-phrasings-{key}.npy"
            vectors = _read(path, len(texts))
            if vectors is None:
                vectors = _in_steps(model, texts, give_way)
                _write(path, vectors)
            return vectors

        return self._make_reader(self._registry, embed_kept)


def _in_steps(
    model: sentences.onnx_minilm.OnnxMiniLM, texts: Sequence[str], give_way: Callable[[], bool]
) -> np.ndarray:
    """``texts`` embedded on one thread, :data:`STEP` at a time, giving way before each step."""
    parts = []
    for start in range(0, len(texts), STEP):
        if not give_way():
            raise _GaveUp
        with sentences.in_use():
            parts.append(model.embed(list(texts[start : start + STEP]), one_thread=True))
    vectors = np.concatenate(parts)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _read(path: Path, rows: int) -> np.ndarray | None:
    try:
        vectors = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    return vectors if vectors.ndim == 2 and len(vectors) == rows else None


def _write(path: Path, vectors: np.ndarray) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npy")
        np.save(scratch, vectors, allow_pickle=False)
        os.replace(scratch, path)
    except OSError:  # a cache it could not write: the next start embeds again
        log.debug("could not keep the canonical phrasings' vectors at %s", path, exc_info=True)
