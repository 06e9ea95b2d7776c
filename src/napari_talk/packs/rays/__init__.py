"""The rays pack: 2-D ray-optics scenes, a vectorized tracer, its analysis and agent tools.

Domain modules (no napari, no Qt): ``scene`` (data model), ``scene_json`` (ray-optics JSON v5),
``fresnel``, ``tracer``, ``simulation`` (segments, lineage), ``edges``, ``analysis`` (queries),
``lineage`` (paths, energy), ``xml``, ``agent`` (seed 001's context and ``_xml`` tools),
``samples`` and ``display`` (layer-data tuples). ``handlers`` joins them to a session and a viewer.
"""

from ...pack import Pack
from .commands import COMMANDS
from .grammar import RULES

PACK = Pack(name="rays", commands=COMMANDS, rules=RULES, handlers_module=f"{__name__}.handlers")
