"""The viewer pack's commands: camera, layers, panels, dims and overlays of a napari viewer.

Points and boxes are world coordinates ``[x, y]`` (x = column, y = row); handlers convert to
napari's (row, column) order.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, StringConstraints, model_validator

from ...commands import Command, Risk

LayerName = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1),
    Field(description="Layer name: exact, case-insensitive, or a unique part of it."),
]
Point = Annotated[list[float], Field(min_length=2, max_length=2, description="[x, y] world coordinate.")]


class LayerVisibility(Command):
    """Show, hide or toggle one layer."""

    action: Literal["layer_visibility"] = "layer_visibility"
    name: LayerName
    op: Literal["show", "hide", "toggle"] = Field(description="What to do with its visibility.")
    examples: ClassVar = ("hide nuclei", "show 'cell boundaries'", "toggle spots")


class PanelToggle(Command):
    """Open or close a panel: "layer list", "layer controls", "console", or any dock widget."""

    action: Literal["panel_toggle"] = "panel_toggle"
    name: str = Field(min_length=1, description="Panel title (case-insensitive).")
    op: Literal["open", "close"] = Field(description="Open (show) or close (hide) the panel.")
    examples: ClassVar = ("open the console", "close layer list")


class ZoomBox(Command):
    """Frame a rectangle of world coordinates, as napari frames data."""

    action: Literal["zoom_box"] = "zoom_box"
    box: list[float] = Field(
        min_length=4, max_length=4, description="[x1, y1, x2, y2] world coordinates, any corners."
    )
    examples: ClassVar = ("zoom box 0 0 64 64", "zoom to region (20, 30) - (80, 90)")

    @model_validator(mode="after")
    def _has_area(self) -> ZoomBox:
        x1, y1, x2, y2 = self.box
        if x1 == x2 or y1 == y2:
            raise ValueError("the box needs a width and a height")
        return self


class CenterOn(Command):
    """Pan the camera so a point is in the middle of the canvas."""

    action: Literal["center_on"] = "center_on"
    point: Point
    examples: ClassVar = ("center on 120, 80", "center at x=5 y=9")


class SetZoom(Command):
    """Set the camera zoom (canvas pixels per world unit); "300%" means 3."""

    action: Literal["set_zoom"] = "set_zoom"
    zoom: float = Field(ge=0.01, description="Absolute zoom factor, at least 0.01.")
    examples: ClassVar = ("zoom to 2.5", "set zoom 300%")


class FitToLayer(Command):
    """Zoom and pan so one layer fills the view (on the displayed axes)."""

    action: Literal["fit_to_layer"] = "fit_to_layer"
    name: LayerName
    examples: ClassVar = ("fit to nuclei", "zoom to fit GFP")


class ListLayers(Command):
    """List the layers with their types and visibility."""

    action: Literal["list_layers"] = "list_layers"
    risk: ClassVar[Risk] = "read"
    examples: ClassVar = ("list layers", "what layers are there?")


class ZoomBy(Command):
    """Multiply the current zoom: "zoom in" is 2, "zoom out" is 0.5."""

    action: Literal["zoom_by"] = "zoom_by"
    factor: float = Field(gt=0, description="Factor to multiply the zoom by; < 1 zooms out.")
    examples: ClassVar = ("zoom in", "zoom out 2x", "zoom in by 1.5")


class ResetView(Command):
    """Fit all layers in the view."""

    action: Literal["reset_view"] = "reset_view"
    examples: ClassVar = ("reset the view", "fit all")


class LayerOpacity(Command):
    """Set a layer's opacity; "30%" means 0.3."""

    action: Literal["layer_opacity"] = "layer_opacity"
    name: LayerName
    opacity: float = Field(ge=0, le=1, description="Opacity from 0 (invisible) to 1 (opaque).")
    examples: ClassVar = ("set opacity of actin to 0.7", "GFP opacity 30%")


class LayerColormap(Command):
    """Change the colormap of an image layer."""

    action: Literal["layer_colormap"] = "layer_colormap"
    name: LayerName
    colormap: str = Field(
        min_length=1, description="A napari colormap name (gray, green, magma, viridis, ...)."
    )
    examples: ClassVar = ("colormap GFP green", "make nuclei magma")


class LayerContrast(Command):
    """Set the contrast limits of an image layer."""

    action: Literal["layer_contrast"] = "layer_contrast"
    name: LayerName
    limits: list[float] = Field(
        min_length=2, max_length=2, description="[low, high] contrast limits, low < high."
    )
    examples: ClassVar = ("contrast limits GFP 0 4000", "set contrast of actin to 100-2000")

    @model_validator(mode="after")
    def _ordered(self) -> LayerContrast:
        if not self.limits[0] < self.limits[1]:
            raise ValueError("the low contrast limit must be below the high one")
        return self


class AutoContrast(Command):
    """Set an image layer's contrast limits from the data it shows."""

    action: Literal["auto_contrast"] = "auto_contrast"
    name: LayerName
    examples: ClassVar = ("auto contrast actin",)


class SoloLayer(Command):
    """Show this layer and hide all others."""

    action: Literal["solo_layer"] = "solo_layer"
    name: LayerName
    examples: ClassVar = ("show only spots", "solo nuclei")


class AllLayersVisibility(Command):
    """Show or hide every layer."""

    action: Literal["all_layers_visibility"] = "all_layers_visibility"
    op: Literal["show", "hide"] = Field(description="Show or hide all layers.")
    examples: ClassVar = ("hide all layers", "show everything")


class SelectLayer(Command):
    """Make a layer the active (selected) one."""

    action: Literal["select_layer"] = "select_layer"
    name: LayerName
    examples: ClassVar = ("select Labels",)


class RemoveLayer(Command):
    """Remove a layer from the viewer (undo brings it back)."""

    action: Literal["remove_layer"] = "remove_layer"
    risk: ClassVar[Risk] = "destructive"
    name: LayerName
    examples: ClassVar = ("delete spots", "remove the Labels layer")


class RenameLayer(Command):
    """Rename a layer."""

    action: Literal["rename_layer"] = "rename_layer"
    name: LayerName
    new_name: str = Field(min_length=1, description="The new name (napari makes it unique if it is taken).")
    examples: ClassVar = ("rename GFP to GFP raw",)


class SetNdisplay(Command):
    """Show the data in 2-D or 3-D."""

    action: Literal["set_ndisplay"] = "set_ndisplay"
    ndisplay: Literal[2, 3] = Field(description="Number of displayed dimensions.")
    examples: ClassVar = ("3d", "switch to 2d view")


class SetSlice(Command):
    """Move a dimension slider to an index."""

    action: Literal["set_slice"] = "set_slice"
    index: int = Field(ge=0, description="Slice index, from 0.")
    axis: int | str | None = Field(
        default=None, description="Axis index or label; the first slider when left out."
    )
    examples: ClassVar = ("slice 20", "go to slice 3 on axis 0")


class Screenshot(Command):
    """Save a PNG of the canvas into the workspace."""

    action: Literal["screenshot"] = "screenshot"
    path: str | None = Field(
        default=None,
        min_length=1,
        description="File path relative to the workspace; auto-named when left out.",
    )
    examples: ClassVar = ("screenshot", "save a screenshot to figures/cells.png")


class GridMode(Command):
    """Lay the layers out side by side in a grid, or overlay them again."""

    action: Literal["grid_mode"] = "grid_mode"
    op: Literal["on", "off", "toggle"] = Field(description="Grid on, off, or toggle.")
    examples: ClassVar = ("grid on", "toggle grid")


class ScaleBar(Command):
    """Show, hide or toggle the scale bar."""

    action: Literal["scale_bar"] = "scale_bar"
    op: Literal["show", "hide", "toggle"] = Field(description="Show, hide or toggle it.")
    examples: ClassVar = ("scale bar on", "hide the scale bar")


COMMANDS: tuple[type[Command], ...] = (
    LayerVisibility,
    PanelToggle,
    ZoomBox,
    CenterOn,
    SetZoom,
    FitToLayer,
    ListLayers,
    ZoomBy,
    ResetView,
    LayerOpacity,
    LayerColormap,
    LayerContrast,
    AutoContrast,
    SoloLayer,
    AllLayersVisibility,
    SelectLayer,
    RemoveLayer,
    RenameLayer,
    SetNdisplay,
    SetSlice,
    Screenshot,
    GridMode,
    ScaleBar,
)
