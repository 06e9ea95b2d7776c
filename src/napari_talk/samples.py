"""Sample data: a synthetic 2-D fluorescence field of cells, made on the fly (no download).

Layers: "nuclei", "cell boundaries", "actin", "GFP" (images, additive), "Labels" (the nuclei
segmentation) and "spots" (points), the names the README's examples use.
"""

from __future__ import annotations

from typing import Any

import numpy as np

SIZE = 512
N_CELLS = 28


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], scale: int) -> np.ndarray:
    coarse = rng.random((shape[0] // scale + 2, shape[1] // scale + 2))
    rows = np.linspace(0, coarse.shape[0] - 1.001, shape[0])
    cols = np.linspace(0, coarse.shape[1] - 1.001, shape[1])
    r0, c0 = rows.astype(int), cols.astype(int)
    fr, fc = (rows - r0)[:, None], (cols - c0)[None, :]
    top = coarse[r0][:, c0] * (1 - fc) + coarse[r0][:, c0 + 1] * fc
    bottom = coarse[r0 + 1][:, c0] * (1 - fc) + coarse[r0 + 1][:, c0 + 1] * fc
    return top * (1 - fr) + bottom * fr


def cell_field(seed: int = 7) -> dict[str, np.ndarray]:
    """The arrays of the cells sample, deterministic for a seed."""
    rng = np.random.default_rng(seed)
    seeds = rng.uniform(30, SIZE - 30, size=(N_CELLS, 2))
    rr, cc = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    dist = np.stack([np.hypot(rr - r, cc - c) for r, c in seeds])
    nearest = dist.argmin(axis=0)

    radii = rng.uniform(9, 15, N_CELLS)
    stretch = rng.uniform(0.7, 1.3, N_CELLS)
    labels = np.zeros((SIZE, SIZE), np.int32)
    nuclei = np.zeros((SIZE, SIZE), np.float32)
    for index, ((r, c), radius, k) in enumerate(zip(seeds, radii, stretch, strict=True), start=1):
        d2 = ((rr - r) / k) ** 2 + ((cc - c) * k) ** 2
        labels[d2 < radius**2] = index
        nuclei += np.exp(-d2 / (2 * (radius / 1.6) ** 2)) * rng.uniform(0.7, 1.0)

    texture = _smooth_noise(rng, (SIZE, SIZE), 16)
    closest, second = np.partition(dist, 1, axis=0)[:2]
    rim = np.clip(1.0 - (second - closest) / 6.0, 0, 1)  # bright where two cells meet
    membrane = rim * (0.6 + 0.4 * texture)
    actin = np.clip(rim * 0.5 + 0.5 * _smooth_noise(rng, (SIZE, SIZE), 6) ** 3, 0, 1)
    gfp_level = rng.uniform(0.1, 1.0, N_CELLS)
    gfp = gfp_level[nearest] * (0.5 + 0.5 * texture) * (1 - 0.5 * (labels > 0))

    def counts(signal: np.ndarray, peak: float) -> np.ndarray:
        noisy = rng.poisson(signal * peak + 40).astype(np.float32)
        return np.clip(noisy, 0, 65535).astype(np.uint16)

    spot_cells = rng.integers(0, N_CELLS, 60)
    spots = seeds[spot_cells] + rng.normal(0, 18, (60, 2))
    return {
        "nuclei": counts(nuclei, 3000),
        "cell boundaries": counts(membrane, 1500),
        "actin": counts(actin, 2000),
        "GFP": counts(gfp, 4000),
        "Labels": labels,
        "spots": np.clip(spots, 0, SIZE - 1).astype(np.float32),
    }


COLORMAPS = {"nuclei": "blue", "cell boundaries": "magenta", "actin": "red", "GFP": "green"}


def cells() -> list[tuple[Any, dict[str, Any], str]]:
    """napari sample-data contribution: the cell field as named layers."""
    arrays = cell_field()
    layers: list[tuple[Any, dict[str, Any], str]] = [
        (arrays[name], {"name": name, "colormap": cmap, "blending": "additive"}, "image")
        for name, cmap in COLORMAPS.items()
    ]
    layers.append((arrays["Labels"], {"name": "Labels", "opacity": 0.4}, "labels"))
    layers.append((arrays["spots"], {"name": "spots", "size": 6, "face_color": "yellow"}, "points"))
    return layers
