"""Blockers: segments, discs and apertures that absorb light, and the transmission grating."""
