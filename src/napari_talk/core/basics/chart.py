"""Small charts for replies, drawn with numpy and written as PNG (no plotting or GUI package):
a pack puts one in ``Result.meta["chart"]`` and the dock shows it above the reply's table."""

from __future__ import annotations

import base64
from collections.abc import Sequence

import numpy as np

from .png import encode_png

WIDTH, HEIGHT = 240, 72
"""Narrower than the dock at its default width: a chart never makes the transcript scroll sideways."""
BACKGROUND = (38, 41, 48)
AXIS = (120, 126, 138)
BAR = (255, 217, 64)


def _rgb(colour: str | Sequence[float]) -> tuple[int, int, int]:
    if isinstance(colour, str):
        text = colour.lstrip("#")
        return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    r, g, b = (float(v) for v in list(colour)[:3])
    return round(r * 255), round(g * 255), round(b * 255)


def bars(
    values: Sequence[float],
    colours: Sequence[str | Sequence[float]] | None = None,
    *,
    width: int = WIDTH,
    height: int = HEIGHT,
    filled: bool = False,
) -> str:
    """A bar chart of ``values`` (from zero up to the largest) as a ``data:image/png`` URL; with
    ``filled`` the bars touch, for a profile (a detector's irradiance along its length)."""
    data = np.nan_to_num(np.asarray(values, dtype=float), nan=0.0, posinf=0.0, neginf=0.0).clip(min=0)
    image = np.empty((height, width, 3), np.uint8)
    image[:] = BACKGROUND
    image[-1, :] = AXIS
    count = len(data)
    top = float(data.max()) if count else 0.0
    if count and top > 0:
        step = width / count
        gap = 0 if filled or step < 4 else max(1, int(step * 0.2))
        for index, value in enumerate(data.tolist()):
            left = round(index * step)
            right = max(left + 1, round((index + 1) * step) - gap)
            rise = round((height - 2) * value / top)
            colour = _rgb(colours[index]) if colours is not None else BAR
            image[height - 1 - rise : height - 1, left:right] = colour
    return "data:image/png;base64," + base64.b64encode(encode_png(image)).decode()


def chart(
    values: Sequence[float],
    caption: str,
    colours: Sequence[str | Sequence[float]] | None = None,
    *,
    filled: bool = False,
) -> dict[str, str]:
    """What a result carries in ``meta["chart"]``: the picture and a line saying what it shows."""
    return {"image": bars(values, colours, filled=filled), "caption": caption}
