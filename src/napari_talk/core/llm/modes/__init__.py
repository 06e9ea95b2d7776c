"""The road's modes, one module each; ``settings.mode`` names one of :data:`STRATEGIES`. A new mode
is a module with a :class:`.base.Strategy` subclass, one line here, and its name in
``settings.Mode``."""

from __future__ import annotations

from .base import Strategy
from .canonical import CanonicalMode
from .json import JsonMode
from .schema import SchemaMode
from .steps import StepsMode
from .tools import ToolsMode

STRATEGIES: dict[str, Strategy] = {
    strategy.name: strategy
    for strategy in (ToolsMode(), JsonMode(), SchemaMode(), StepsMode(), CanonicalMode())
}

__all__ = ["STRATEGIES", "Strategy"]
