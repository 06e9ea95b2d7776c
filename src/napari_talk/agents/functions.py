"""Commands as plain Python tool functions for agent frameworks.

Each function takes only JSON-serializable keyword arguments, runs its command on a session
(which holds the live objects: a viewer, a scene, a catalogue) and returns a string: the pack's
own format where it has one (XML for the rays pack), else the Result as JSON. Signatures carry
``Annotated[type, "description"]`` and docstrings an ``Args:`` section, so frameworks that build
schemas from functions (claudette, lisette, LangChain's StructuredTool) need no glue.
"""

from __future__ import annotations

import inspect
import json
import types
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import ValidationError

from .exports import from_tool_arguments

if TYPE_CHECKING:
    from ..core.basics.commands import Command
    from ..core.basics.result import Result
    from ..core.running.session import Session
    from ..core.safety.risk import Approval

Within = Callable[[Callable[[], "Result"]], "Result"]
Ask = Callable[["Approval"], bool]


def get_agentic_tools(
    session: Session | None = None,
    *,
    packs: Iterable[str] | None = None,
    within: Within | None = None,
    ask: Ask | None = None,
) -> list[dict[str, Any]]:
    """``[{name, function, description, parameters}]`` for every command (or those of ``packs``).

    Each call runs as an agent's through the session, judged by what it would do as it runs
    (:mod:`napari_talk.core.safety.risk`). ``ask`` is put what the person must agree to (replacing their
    file, sending to a host they did not configure); without it, or when they say no, the tool
    answers a structured refusal (``meta["error"] == "needs_approval"``, ``meta["approval"]``
    saying what and why) that the agent can show its person. ``within(work)`` calls ``work``
    where the live objects are (default: in the caller's thread).
    """
    from ..core.running.session import Session

    session = session if session is not None else Session()
    registry = session.registry
    chosen = set(packs) if packs is not None else None
    tools = []
    for pack in registry.packs:
        if chosen is not None and pack.name not in chosen:
            continue
        for cls in pack.commands:
            action = cls.action_name()
            tools.append(
                {
                    "name": action,
                    "function": _tool_function(session, cls, pack, within, ask),
                    "description": cls.description(),
                    "parameters": registry.schema(action),
                }
            )
    return tools


def result_text(pack: Any, command: Command, result: Result) -> str:
    """What an agent reads: the pack's own format if it has one, else the Result as JSON."""
    text = pack.format_for_agent(command, result)
    return text if text is not None else json.dumps(result.to_dict(), default=str)


def _tool_function(session: Session, cls: type[Command], pack: Any, within, ask) -> Callable[..., str]:
    action = cls.action_name()

    def tool(**arguments: Any) -> str:
        from ..core.basics.result import Result

        try:
            command = from_tool_arguments(session.registry, action, arguments)
        except ValidationError as exc:
            errors = "; ".join(f"{'.'.join(map(str, e['loc'][1:]))}: {e['msg']}" for e in exc.errors())
            return json.dumps(Result.error(f"invalid arguments for {action}: {errors}").to_dict())
        return result_text(pack, command, session.execute(command, origin="agent", ask=ask, within=within))

    parameters, doc_lines = [], []
    for name, field in cls.model_fields.items():
        if name == "action":
            continue
        annotation, note = _plain_annotation(field.annotation)
        description = " ".join(filter(None, [field.description or name, note]))
        default = inspect.Parameter.empty if field.is_required() else field.get_default()
        parameters.append(
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=Annotated[annotation, description],
                default=default,
            )
        )
        doc_lines.append(f"    {name}: {description}")
    tool.__name__ = tool.__qualname__ = action
    tool.__doc__ = cls.description() + ("\n\nArgs:\n" + "\n".join(doc_lines) if doc_lines else "")
    tool.__signature__ = inspect.Signature(parameters, return_annotation=str)  # type: ignore[attr-defined]
    tool.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": str}
    return tool


def _plain_annotation(annotation: Any) -> tuple[Any, str]:
    """Literals become their base type with the choices in words, which every framework reads."""
    origin = get_origin(annotation)
    if origin is Literal:
        values = get_args(annotation)
        kind = type(values[0])
        return kind, "One of: " + ", ".join(map(str, values)) + "."
    if origin in (Union, types.UnionType):
        parts = [_plain_annotation(a) for a in get_args(annotation)]
        kinds = tuple(p[0] for p in parts)
        notes = " ".join(p[1] for p in parts if p[1])
        return (Union[kinds] if len(kinds) > 1 else kinds[0]), notes  # noqa: UP007
    if origin is Annotated:
        return _plain_annotation(get_args(annotation)[0])
    return annotation, ""
