"""Mirrors: flat, arc, parabolic, equation- and curve-shaped, ideal, the beam splitter and the
reflection grating."""
