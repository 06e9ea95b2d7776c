"""The model files the pack imports, by suffix (no dependencies: the grammar and the commands read it)."""

from __future__ import annotations

MODEL_SUFFIXES = (".stl", ".ply", ".off", ".obj", ".glb", ".gltf")
