"""What the simulator asks of a scene object, written down as typing Protocols.

Every object the simulator traces (glasses, mirrors, blockers, sources, detectors, the light
sources of the pack's own model) is handed to :func:`.simulator.simulate` in a list and used only
through :class:`SceneObject`'s members. The classes live in :mod:`.scene_objs`, one ray-optics type
per module, grouped by family as ray-optics groups them; all derive from :class:`.base.SceneObj`
(ray-optics' ``BaseSceneObj``), and the checks at the end of this module make mypy hold the shared
bases to the contracts' signatures (``SceneObj`` reads the JSON properties through
``__getattr__``, so mypy takes any member as present: ``tests/rays/test_rayoptics_contract.py``
checks that every class of :mod:`.registry` defines each member):

- :class:`SceneObject`: every object (``SceneObj``).
- :class:`MergingGlass`: a body of refractive index (``scene_objs/base_glass.BaseGlass``, and so
  every glass and GRIN glass), as the objects met at the same point use it: a glass refracting
  there (``BaseGlass.refract``) or a custom surface (``BaseCustomSurface.out_rays``) multiplies or
  divides by its index where the ray leaves or enters it, and tells it so.
- :class:`LightSource`: a source (``scene_objs/light_source/base_light_source.BaseLightSource``),
  whose emission the loader estimates before tracing (:func:`.loader.check_emission`).

The vector stage (``vector.py``) and the compiled kernels read a few classes' own geometry
(a glass's ``edges``, ``refIndex``...) beside it: those classes are named where it does.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from .base import Emitted, Incident, Point, Ray, SceneObj, Settings, Shape
from .scene_objs.base_glass import BaseGlass
from .scene_objs.light_source.base_light_source import BaseLightSource


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


class MergingGlass(SceneObject, Protocol):
    """A body of refractive index, as the other objects met at the same point use it."""

    def incident_type(self, ray: Ray) -> float:
        """Where ``ray`` meets its surface: leaving it (1), entering it (-1), along a doubled
        surface (0), or NaN when that is undefined (a corner)."""
        ...

    def ref_index_at(self, point: Point, ray: Ray) -> float:
        """Its refractive index at ``point`` for ``ray``'s wavelength (Cauchy's dispersion when the
        scene simulates colours; a GRIN glass's formula)."""
        ...

    def on_enter(self, ray: Ray) -> None:
        """A merged surface let ``ray`` into this body (a GRIN glass adds itself to the ray's)."""
        ...

    def on_exit(self, ray: Ray) -> None:
        """A merged surface let ``ray`` out of this body."""
        ...


class LightSource(SceneObject, Protocol):
    """A source: it emits rays when the simulation starts (:meth:`SceneObject.start`)."""

    def ray_estimate(self) -> float:
        """About how many rays it emits, checked against the limit before any is emitted."""
        ...


def _implements(obj: SceneObj) -> SceneObject:
    """Never called: mypy checks here that :class:`.base.SceneObj` keeps the contract."""
    return obj


def _implements_glass(glass: BaseGlass) -> MergingGlass:
    """Never called: mypy checks here that every glass keeps the merging contract."""
    return glass


def _implements_source(source: BaseLightSource) -> LightSource:
    """Never called: mypy checks here that every light source keeps the source contract."""
    return source
