"""Reply charts: bars as tall as their values, written as a PNG any viewer reads."""

from __future__ import annotations

import base64
import struct
import zlib

import numpy as np

from napari_talk.core.basics import chart


def pixels(url: str) -> np.ndarray:
    data = base64.b64decode(url.removeprefix("data:image/png;base64,"))
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    start = data.index(b"IDAT") + 4
    (length,) = struct.unpack(">I", data[start - 8 : start - 4])
    rows = np.frombuffer(zlib.decompress(data[start : start + length]), np.uint8).reshape(height, -1)
    return rows[:, 1:].reshape(height, width, 3)


def test_bars_rise_to_their_values_in_order():
    image = pixels(chart.bars([1.0, 0.5, 0.0, 0.25], width=40, height=21))
    bar = np.array(chart.BAR)
    heights = [int((image[:-1, column] == bar).all(axis=1).sum()) for column in (2, 12, 22, 32)]
    assert heights == [19, 10, 0, 5]
    assert (image[0, 0] == chart.BACKGROUND).all()


def test_colours_per_bar_and_bad_values_draw_nothing():
    image = pixels(chart.bars([1.0, float("nan"), -3, 1.0], ["#ff0000", "#00ff00", "#0000ff", (0, 0, 1)]))
    assert (image[-2, 10] == (255, 0, 0)).all() and (image[-2, -25] == (0, 0, 255)).all()
    assert not (image[:-1] == (0, 255, 0)).all(axis=2).any()
    empty = pixels(chart.bars([]))
    assert (empty[:-1] == chart.BACKGROUND).all()


def test_a_result_chart_carries_its_caption():
    shown = chart.chart([3, 1], "energy of each path")
    assert shown["caption"] == "energy of each path" and shown["image"].startswith("data:image/png;base64,")
