"""Glasses: bodies of refractive index, plain or gradient-index (GRIN), and the ideal lens."""
