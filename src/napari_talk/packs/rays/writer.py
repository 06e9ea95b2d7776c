"""A scene as a ray-optics scene file (JSON, version 5), checked by reading it back.

The JSON comes from the format module's own writer (``scene_json.scene_to_dict``: ray-optics'
keys, and this project's optional keys for exact ray counts, which ray-optics ignores). Before the
text is handed out it is read back with the loader, and the objects it gives are compared with
the scene's: kind, name, points and refractive index, so a file that would not reopen with the
same meaning is never written.
"""

from __future__ import annotations

import json

import numpy as np

from . import editing
from .scene import Scene
from .scene_json import scene_from_dict, scene_to_dict

TOLERANCE = 1e-9


class NotSavable(ValueError):
    """The scene would not read back the same; the message says what differs."""


def scene_text(scene: Scene) -> str:
    """The scene file's text; :class:`NotSavable` when reading it back would change the scene."""
    data = scene_to_dict(scene)
    text = json.dumps(data, indent=2, allow_nan=False) + "\n"
    differences = compare(scene, scene_from_dict(json.loads(text), name=scene.name))
    if differences:
        raise NotSavable("the file would not reopen as the same scene: " + "; ".join(differences[:3]))
    return text


def compare(scene: Scene, reread: Scene) -> list[str]:
    """What differs between two scenes' objects (empty when they are the same)."""
    ours, theirs = editing.objects(scene), editing.objects(reread)
    differences = []
    if [o.kind for o in ours] != [o.kind for o in theirs]:
        kinds = sorted({o.kind for o in ours} - {o.kind for o in theirs}) or ["the order of objects"]
        differences.append(f"not written: {', '.join(kinds)}")
        return differences
    for mine, read in zip(ours, theirs, strict=True):
        a, b = editing.points_of(mine.value), editing.points_of(read.value)
        scale = max(1.0, float(np.abs(a).max(initial=0.0)))
        if a.shape != b.shape or (a.size and np.abs(a - b).max() > TOLERANCE * scale):
            differences.append(f"{mine.name} moves")
        if getattr(mine.value, "ref_index", None) != getattr(read.value, "ref_index", None):
            differences.append(f"{mine.name}'s refractive index changes")
        if mine.name != read.name:
            differences.append(f"{mine.name} is renamed {read.name}")
    return differences
