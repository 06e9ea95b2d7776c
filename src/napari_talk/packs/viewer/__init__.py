"""The viewer pack: a napari viewer's camera, layers, panels, dims and overlays."""

from ...pack import Pack
from .commands import COMMANDS
from .grammar import BUILTIN_PANELS, RULES

PACK = Pack(
    name="viewer",
    commands=COMMANDS,
    rules=RULES,
    handlers_module=f"{__name__}.handlers",
    context_defaults={"panels": BUILTIN_PANELS},
)
