"""What marks a layer as the rays pack's, and the way up the pack draws in: all the pack's layer
hook needs. That hook runs on the GUI thread for every layer that comes into the viewer (a mesh,
the atlas sample), so this module imports nothing of the scene or its drawing (importing them
there held the loop for half a second on a loaded machine)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.viewer.access import camera
from ...core.viewer.layers import set_attributes

if TYPE_CHECKING:
    from ...core.basics.viewer_protocols import Viewer
    from ...core.running.history import Changes

ROLE_KEY = "napari_talk_rays"
"""The metadata key of the pack's layers: ``{"role": ...}`` and what the role keeps."""


def layer_role(metadata: Any) -> str | None:
    info = metadata.get(ROLE_KEY) if isinstance(metadata, dict) else None
    return info.get("role") if isinstance(info, dict) else None


def orientation(viewer: Viewer) -> Any:
    """The 2-D camera's axis orientation, where napari has one (≥ 0.5), else None."""
    return getattr(camera(viewer), "orientation2d", None)


def physics_up(viewer: Viewer, changes: Changes | None = None) -> None:
    """Draw +y upwards, as optics does (edge "N" on top); napari's default puts rows downwards."""
    if orientation(viewer) is not None:
        set_attributes(camera(viewer), changes, orientation2d=("up", "right"))
