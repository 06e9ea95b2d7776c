"""napari-talk: drive napari by typing what you want.

The public API is imported lazily so that ``import napari_talk`` stays fast and pulls in
neither napari, Qt nor an LLM client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .__about__ import __version__

if TYPE_CHECKING:
    from .agents import get_agentic_tools
    from .core.basics.commands import Command
    from .core.basics.result import Result
    from .core.contract.registry import Registry, default_registry
    from .core.grammar.parser import parse
    from .core.running.session import Session

_LAZY = {
    "get_agentic_tools": ".agents",
    "Command": ".core.basics.commands",
    "parse": ".core.grammar.parser",
    "Registry": ".core.contract.registry",
    "default_registry": ".core.contract.registry",
    "Result": ".core.basics.result",
    "Session": ".core.running.session",
}

__all__ = [
    "Command",
    "Registry",
    "Result",
    "Session",
    "__version__",
    "default_registry",
    "get_agentic_tools",
    "parse",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
