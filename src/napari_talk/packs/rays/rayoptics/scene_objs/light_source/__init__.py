"""Light sources: the single ray, the point source, the angle source and the beam."""
