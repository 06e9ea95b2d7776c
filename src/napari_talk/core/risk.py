"""The one risk policy: what a command can cost the person, and who must agree before it runs.

Every door uses it: the session for the LLM road, the dock, the agent functions and the MCP
server. A command's class names its usual risk; a pack raises it where the parameters and the
state it meets make it costlier (a screenshot over an existing file, an undo that rewrites a file).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Risk = Literal["read", "view", "data", "send"]
"""``read``: only reads. ``view``: changes what is shown, or adds something new; nothing of the
person's is lost. ``data``: changes or removes the person's data (files, the catalogue, layers).
``send``: sends data or credentials somewhere new (sets an endpoint later requests go to)."""

RISKS: tuple[Risk, ...] = ("read", "view", "data", "send")

Origin = Literal["person", "model", "agent"]
"""Who asked: the person typing, a language model's reply, or an agent (function call, MCP)."""


def at_least(risk: Risk, floor: Risk) -> bool:
    return RISKS.index(risk) >= RISKS.index(floor)


def riskiest(risks: list[Risk]) -> Risk:
    return max(risks, key=RISKS.index, default="read")


@dataclass(frozen=True)
class RiskPolicy:
    """Who must agree to what: the person's own lines run; a model or an agent asking to change or
    remove data waits for the person (unless the person has said "run them without asking");
    sending anything somewhere new always waits."""

    trust_with_data: bool = False

    def needs_person(self, risk: Risk, origin: Origin) -> bool:
        if origin == "person" or not at_least(risk, "data"):
            return False
        return risk == "send" or not self.trust_with_data

    @staticmethod
    def hints(risk: Risk) -> dict[str, bool]:
        """MCP tool annotations for a command's usual risk."""
        return {
            "read_only_hint": risk == "read",
            "destructive_hint": at_least(risk, "data"),
            "open_world_hint": risk == "send",
        }
