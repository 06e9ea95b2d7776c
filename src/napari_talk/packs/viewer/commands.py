"""The viewer pack's commands: camera, layers, panels, dims and overlays of a napari viewer.

Points and boxes are world coordinates ``[x, y]`` (x = column, y = row); handlers convert to
napari's (row, column) order.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from ...core.basics.commands import MAX_NAME_CHARS, Command, NonBlank, Risk, names

LayerName = Annotated[
    NonBlank, Field(max_length=MAX_NAME_CHARS, description="Layer name.", json_schema_extra=names("layers"))
]
Point = Annotated[list[float], Field(min_length=2, max_length=2, description="[x, y] in world units.")]


class LayerVisibility(Command, action="layer_visibility"):
    """Show, hide or toggle a layer."""

    name: LayerName
    op: Literal["show", "hide", "toggle"] = Field(description="The visibility change.")
    examples: ClassVar = ("hide nuclei", "show 'cell boundaries'", "toggle spots")


class PanelToggle(Command, action="panel_toggle"):
    """Open or close a panel: napari's "layer list", "layer controls", "console", or a dock widget."""

    name: str = Field(min_length=1, description="Panel title.", json_schema_extra=names("panels"))
    op: Literal["open", "close"] = Field(description="Open or close.")
    examples: ClassVar = ("open the console", "close layer list")


class ZoomBox(Command, action="zoom_box"):
    """Frame a world rectangle, as napari frames data."""

    box: list[float] = Field(min_length=4, max_length=4, description="[x1, y1, x2, y2], any two corners.")
    examples: ClassVar = ("zoom box 0 0 64 64", "zoom to region (20, 30) - (80, 90)")

    @model_validator(mode="after")
    def _has_area(self) -> ZoomBox:
        x1, y1, x2, y2 = self.box
        if x1 == x2 or y1 == y2:
            raise ValueError("the box needs a width and a height")
        return self


class CenterOn(Command, action="center_on"):
    """Center the view on a point."""

    point: Point
    examples: ClassVar = ("center on 120, 80", "center at x=5 y=9")


class SetZoom(Command, action="set_zoom"):
    """Set the zoom (screen pixels per world unit)."""

    zoom: float = Field(ge=0.01, description="Zoom; 300% is 3.")
    examples: ClassVar = ("zoom to 2.5", "set zoom 300%")


class FitToLayer(Command, action="fit_to_layer"):
    """Frame one layer (on the displayed axes)."""

    name: LayerName
    examples: ClassVar = ("fit to nuclei", "zoom to fit GFP")


class ListLayers(Command, action="list_layers"):
    """List the layers with type and visibility."""

    risk: ClassVar[Risk] = "read"
    examples: ClassVar = ("list layers", "what layers are there?")


class ZoomBy(Command, action="zoom_by"):
    """Multiply the zoom: "zoom in" is 2, "zoom out" 0.5."""

    factor: float = Field(gt=0, description="Multiplier; below 1 zooms out.")
    examples: ClassVar = ("zoom in", "zoom out 2x", "zoom in by 1.5")


class ResetView(Command, action="reset_view"):
    """Fit all layers in view."""

    examples: ClassVar = ("reset the view", "fit all")


class LayerOpacity(Command, action="layer_opacity"):
    """Set a layer's opacity."""

    name: LayerName
    opacity: float = Field(ge=0, le=1, description="0 to 1; 30% is 0.3.")
    examples: ClassVar = ("set opacity of actin to 0.7", "GFP opacity 30%")


class LayerColormap(Command, action="layer_colormap"):
    """Set an image layer's colormap."""

    name: LayerName
    colormap: str = Field(min_length=1, description="napari colormap: gray, green, magma, ...")
    examples: ClassVar = ("colormap GFP green", "make nuclei magma")


class LayerContrast(Command, action="layer_contrast"):
    """Set an image layer's contrast limits."""

    name: LayerName
    limits: list[float] = Field(min_length=2, max_length=2, description="[low, high].")
    examples: ClassVar = ("contrast limits GFP 0 4000", "set contrast of actin to 100-2000")

    @model_validator(mode="after")
    def _ordered(self) -> LayerContrast:
        if not self.limits[0] < self.limits[1]:
            raise ValueError("the low contrast limit must be below the high one")
        return self


class AutoContrast(Command, action="auto_contrast"):
    """Set an image layer's contrast limits from its data."""

    name: LayerName
    examples: ClassVar = ("auto contrast actin",)


class SoloLayer(Command, action="solo_layer"):
    """Show only this layer."""

    name: LayerName
    examples: ClassVar = ("show only spots", "solo nuclei")
    joined_as: ClassVar = "show"


class AllLayersVisibility(Command, action="all_layers_visibility"):
    """Show or hide every layer."""

    op: Literal["show", "hide"] = Field(description="Show or hide.")
    examples: ClassVar = ("hide all layers", "show everything")


class SelectLayer(Command, action="select_layer"):
    """Make a layer the active one."""

    name: LayerName
    examples: ClassVar = ("select Labels",)


class RemoveLayer(Command, action="remove_layer"):
    """Remove a layer (undo brings it back)."""

    risk: ClassVar[Risk] = "data"
    name: LayerName
    examples: ClassVar = ("delete spots", "remove the Labels layer")


class MoveLayer(Command, action="move_layer"):
    """Move a layer in the layer list: to the top (drawn in front) or bottom, one step up or down,
    just above or below another layer, or to an index (0 is the bottom)."""

    name: LayerName
    position: Literal["top", "bottom", "up", "down", "above", "below"] | Annotated[int, Field(ge=0)] = Field(
        description="'top', 'bottom', 'up', 'down', 'above' or 'below' (of relative_to), or an index from 0"
        " (the bottom of the layer list)."
    )
    relative_to: LayerName | None = Field(
        default=None, description="The layer it goes just above or below (with 'above' or 'below')."
    )
    examples: ClassVar = ("move GFP to the top", "put spots below nuclei", "move spots to position 1")

    @model_validator(mode="after")
    def _relative(self) -> MoveLayer:
        if (self.position in ("above", "below")) != (self.relative_to is not None):
            raise ValueError(
                "'above' and 'below' need relative_to, the layer to go next to; nothing else does"
            )
        return self


class RenameLayer(Command, action="rename_layer"):
    """Rename a layer."""

    name: LayerName
    new_name: NonBlank = Field(max_length=MAX_NAME_CHARS, description="New name.")
    examples: ClassVar = ("rename GFP to GFP raw",)


class SetNdisplay(Command, action="set_ndisplay"):
    """Show the data in 2-D or 3-D."""

    ndisplay: Literal[2, 3] = Field(description="2 or 3.")
    examples: ClassVar = ("3d", "switch to 2d view")


class SetSlice(Command, action="set_slice"):
    """Move a slider to an index, or to its first, middle or last step."""

    index: int | None = Field(default=None, ge=0, description="Index from 0.")
    position: Literal["first", "middle", "last"] | None = Field(
        default=None, description="Instead of an index: the slider's first, middle or last step."
    )
    axis: int | str | None = Field(
        default=None, description="Axis index or label; default: the first slider."
    )
    examples: ClassVar = ("slice 20", "go to slice 3 on axis 0", "the last slice")

    @model_validator(mode="after")
    def _one_place(self) -> SetSlice:
        if (self.index is None) == (self.position is None):
            raise ValueError("give exactly one of 'index' and 'position' (first, middle or last)")
        return self


class Screenshot(Command, action="screenshot"):
    """Save a PNG of the canvas in the workspace."""

    path: str | None = Field(
        default=None,
        min_length=1,
        description="Path in the workspace; auto-named if left out.",
    )
    examples: ClassVar = ("screenshot", "save a screenshot to figures/cells.png")


class GridMode(Command, action="grid_mode"):
    """Lay layers side by side in a grid, or overlay them."""

    op: Literal["on", "off", "toggle"] = Field(description="On, off or toggle.")
    examples: ClassVar = ("grid on", "toggle grid")


class ScaleBar(Command, action="scale_bar"):
    """Show, hide or toggle the scale bar."""

    op: Literal["show", "hide", "toggle"] = Field(description="Show, hide or toggle.")
    examples: ClassVar = ("scale bar on", "hide the scale bar")


class Pan(Command, action="pan"):
    """Move the view by a share of the visible field: "pan left" shows what lies to the left."""

    direction: Literal["left", "right", "up", "down"] = Field(description="Where to look.")
    fraction: float = Field(0.25, gt=0, le=10, description="Share of the visible field to move by.")
    examples: ClassVar = ("pan left", "pan up a lot")


class LayerGamma(Command, action="layer_gamma"):
    """Set an image layer's gamma (below 1 brightens the dark parts, above 1 darkens them)."""

    name: LayerName
    gamma: float = Field(gt=0, le=100, description="The gamma, > 0 (1 is linear).")
    examples: ClassVar = ("gamma GFP 0.5", "set the gamma of actin to 1.5")


class AdjustBrightness(Command, action="adjust_brightness"):
    """Make an image layer brighter or dimmer: its upper contrast limit is divided by factor."""

    name: LayerName
    factor: float = Field(
        gt=0, le=1000, description='Relative: "brighter" 1.5, "dimmer" 1/1.5, "twice as bright" 2.'
    )
    examples: ClassVar = ("brighter GFP", "make actin dimmer")


class AdjustContrast(Command, action="adjust_contrast"):
    """Raise or lower an image layer's contrast: its contrast window narrows around its centre by factor."""

    name: LayerName
    factor: float = Field(gt=0, le=1000, description='Relative: "more contrast" 1.5, "less contrast" 1/1.5.')
    examples: ClassVar = ("increase contrast on actin", "less contrast GFP")


class ViewFrom(Command, action="view_from"):
    """Look at the data from one side, in 3-D."""

    side: Literal["front", "back", "left", "right", "top", "bottom"] = Field(
        description="The side to look from."
    )
    examples: ClassVar = ("view from the top", "look from the left")


class RotateView(Command, action="rotate_view"):
    """Turn the 3-D camera by some degrees, about the screen's vertical or horizontal axis."""

    degrees: float = Field(ge=-3600, le=3600, description="Degrees to turn (positive: to the right / up).")
    axis: Literal["vertical", "horizontal"] = Field("vertical", description="The screen axis to turn about.")
    examples: ClassVar = ("rotate 90 degrees", "tilt the view 30 degrees")


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
    MoveLayer,
    SetNdisplay,
    SetSlice,
    Screenshot,
    GridMode,
    ScaleBar,
    Pan,
    LayerGamma,
    AdjustBrightness,
    AdjustContrast,
    ViewFrom,
    RotateView,
)
