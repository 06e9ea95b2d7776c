"""What the rays pack keeps for a session: the scene shown, its trace, and the agent context."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .agent import AgentContext
    from .scene import Scene
    from .simulation import SimulationResult


def _agent_context() -> AgentContext:
    from .agent import AgentContext  # numpy and the analysis modules: not at the pack's import

    return AgentContext()


@dataclass(frozen=True)
class RaysState:
    scene: Scene
    result: SimulationResult
    glass_layer: Any = None
    """The viewer's glasses layer this scene was drawn into or read from."""
    color_by: str = "brightness"


@dataclass
class RaysPackState:
    current: RaysState | None = None
    agent: AgentContext = field(default_factory=_agent_context)
    """The same scene, as seed 001's agent tools read it (``set_context`` / ``get_context``)."""
