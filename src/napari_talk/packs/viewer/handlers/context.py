"""What the viewer pack tells the grammar and the model about the viewer: its names (layers,
panels) and a few lines describing its state."""

from __future__ import annotations

from ....core.basics.window import panels_of
from ....core.contract.pack import Context
from ....core.viewer.access import camera_facts, layer_facts


def known_names(ctx: Context[None]) -> dict[str, list[str]]:
    viewer = ctx.viewer
    if viewer is None:
        return {}
    names = {"layers": [layer.name for layer in viewer.layers]}
    if ctx.window is not None:  # without a window the grammar's default panel names stay
        names["panels"] = list(panels_of(ctx.window))
    return names


def describe_context(ctx: Context[None]) -> list[str]:
    viewer = ctx.viewer
    if viewer is None:
        return []
    layers = list(viewer.layers)[::-1]
    lines = ["Layers, top first: " + (", ".join(layer_facts(layer) for layer in layers) or "none")]
    active = viewer.layers.selection.active
    if active is not None:
        lines.append(f"Selected layer: {active.name}")
    if ctx.window is not None:
        lines.append("Panels: " + ", ".join(panels_of(ctx.window)))
    dims = viewer.dims
    sliders = [
        f"{dims.axis_labels[axis]} (0-{int(dims.nsteps[axis]) - 1}, at {dims.current_step[axis]})"
        for axis in dims.not_displayed
    ]
    lines.append(f"Display: {dims.ndisplay}-D" + (f"; sliders: {', '.join(sliders)}" if sliders else ""))
    lines.append(camera_facts(viewer))
    return lines
