"""Help text and "did you mean" suggestions, both made from the registered command models."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .registry import Registry

LLM_HINT = (
    "No language model is set up, so only the phrasings above are understood; "
    "docs/llm.md says how to connect one (OpenAI, Ollama, vLLM, llama.cpp, LM Studio)."
)


def render_help(registry: Registry, topic: str | None = None) -> str:
    commands = registry.commands
    if topic:
        words = topic.casefold().split()
        chosen = {
            action: cls
            for action, cls in commands.items()
            if any(w in f"{action} {cls.description()} {' '.join(cls.examples)}".casefold() for w in words)
        }
        if not chosen:
            return f"Nothing matches {topic!r}. " + render_help(registry)
        commands = chosen
    lines = [] if topic else ["Type what you want; for example:"]
    for action, cls in commands.items():
        examples = " · ".join(f'"{e}"' for e in cls.examples[:2]) or action
        lines.append(f"  {examples} — {cls.description()}")
    if not topic:
        lines.append('Join requests with "and" or "then". "help <word>" narrows this list.')
    return "\n".join(lines)


def suggest(registry: Registry, text: str, limit: int = 3) -> list[str]:
    """Examples of the commands nearest to what was typed."""
    examples = [e for cls in registry.commands.values() for e in cls.examples]
    lowered = text.casefold()
    scored = sorted(
        examples,
        key=lambda e: difflib.SequenceMatcher(None, lowered, e.casefold()).ratio(),
        reverse=True,
    )
    return scored[:limit]
