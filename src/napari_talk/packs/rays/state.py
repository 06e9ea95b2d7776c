"""What the rays pack keeps for a session: the scene shown and its trace. Nothing else holds it:
the agent tools (as ray_tracing_shapely's) keep their own context, which a session never writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...core.basics.viewer_protocols import ShapesLayer
    from .scene import Scene
    from .simulation import SimulationResult


@dataclass(frozen=True)
class RaysState:
    scene: Scene
    result: SimulationResult
    glass_layer: ShapesLayer | None = None
    """The viewer's glasses layer this scene was drawn into or read from."""
    color_by: str = "brightness"


@dataclass
class RaysPackState:
    current: RaysState | None = None
