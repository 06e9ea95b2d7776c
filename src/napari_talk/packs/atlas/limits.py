"""The numbers every catalogue backend honours, whichever database holds the catalogue."""

from __future__ import annotations

SCHEMA_VERSION = 1
"""The catalogue schema this version writes; a catalogue of a newer one is refused."""
STATEMENT_SECONDS = 10.0
"""The longest one statement may run (the largest, reading 100,000 vectors, takes well under 1 s)."""
MAX_ENTITIES = 2_000_000
"""Entities one catalogue may hold: imports past it are refused, saying so."""
EMBED_BATCH = 256
"""Texts embedded between two progress reports (and chances to stop)."""
