"""Handlers of the atlas pack, by job: :mod:`.search` reads the catalogue, :mod:`.images` works
with pictures, :mod:`.describing` writes descriptions, :mod:`.filling` fills and changes the
catalogue, :mod:`.importing` imports JSON Lines (a large import on a Dask cluster),
:mod:`.context` tells the parser and a model what it holds; :mod:`.common` is what they share.

Results carry the seed's shapes in ``data``; ``meta["table"]`` holds the rows (with PNG
thumbnails as data URLs) for a dock that draws tables. Slow work is handed back as a
:class:`~napari_talk.core.basics.jobs.Job`: embedding, downloads, reading image files, measuring, and
calls to a language model run off the GUI thread (Stop abandons them); layers are read before
and added after, on the GUI thread, and the catalogue is written in ``finish`` so an abandoned
job changes nothing. Every change is recorded for undo through the core's ``Changes``.
"""

from __future__ import annotations

from . import describing, filling, images, importing, search  # noqa: F401  (each registers its handlers)
from .common import HANDLERS
from .context import describe_context, known_names

__all__ = ["HANDLERS", "describe_context", "known_names"]
