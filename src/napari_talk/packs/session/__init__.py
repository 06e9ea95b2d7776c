"""The session pack: help and the shared undo history; its target is the session itself."""

from ...pack import Pack
from .commands import COMMANDS
from .grammar import RULES

PACK = Pack(
    name="session",
    commands=COMMANDS,
    rules=RULES,
    handlers_module=f"{__name__}.handlers",
)
