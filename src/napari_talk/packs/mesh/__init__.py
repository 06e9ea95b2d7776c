"""The mesh pack: 3-D modelling by conversation on napari Surface layers (seed 000, CONJURE).

Primitives, segmentation, segment selection and isolation, PBR materials, glTF export, and
concept-to-model generation through a ComfyUI server. Domain modules are free of napari and Qt;
``handlers`` (imported on first use) drives the viewer through ``display``.
"""

from ...pack import Pack
from .commands import COMMANDS
from .grammar import RULES

PACK = Pack(
    name="mesh",
    commands=COMMANDS,
    rules=RULES,
    handlers_module=f"{__name__}.handlers",
)
