"""What packs may ask of a napari viewer and its layers, as typing protocols.

Packs and the core never import napari: they are typed against these protocols, and mypy checks
pack code against them. napari's ``Viewer``, its ``ViewerModel`` and the ``PublicOnlyProxy`` a
plugin's dock receives all answer them (a test walks every attribute named here on a real viewer
and on its proxy). Only what packs use is declared; a pack that needs more adds it here first.

The camera, grid and canvas overlays moved in napari 0.9 (under ``viewer.scene`` and
``viewer.canvas``); they are reached through :mod:`napari_talk.core.viewer.access`
(``camera(viewer)``, ``grid(viewer)``, ``scale_bar(viewer)``, ``text_overlay(viewer)``), which
answer :class:`Camera`, :class:`Grid` and :class:`Overlay` on every supported version.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, overload, runtime_checkable

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike


@runtime_checkable
class Layer(Protocol):
    """What every layer kind has. ``data`` is the kind's own (an array for an image, a list of
    arrays for shapes, a (vertices, faces, values) tuple for a surface)."""

    name: str
    visible: bool
    opacity: float
    blending: str
    metadata: dict[str, Any]
    data: Any
    events: Any
    """napari's event group (``layer.events.data.connect(...)``)."""

    @property
    def ndim(self) -> int: ...

    @property
    def extent(self) -> Any:
        """World and data bounds: ``extent.world`` is (lows, highs), ``extent.step`` the pixel size."""
        ...

    @property
    def scale(self) -> np.ndarray: ...
    @scale.setter
    def scale(self, value: ArrayLike) -> None: ...

    @property
    def translate(self) -> np.ndarray: ...
    @translate.setter
    def translate(self, value: ArrayLike) -> None: ...

    def world_to_data(self, position: ArrayLike) -> Any: ...

    def refresh(self) -> None: ...


@runtime_checkable
class Colormap(Protocol):
    name: str

    def map(self, values: ArrayLike) -> np.ndarray: ...


@runtime_checkable
class ImageLayer(Layer, Protocol):
    """An image (``viewer.add_image``); a surface shares its colour attributes."""

    colormap: Colormap
    contrast_limits: Any
    """(low, high); set with a pair, read back as a list."""
    contrast_limits_range: Any
    gamma: float
    rgb: bool
    multiscale: bool

    def reset_contrast_limits(self) -> None: ...


@runtime_checkable
class SurfaceLayer(Layer, Protocol):
    colormap: Colormap
    contrast_limits: Any
    shading: Any


@runtime_checkable
class PointsLayer(Layer, Protocol):
    features: Any
    """A pandas DataFrame, one row per point."""
    size: Any
    face_color: Any


@runtime_checkable
class ShapesLayer(Layer, Protocol):
    features: Any
    shape_type: list[str]
    edge_color: Any
    edge_width: Any
    face_color: Any


@runtime_checkable
class VectorsLayer(Layer, Protocol):
    edge_color: Any
    edge_width: float


@runtime_checkable
class LabelsLayer(Layer, Protocol):
    selected_label: int


@runtime_checkable
class Emitter(Protocol):
    def connect(self, callback: Any) -> Any: ...


@runtime_checkable
class Selection(Protocol):
    """The layers selected in the layer list; ``active`` is the one the layer controls show."""

    active: Layer | None
    events: Any

    def __iter__(self) -> Iterator[Layer]: ...

    def __len__(self) -> int: ...

    def clear(self) -> None: ...

    def add(self, layer: Layer) -> None: ...

    def update(self, layers: Any) -> None: ...


@runtime_checkable
class LayerList(Protocol):
    """The viewer's layers, bottom first; looked up by position or by name."""

    selection: Selection
    events: Any
    """``events.inserted`` / ``events.removed`` carry the layer as ``event.value``."""

    def __iter__(self) -> Iterator[Layer]: ...

    def __len__(self) -> int: ...

    def __contains__(self, item: object) -> bool: ...

    @overload
    def __getitem__(self, key: int | str) -> Layer: ...
    @overload
    def __getitem__(self, key: slice) -> Any: ...

    def append(self, layer: Layer) -> None: ...

    def insert(self, index: int, layer: Layer) -> None: ...

    def remove(self, layer: Layer | str) -> None: ...

    def pop(self, index: int = -1) -> Layer: ...

    def move(self, src_index: int, dest_index: int = 0) -> None: ...

    def index(self, layer: Layer | str) -> int: ...


@runtime_checkable
class Dims(Protocol):
    ndisplay: int
    axis_labels: Sequence[str]

    @property
    def ndim(self) -> int: ...

    @property
    def displayed(self) -> tuple[int, ...]: ...

    @property
    def not_displayed(self) -> tuple[int, ...]: ...

    @property
    def point(self) -> tuple[float, ...]: ...

    @property
    def current_step(self) -> tuple[int, ...]: ...
    @current_step.setter
    def current_step(self, value: Sequence[int]) -> None: ...

    @property
    def nsteps(self) -> tuple[int, ...]: ...

    def set_current_step(self, axis: int, value: int) -> None: ...


@runtime_checkable
class Camera(Protocol):
    """Where the view looks: ``center`` is (row, col) in 2-D, (plane, row, col) in 3-D."""

    zoom: float

    @property
    def center(self) -> tuple[float, ...]: ...
    @center.setter
    def center(self, value: Sequence[float]) -> None: ...

    @property
    def angles(self) -> tuple[float, float, float]: ...
    @angles.setter
    def angles(self, value: Sequence[float]) -> None: ...

    orientation2d: Any
    """Which way the 2-D axes point (``("up", "right")``); napari ≥ 0.5."""

    @property
    def view_direction(self) -> tuple[float, float, float]: ...

    @property
    def up_direction(self) -> tuple[float, float, float]: ...

    def set_view_direction(
        self, view_direction: Sequence[float], up_direction: Sequence[float] | None = None
    ) -> None: ...


@runtime_checkable
class Grid(Protocol):
    enabled: bool


@runtime_checkable
class Overlay(Protocol):
    """A canvas overlay: the scale bar, the text overlay."""

    visible: bool


@runtime_checkable
class TextOverlay(Overlay, Protocol):
    text: str


@runtime_checkable
class Viewer(Protocol):
    """A napari viewer as packs may use it (a ``ViewerModel`` suffices: no window is asked for)."""

    layers: LayerList
    dims: Dims
    status: Any
    """The status bar's text (a dict of fields in newer napari)."""
    mouse_drag_callbacks: list[Any]

    def add_image(self, data: Any = None, **kwargs: Any) -> ImageLayer: ...

    def add_points(self, data: Any = None, **kwargs: Any) -> PointsLayer: ...

    def add_shapes(self, data: Any = None, **kwargs: Any) -> ShapesLayer: ...

    def add_surface(self, data: Any, **kwargs: Any) -> SurfaceLayer: ...

    def add_labels(self, data: Any, **kwargs: Any) -> LabelsLayer: ...

    def add_vectors(self, data: Any = None, **kwargs: Any) -> VectorsLayer: ...

    def screenshot(
        self, path: str | None = None, *, size: Any = None, canvas_only: bool = True
    ) -> np.ndarray: ...

    def reset_view(self) -> None: ...
