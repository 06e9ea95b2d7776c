"""What the simulator asks of a scene object, written down as a typing Protocol.

Every object the simulator traces (glasses, mirrors, blockers, sources, detectors, the light
sources of the pack's own model) is handed to :func:`.simulator.simulate` in a list and used only
through the members below; :class:`.base.SceneObj` is the implementation every class of this
package derives from, and the check at the end of this module makes mypy hold it to the contract.
The vector stage (``vector.py``) and the compiled kernels read a few classes' own geometry
(a glass's ``edges``, ``refIndex``...) beside it: those classes are named where it does.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from .base import Emitted, Incident, Point, Ray, SceneObj, Settings, Shape


class SceneObject(Protocol):
    """One optical object of a scene, as the simulator uses it."""

    type: ClassVar[str]
    """ray-optics' type name (``"Glass"``, ``"Blocker"``...): counted, and named in warnings."""
    optical: ClassVar[bool]
    """Whether rays can meet it (a decoration, never built here, would not)."""
    merges_with_glass: ClassVar[bool]
    """Whether, met at the same point as a glass's surface, it acts together with the glass
    (ray-optics' surface merging) rather than in its place."""
    is_glass: ClassVar[bool]
    """Whether it is a body of refractive index, whose surfaces merge with each other."""
    name: str
    """The name the scene gives it ('' if none): warnings name it by this, else by ``type``."""
    props: dict[str, Any]
    """Its JSON properties, every missing one at ray-optics' default."""
    settings: Settings
    """The scene-wide settings it was built with (shared by every object of the scene)."""

    def start(self) -> tuple[Emitted, float] | None:
        """The rays it emits when a simulation starts, and their brightness scale (ray-optics'
        ``brightnessScale``: 1 when the ray density is high enough, 0 for none); None: not a source."""
        ...

    def intersect(self, ray: Ray) -> Point | None:
        """Where ``ray`` first meets it, beyond the scene's shortest segment; None if it does not."""
        ...

    def hit_shape(self) -> Shape | None:
        """The segments and circles every point :meth:`intersect` returns lies on, for the
        vectorized search; None: the simulator tests every ray against it exactly."""
        ...

    def incident(self, ray: Ray, index: int, point: Point, merging: list[SceneObj]) -> Incident | None:
        """What it does to ``ray`` meeting it at ``point`` (``index``: its place in the scene's
        objects; ``merging``: the glasses whose surfaces meet there too): absorbs it, changes it
        in place, or adds new rays (ray-optics' ``SimulationReturn``: ``isAbsorbed``, ``newRays``,
        ``truncation``, ``isUndefinedBehavior``); None: the ray goes on as it was changed."""
        ...


def _implements(obj: SceneObj) -> SceneObject:
    """Never called: mypy checks here that :class:`.base.SceneObj` keeps the contract."""
    return obj
