"""The bundled packs: one folder each, with ``commands``, ``grammar`` and ``handlers`` modules."""
