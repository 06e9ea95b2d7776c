"""Special objects: the module (a parametrised group of objects a scene defines)."""
