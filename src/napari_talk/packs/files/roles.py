"""Agent roles and what each may call (the TextCraft tools' "Allowed Services"), as one wrapper.

A :class:`RoleGate` is the command set seen by one role: its tool list for an LLM or an MCP
server, and an ``execute`` that refuses any command outside the role before the session runs
it. Handlers know nothing of roles.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from .envelope import envelope
from .errors import FilesError

if TYPE_CHECKING:
    from ...core.basics.commands import Command
    from ...core.basics.result import Result
    from ...core.contract.registry import Registry
    from ...core.running.session import Session

ROLES: dict[str, frozenset[str]] = {
    "architect": frozenset(
        {"read_file", "write_file", "list_files", "search_code", "assign_task", "list_tasks"}
    ),
    "narrator": frozenset({"read_file", "write_file", "list_tasks"}),
    "editor": frozenset({"read_file", "edit_file", "list_files", "search_code", "list_tasks"}),
}
"""read_file: all; write_file: architect, narrator; edit_file: editor; list_files and
search_code: architect, editor; assign_task: architect. list_tasks (not in the seed) is read-only
and lets every role find the work assigned to it."""


def role_name(name: str) -> str:
    """``The Narrator service`` → ``narrator``; an unknown role is an error listing the roles."""
    words = name.casefold().split()
    if words[:1] == ["the"]:
        words = words[1:]
    if words[-1:] and words[-1] in ("service", "agent", "role"):
        words = words[:-1]
    key = " ".join(words)
    if key not in ROLES:
        raise FilesError(f"unknown role {name!r}; the roles are: {', '.join(sorted(ROLES))}", "UnknownRole")
    return key


class RoleGate:
    """The commands one role may call, and the only door through which it calls them."""

    def __init__(self, role: str, registry: Registry | None = None) -> None:
        from ...core.contract.registry import default_registry

        self.role = role_name(role)
        self.registry = registry or default_registry()
        self.allowed = ROLES[self.role]

    @property
    def commands(self) -> dict[str, type[Command]]:
        return {a: c for a, c in self.registry.commands.items() if a in self.allowed}

    def tools(self) -> list[dict[str, Any]]:
        """OpenAI-style function tools for this role (MCP servers take name, description, schema)."""
        return [
            {
                "type": "function",
                "function": {
                    "name": action,
                    "description": cls.description(),
                    "parameters": self.registry.schema(action),
                },
            }
            for action, cls in self.commands.items()
        ]

    def permit(self, command: Command | Mapping[str, Any]) -> Command:
        """The validated command, if this role may call it; raises otherwise."""
        action = command.get("action") if isinstance(command, Mapping) else command.action
        if action not in self.allowed:
            allowed = ", ".join(sorted(self.commands))
            raise FilesError(
                f"the {self.role} may not call {action!r}; it may call: {allowed}", "PermissionDenied"
            )
        if isinstance(command, Mapping):
            return self.registry.validate(dict(command))
        return command

    def execute(self, session: Session, command: Command | Mapping[str, Any]) -> Result:
        """Run the command for this role through ``session``; never raises."""
        from ...core.basics.result import Result

        try:
            permitted = self.permit(command)
        except FilesError as exc:
            return Result.error(str(exc), str(exc), error=exc.kind, role=self.role)
        except ValidationError as exc:
            message = f"invalid command: {exc.errors()[0]['msg']}"
            return Result.error(message, message, error="InvalidCommand", role=self.role)
        return session.execute(permitted)

    def call(self, session: Session, name: str, arguments: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """A tool call as an LLM or an MCP client makes it, answered in the seed's envelope."""
        return envelope(self.execute(session, {**(arguments or {}), "action": name}))
