"""The sample catalogue: 56 entities in six domains, each with a small image drawn procedurally.

Nothing is downloaded and no image ships in the package: each entity's picture is computed from
its motif and palette (deterministic), so the sample costs a few kilobytes of text
(``sample_entities.jsonl``: the entities' fields, a motif and three colours each). Images
match their descriptions (gold for the golden guardians, black for the void walkers), so image
analysis and search agree on the sample.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import io
import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...core.basics.result import CommandError
from .catalogue import Entity
from .store import slug

if TYPE_CHECKING:
    from ...core.safety.workspace import Workspace

IMAGE_SIZE = 128


@dataclass(frozen=True)
class SampleEntity:
    name: str
    type: str
    domain: str
    class_name: str
    description: str
    sref: str
    motif: str
    palette: tuple[str, str, str]
    """Colours from dark to light of the image's gradient."""

    @property
    def prompt(self) -> str:
        """A Midjourney-style prompt, as a person who made the image would have written it."""
        sref = f" --sref {self.sref}" if self.sref else ""
        return (
            f"{self.name}, {self.class_name.lower()} of {self.domain}, {self.motif} motif, "
            f"{self.visual_notes}{sref} --v 6"
        )

    @property
    def visual_notes(self) -> str:
        """What the picture looks like, in words (its motif's shape, its palette's colours): what a
        search for "grid patterns" or "something red" finds."""
        colours = list(dict.fromkeys(colour_name(c) for c in self.palette))
        listed = ", ".join(colours[:-1]) + (" and " if len(colours) > 1 else "") + colours[-1]
        return f"{MOTIF_WORDS[self.motif]}, in {listed}"


MOTIF_WORDS = {
    "orb": "a round glowing orb of light in the middle",
    "rays": "rays of light bursting outwards from a bright centre",
    "rings": "concentric rings, circles within circles",
    "grid": "a grid pattern of crossing lines, a lattice",
    "stripes": "parallel stripes, straight bands",
    "spiral": "a spiral swirling out from the centre",
    "noise": "a grainy, cloudy noise texture like static",
    "glitch": "glitch art, bands of corrupted data shifted sideways",
    "void": "a thin ring around an empty dark void",
    "crystal": "faceted crystal shards, mirrored and symmetric",
    "waves": "wavy lines rippling like water",
    "cells": "round blobs like cells under a microscope",
}


def colour_name(colour: str) -> str:
    """A plain word for a ``#rrggbb`` colour: its lightness and its hue."""
    import colorsys

    hue, light, saturation = colorsys.rgb_to_hls(*(int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)))
    if light < 0.06:
        return "black"
    if light > 0.94:
        return "white"
    if saturation < 0.15 or (saturation < 0.25 and light < 0.3):
        return "dark grey" if light < 0.3 else "pale grey" if light > 0.7 else "grey"
    degrees = hue * 360
    names = ((15, "red"), (40, "orange"), (65, "gold"), (160, "green"), (195, "teal"), (255, "blue"))
    name = next((n for limit, n in names if degrees < limit), "purple" if degrees < 300 else "pink")
    if degrees >= 345:
        name = "red"
    if name in ("orange", "gold", "red") and (light < 0.3 or (saturation < 0.45 and light < 0.5)):
        name = "brown"
    if name == "red" and light > 0.7:
        name = "pink"
    if name == "purple" and degrees >= 280 and light > 0.6:
        name = "pink"
    return f"dark {name}" if light < 0.2 and name != "brown" else f"pale {name}" if light > 0.8 else name


DATA = Path(__file__).with_name("sample_entities.jsonl")


def _load() -> tuple[SampleEntity, ...]:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    return tuple(SampleEntity(**{**row, "palette": tuple(row["palette"])}) for row in rows)


ENTITIES: tuple[SampleEntity, ...] = _load()


# -- images --------------------------------------------------------------------------------------


def _hex(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)], np.float32) / 255


def _smooth(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    """Bilinear value noise in [0, 1]."""
    coarse = rng.random((cells + 1, cells + 1))
    axis = np.linspace(0, cells - 1e-6, size)
    i = axis.astype(int)
    f = axis - i
    rows = coarse[i] * (1 - f)[:, None] + coarse[i + 1] * f[:, None]
    return rows[:, i] * (1 - f)[None, :] + rows[:, i + 1] * f[None, :]


def _field(motif: str, rng: np.random.Generator, size: int) -> np.ndarray:
    """A scalar picture in [0, 1] for a motif."""
    yy, xx = np.mgrid[-1 : 1 : size * 1j, -1 : 1 : size * 1j]
    r, theta = np.hypot(xx, yy), np.arctan2(yy, xx)
    k = int(rng.integers(5, 11))
    if motif == "orb":
        return np.exp(-(r**2) / 0.18) + 0.08 * _smooth(rng, size, 6)
    if motif == "rays":
        return (0.5 + 0.5 * np.cos(k * theta)) * np.exp(-r / 0.9) * 0.7 + 0.3 * np.exp(-(r**2) / 0.05)
    if motif == "rings":
        return 0.5 + 0.5 * np.cos(r * (k + 6) * np.pi) * np.exp(-r / 1.5)
    if motif == "grid":
        lines = np.maximum(np.cos(xx * k * np.pi) ** 16, np.cos(yy * k * np.pi) ** 16)
        return 0.15 + 0.85 * lines * (0.6 + 0.4 * _smooth(rng, size, 4))
    if motif == "stripes":
        angle = rng.uniform(0, np.pi)
        return 0.5 + 0.5 * np.sin((xx * np.cos(angle) + yy * np.sin(angle)) * k * np.pi)
    if motif == "spiral":
        return 0.5 + 0.5 * np.sin(3 * theta + r * k * 2.5)
    if motif == "noise":
        return 0.55 * _smooth(rng, size, 8) + 0.3 * _smooth(rng, size, 24) + 0.15 * rng.random((size, size))
    if motif == "glitch":
        base = 1 - 0.6 * r
        for _ in range(14):
            row, height, shift = rng.integers(0, size), rng.integers(2, 10), rng.integers(-30, 30)
            band = np.roll(base[row : row + height], shift, axis=1)
            base[row : row + height] = band * rng.uniform(0.6, 1.1)
        return base
    if motif == "void":
        return np.exp(-((r - 0.75) ** 2) / 0.01) * 0.9 + 0.05 * _smooth(rng, size, 5)
    if motif == "crystal":
        points = rng.uniform(-1, 1, (10, 2))
        points = np.concatenate([points, points * [-1, 1]])  # mirrored facets: a symmetric picture
        distance = np.hypot(xx[..., None] - points[:, 0], yy[..., None] - points[:, 1])
        nearest = distance.argmin(-1)
        shade = rng.uniform(0.2, 1.0, len(points))
        shade[len(points) // 2 :] = shade[: len(points) // 2]
        edges = np.sort(distance, -1)
        return shade[nearest] * 0.85 + 0.15 * (edges[..., 1] - edges[..., 0] < 0.04)
    if motif == "waves":
        return 0.5 + 0.5 * np.sin(yy * k * np.pi + 1.5 * np.sin(xx * 3 * np.pi))
    if motif == "cells":
        picture = np.zeros((size, size))
        for _ in range(int(rng.integers(4, 9))):
            cy, cx = rng.uniform(-0.8, 0.8, 2)
            radius = rng.uniform(0.12, 0.3)
            picture += np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / radius**2) * rng.uniform(0.6, 1.0)
        return picture + 0.05 * rng.random((size, size))
    raise ValueError(f"unknown motif {motif!r}")


def render(entity: SampleEntity, size: int = IMAGE_SIZE) -> np.ndarray:
    """The entity's RGB picture (uint8, size × size × 3), the same on every run."""
    rng = np.random.default_rng(zlib.crc32(entity.name.encode()))
    field = _field(entity.motif, rng, size)
    low, high = np.percentile(field, [1, 99])
    t = np.clip((field - low) / max(high - low, 1e-6), 0, 1)[..., None]
    dark, mid, light = (_hex(c) for c in entity.palette)
    rgb = np.where(t < 0.5, dark + (mid - dark) * (t * 2), mid + (light - mid) * (t * 2 - 1))
    return (np.clip(rgb, 0, 1) * 255).round().astype(np.uint8)


def mosaic(columns: int = 8, size: int = 64) -> np.ndarray:
    """Every sample picture in a grid, for napari's sample-data menu."""
    rows = -(-len(ENTITIES) // columns)
    sheet = np.zeros((rows * size, columns * size, 3), np.uint8)
    for index, entity in enumerate(ENTITIES):
        r, c = divmod(index, columns)
        sheet[r * size : (r + 1) * size, c * size : (c + 1) * size] = render(entity, size)
    return sheet


SAMPLE_ROLE = "atlas-sample"


def fluorescence(size: int = 256, cells: int = 40) -> np.ndarray:
    """A GFP channel as a widefield microscope records it: glowing cells, brighter at their
    nuclei, on a dim, noisy background (uint16, deterministic)."""
    rng = np.random.default_rng(2)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    signal = np.zeros((size, size), np.float32)
    for y, x, radius, brightness in zip(
        rng.uniform(12, size - 12, cells),
        rng.uniform(12, size - 12, cells),
        rng.uniform(5, 11, cells),
        rng.uniform(0.4, 1.0, cells),
        strict=True,
    ):
        distance = ((yy - y) ** 2 + (xx - x) ** 2) / radius**2
        signal += brightness * (np.exp(-distance) + 0.6 * np.exp(-4 * distance))
    counts = 200 + 2600 * signal + rng.normal(0, 40, (size, size))
    return np.clip(counts, 0, 65535).astype(np.uint16)


def atlas_sample() -> list[tuple[np.ndarray, dict, str]]:
    """napari sample-data contribution: the sample catalogue's pictures as one RGB layer, and a
    GFP channel to analyse and add to the catalogue ("analyze the GFP layer").

    The mosaic is tagged, so the first atlas command in a session with an empty catalogue loads
    the sample catalogue into the workspace.
    """
    return [
        (
            mosaic(),
            {"name": "atlas sample", "rgb": True, "metadata": {"napari_talk": {"role": SAMPLE_ROLE}}},
            "image",
        ),
        (
            fluorescence(),
            {"name": "GFP", "colormap": "green", "blending": "additive", "visible": True},
            "image",
        ),
    ]


def _png(pixels: np.ndarray) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    return buffer.getvalue()


def materialize(workspace: Workspace, folder: str) -> list[tuple[Entity, bytes, str, bool]]:
    """Write every sample picture as a PNG under ``folder`` in the workspace: each entity (its
    ``image`` still to be set by the caller), its thumbnail, its file, and whether the file is new.

    A file already there is kept: used when it holds the very picture, else the sample's goes
    beside it under a free name (a person's file of the same name is never overwritten)."""
    made = []
    writes: list[tuple[str, bytes]] = []
    for sample, (data, thumbnail) in zip(ENTITIES, pictures(), strict=True):
        path, new = _place(workspace, folder, slug(sample.name), data)
        if new:
            if path in (planned for planned, _ in writes):  # two names with one slug: in turn
                _write_all(workspace, writes)
                writes = []
                path, new = _place(workspace, folder, slug(sample.name), data)
            writes.append((path, data))
        made.append((entity(sample), thumbnail, path, new))
    _write_all(workspace, writes)
    return made


WRITERS = 8
"""Pictures written at once. Each write waits on the disk (the gate syncs every file it writes),
not on the CPU: one after another, the 56 sample pictures took a second and more of the first
search on a busy machine."""


def _write_all(workspace: Workspace, writes: list[tuple[str, bytes]]) -> None:
    """New files, the first alone (it makes their folder), the rest side by side."""
    if not writes:
        return
    first, *rest = writes
    workspace.write_bytes(*first, overwrite=False)
    with concurrent.futures.ThreadPoolExecutor(WRITERS, thread_name_prefix="atlas sample pictures") as pool:
        for _ in pool.map(lambda write: workspace.write_bytes(*write, overwrite=False), rest):
            pass


def entity(sample: SampleEntity) -> Entity:
    """A sample entity as the catalogue takes it up (its ``image`` still to be set)."""
    return Entity(
        name=sample.name,
        type=sample.type,
        domain=sample.domain,
        class_name=sample.class_name,
        description=sample.description,
        sref=sample.sref,
        prompt=sample.prompt,
    )


@functools.cache
def pictures() -> tuple[tuple[bytes, bytes], ...]:
    """Every sample entity's picture as PNG and its thumbnail, drawn once a process (a second of
    work the first search on the sample would otherwise wait for)."""
    from .analysis import thumbnail_png

    drawn = []
    for sample in ENTITIES:
        pixels = render(sample)
        drawn.append((_png(pixels), thumbnail_png(pixels / 255.0)))
    return tuple(drawn)


def _place(workspace: Workspace, folder: str, stem: str, data: bytes) -> tuple[str, bool]:
    """Where the picture ``data`` goes: a file holding it already (not new), or a free name."""
    ours = workspace.written(f"{folder}/{stem}.png", data).digest
    number = 1
    while True:
        path = f"{folder}/{stem}.png" if number == 1 else f"{folder}/{stem}-{number}.png"
        if not workspace.exists(path):
            return path, True
        with contextlib.suppress(CommandError):  # a folder or a link there: another name
            if workspace.digest(path) == ours:
                return path, False
        number += 1
