"""The files pack: a sandboxed workspace folder (read, write, edit, list, search, delegate)."""

from ...pack import Pack
from .commands import COMMANDS
from .grammar import RULES

PACK = Pack(
    name="files",
    commands=COMMANDS,
    rules=RULES,
    handlers_module=f"{__name__}.handlers",
)
