"""Handlers of the viewer pack, one module per family of commands; each runs one command on a
napari viewer and returns a Result:

- ``camera``: zoom (to a value, by a factor, to a box), centre, frame a layer, reset the view;
- ``adjust``: the relative changes: pan, rotate, view from a side, brightness, contrast, gamma;
- ``layers``: show, hide, solo, list, select, remove, move, rename layers;
- ``appearance``: an image layer's opacity, colormap and contrast limits;
- ``dims``: 2-D or 3-D, and which slice a slider shows;
- ``panels``: the window's panels, the grid and the scale bar;
- ``screenshot``: the canvas saved as a picture in the workspace;
- ``context``: the names and facts the grammar and the model are told about the viewer.

Commands speak world ``[x, y]``; napari speaks (row, col) = (y, x). Every handler that changes
the viewer hands back the function that undoes it.
"""

from __future__ import annotations

from . import adjust, appearance, camera, dims, layers, panels, screenshot  # noqa: F401  (each binds its handlers)
from .common import HANDLERS
from .context import describe_context, known_names
from .screenshot import screenshot_path

__all__ = ["HANDLERS", "describe_context", "known_names", "screenshot_path"]
