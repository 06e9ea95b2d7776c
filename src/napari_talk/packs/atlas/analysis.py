"""Measurements of a picture with scikit-image: what can be said about an image without a model.

Dominant colours (k-means in CIELAB, named after the nearest of a small palette), brightness
(mean luminance), contrast (RMS: the luminance's standard deviation), colourfulness (Hasler and
Süsstrunk, 2003), edge density (share of Canny edge pixels), mirror symmetry (correlation of
the luminance with its left-right and top-bottom mirror images) and the pattern it shows, when
one is clear (:mod:`.facets`: stripes, a grid, rings…). Pictures are analysed at most
256 pixels on a side: the measures describe the whole, not the fine grain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import facets

ANALYSIS_SIDE = 256
COLOURS = 5
SAMPLE_PIXELS = 4096
MIN_SHARE = 0.03
MIN_ACCENT, ACCENT_CHROMA = 0.003, 20.0

PALETTE = {
    "black": "#000000", "charcoal": "#36454f", "grey": "#808080", "silver": "#c0c0c0", "white": "#ffffff",
    "cream": "#fff4d6", "beige": "#d9c8a0", "sand": "#c2a36b", "brown": "#6b4423", "umber": "#3b2414",
    "maroon": "#800000", "crimson": "#b0102a", "red": "#e0201a", "coral": "#f07a6a", "pink": "#f2a0c0",
    "rose": "#c98a9b", "orange": "#f07a10", "amber": "#f0a020", "gold": "#d4a017", "yellow": "#f5e050",
    "olive": "#6b7a20", "lime": "#a0f040", "green": "#20a040", "forest green": "#1e4a20", "teal": "#2a8a8a",
    "cyan": "#30d0e0", "sky blue": "#87b5e0", "blue": "#2050d0", "navy": "#0a1a50", "indigo": "#3a1a7a",
    "violet": "#8a4ad0", "purple": "#6b2e7a", "magenta": "#d020b0",
}  # fmt: skip
COLOURFULNESS_WORDS = (
    (109, "extremely colourful"), (82, "highly colourful"), (59, "quite colourful"),
    (45, "averagely colourful"), (33, "moderately colourful"), (15, "slightly colourful"),
    (0, "not colourful"),
)  # fmt: skip


def to_rgb(
    image: np.ndarray,
    *,
    limits: tuple[float, float] | None = None,
    colormap: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """A 2-D picture (grey, RGB or RGBA, any dtype) as float RGB in [0, 1], as it would be shown.

    Grey pictures are scaled to ``limits`` (else their 0.5-99.5 percentiles) and coloured with
    ``colormap`` (values in [0, 1] → RGBA rows), else shown grey.
    """
    image = np.asarray(image)
    if image.ndim == 3 and image.shape[-1] in (3, 4):
        rgb = _unit(image)
        if rgb.shape[-1] == 4:
            rgb = rgb[..., :3] * rgb[..., 3:]
        return np.clip(rgb, 0, 1)
    if image.ndim != 2:
        raise ValueError(f"a picture must be 2-D (grey) or RGB(A), not of shape {image.shape}")
    grey = image.astype(np.float64)
    low, high = limits if limits is not None else _percentiles(grey)
    grey = np.clip((grey - low) / (high - low), 0, 1) if high > low else np.zeros_like(grey)
    if colormap is None:
        return np.repeat(grey[..., None], 3, axis=-1)
    shown = np.asarray(colormap(grey.ravel()), np.float64).reshape(*grey.shape, -1)
    return np.clip(shown[..., :3] * (shown[..., 3:4] if shown.shape[-1] == 4 else 1), 0, 1)


def _unit(image: np.ndarray) -> np.ndarray:
    if image.dtype == np.uint8:
        return image / 255.0
    if np.issubdtype(image.dtype, np.integer):
        top = float(image.max()) or 1.0
        return image / (np.iinfo(image.dtype).max if top > 255 else 255.0)
    return image.astype(np.float64)


def _percentiles(grey: np.ndarray) -> tuple[float, float]:
    finite = grey[np.isfinite(grey)]
    if finite.size == 0:
        return 0.0, 1.0
    low, high = np.percentile(finite, [0.5, 99.5])
    return float(low), float(high)


def shrink(rgb: np.ndarray, side: int = ANALYSIS_SIDE) -> np.ndarray:
    from skimage.transform import resize

    h, w = rgb.shape[:2]
    scale = side / max(h, w)
    if scale >= 1:
        return rgb
    shape = (max(1, round(h * scale)), max(1, round(w * scale)), rgb.shape[2])
    return resize(rgb, shape, anti_aliasing=True, preserve_range=True)


# -- the measures --------------------------------------------------------------------------------


def colourfulness(rgb: np.ndarray) -> float:
    """Hasler and Süsstrunk's M on the 0-255 scale: 0 grey, about 110 extremely colourful."""
    r, g, b = (rgb[..., i] * 255 for i in range(3))
    rg, yb = r - g, 0.5 * (r + g) - b
    return float(np.hypot(rg.std(), yb.std()) + 0.3 * np.hypot(rg.mean(), yb.mean()))


def symmetry(grey: np.ndarray) -> dict[str, float]:
    """Correlation of the picture with its mirror images (1 = perfectly symmetric, 0 = none)."""

    def score(mirror: np.ndarray) -> float:
        a, b = grey - grey.mean(), mirror - mirror.mean()
        denominator = float(np.sqrt((a * a).sum() * (b * b).sum()))
        return 1.0 if denominator < 1e-12 else max(0.0, float((a * b).sum() / denominator))

    return {"left_right": round(score(grey[:, ::-1]), 2), "top_bottom": round(score(grey[::-1, :]), 2)}


def dominant_colours(rgb: np.ndarray, k: int = COLOURS, seed: int = 0) -> list[dict[str, Any]]:
    """The main colours by share of the picture: k-means in CIELAB on a sample of pixels.

    Clusters with the same name are merged. The most vivid cluster is kept even when small (a
    fluorescence picture is mostly black, but its signal is what it shows).
    """
    from skimage.color import lab2rgb, rgb2lab

    pixels = rgb.reshape(-1, 3)
    rng = np.random.default_rng(seed)
    if len(pixels) > SAMPLE_PIXELS:
        pixels = pixels[rng.choice(len(pixels), SAMPLE_PIXELS, replace=False)]
    lab = rgb2lab(pixels[None])[0]
    centres, labels = _kmeans(lab, min(k, len(np.unique(lab.round(1), axis=0))), rng)
    shares = np.bincount(labels, minlength=len(centres)) / len(labels)
    chroma = np.hypot(centres[:, 1], centres[:, 2])
    vivid = int(np.argmax(chroma * (shares >= MIN_ACCENT)))
    merged: dict[str, dict[str, Any]] = {}
    for index in np.argsort(-shares):
        name = nearest_name(centres[index])
        if name in merged:
            merged[name]["share"] += float(shares[index])
            continue
        rgb_centre = np.clip(lab2rgb(centres[index][None, None])[0, 0], 0, 1)
        accent = bool(index == vivid and chroma[index] > ACCENT_CHROMA)
        share = float(shares[index])
        merged[name] = {"hex": _hex(rgb_centre), "name": name, "share": share, "accent": accent}
    colours = [c for c in merged.values() if c["share"] >= MIN_SHARE or c["accent"]]
    return [{"hex": c["hex"], "name": c["name"], "share": round(c["share"], 3)} for c in colours]


def _kmeans(
    points: np.ndarray, k: int, rng: np.random.Generator, rounds: int = 15
) -> tuple[np.ndarray, np.ndarray]:
    """Plain k-means with k-means++ seeding; deterministic for a generator."""
    k = max(1, k)
    centres = [points[rng.integers(len(points))]]
    for _ in range(1, k):
        distance = np.min([((points - c) ** 2).sum(1) for c in centres], axis=0)
        total = distance.sum()
        if total <= 0:
            break
        centres.append(points[rng.choice(len(points), p=distance / total)])
    centres_arr = np.array(centres)
    for _ in range(rounds):
        labels = ((points[:, None] - centres_arr[None]) ** 2).sum(-1).argmin(1)
        moved = np.array(
            [points[labels == i].mean(0) if (labels == i).any() else c for i, c in enumerate(centres_arr)]
        )
        if np.allclose(moved, centres_arr):
            break
        centres_arr = moved
    labels = ((points[:, None] - centres_arr[None]) ** 2).sum(-1).argmin(1)
    return centres_arr, labels


def _hex(rgb: np.ndarray) -> str:
    return "#" + "".join(f"{round(float(v) * 255):02x}" for v in rgb)


def _palette_lab() -> tuple[list[str], np.ndarray]:
    from skimage.color import rgb2lab

    names = list(PALETTE)
    rgb = np.array([[int(PALETTE[n][i : i + 2], 16) / 255 for i in (1, 3, 5)] for n in names])
    return names, rgb2lab(rgb[None])[0]


def nearest_name(lab: np.ndarray) -> str:
    names, palette = _palette_lab()
    return names[int(((palette - lab) ** 2).sum(1).argmin())]


def temperature(rgb: np.ndarray) -> str:
    """warm (reds to yellows), cool (greens to violets) or neutral (little colour)."""
    from skimage.color import rgb2lab

    lab = rgb2lab(rgb)
    a, b = lab[..., 1], lab[..., 2]
    chroma = np.hypot(a, b)
    if chroma.mean() < 8:
        return "neutral"
    hue = np.degrees(np.arctan2((b * chroma).sum(), (a * chroma).sum()))
    return "warm" if -45 <= hue <= 100 else "cool"


def tone(brightness: float) -> str:
    for limit, word in ((0.8, "white"), (0.6, "light"), (0.4, "mid"), (0.15, "dark")):
        if brightness >= limit:
            return word
    return "black"


def _word(value: float, steps: tuple[tuple[float, str], ...]) -> str:
    return next(word for limit, word in steps if value >= limit)


def measure(rgb: np.ndarray) -> dict[str, Any]:
    """Every measurement of a float RGB picture, in the seed's analysis shape (measured part)."""
    from skimage.color import rgb2gray
    from skimage.feature import canny

    rgb = shrink(np.asarray(rgb, np.float64))
    grey = rgb2gray(rgb)
    brightness, contrast = float(grey.mean()), float(grey.std())
    colourful = colourfulness(rgb)
    edges = float(canny(grey, sigma=1.5).mean()) if min(grey.shape) >= 8 else 0.0
    mirror = symmetry(grey)
    colours = dominant_colours(rgb)
    warmth = temperature(rgb)
    measurements = {
        "brightness": round(brightness, 2),
        "contrast": round(contrast, 2),
        "colourfulness": round(colourful, 1),
        "colourfulness_label": _word(colourful, COLOURFULNESS_WORDS),
        "edge_density": round(edges, 3),
        "texture": _word(edges, ((0.12, "busy"), (0.04, "textured"), (0.0, "smooth"))),
        "symmetry": mirror,
        "pattern": facets.pattern_of(facets.of_thumbnail(thumbnail_png(rgb))) or "none",
    }
    return {
        "visual_notes": visual_notes(colours, measurements),
        "colors": {"gradient": f"{warmth}-{tone(brightness)}", "temperature": warmth, "dominant": colours},
        "measurements": measurements,
    }


def visual_notes(colours: list[dict[str, Any]], m: dict[str, Any]) -> str:
    names = list(dict.fromkeys(c["name"] for c in colours))[:3]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
    light = _word(m["brightness"], ((0.65, "bright"), (0.35, "mid-toned"), (0.0, "dark")))
    contrast = _word(m["contrast"], ((0.25, "high"), (0.12, "moderate"), (0.0, "low")))
    notes = [
        f"Dominant {listed}" if names else "No dominant colour",
        f"{light}, {contrast} contrast, {m['colourfulness_label']}",
    ]
    notes.append(f"{m['texture']} (edge density {m['edge_density']:.2f})")
    if m.get("pattern") in facets.PATTERN_WORDS:
        notes.append(facets.PATTERN_WORDS[m["pattern"]])
    symmetric = [axis.replace("_", "-") for axis, value in m["symmetry"].items() if value >= 0.8]
    if symmetric:
        notes.append(f"{' and '.join(symmetric)} symmetric")
    return "; ".join(notes)


def analyze(image: np.ndarray, **display: Any) -> dict[str, Any]:
    """Measurements of a picture given as pixels (see :func:`to_rgb` for ``display``)."""
    rgb = to_rgb(image, **display)
    result = measure(rgb)
    result["measurements"]["size"] = list(np.asarray(image).shape[:2])
    return result


def thumbnail_png(rgb: np.ndarray, side: int = 64) -> bytes:
    """A small PNG of a float RGB picture, for the catalogue and the dock's result table."""
    import io

    from PIL import Image

    picture = Image.fromarray((np.clip(rgb, 0, 1) * 255).round().astype(np.uint8))
    picture.thumbnail((side, side), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue()
