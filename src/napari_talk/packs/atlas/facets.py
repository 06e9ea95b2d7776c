"""What a picture looks like, as facets a query can name: its colours, its tone, its pattern.

A facet's strength (0–1) is measured on the picture itself (the catalogue's thumbnail), never
read from its name or description:

- colours: the share of the picture's pixels in each hue family (HLS: lightness and saturation
  sort out black, white and grey first), full at :data:`FULL_SHARE`; a neighbouring family counts
  up to half (a "cyan" query and a blue picture);
- tone: dark or bright from the mean lightness, pale from bright and unsaturated, vivid from the
  mean chroma, warm or cool from how much more of the picture is of one kind of hue;
- pattern, from the picture's gradients weighed by their strength: one direction everywhere reads
  ``stripes`` (the doubled angle's coherence), and ``waves`` when it bends; fine detail that
  survives averaging the rows and the columns ``grid``; gradients along the direction from the
  centre ``rings``, ``orb`` or ``void`` (by where the light is), across it ``rays``, at a constant
  slant to it ``spiral``; fine grain without local direction ``noise``; smooth, undirected blobs
  ``cells``; a mirror-symmetric picture of flat facets ``crystal``. ``glitch`` is not measured
  (named by words only).

The thresholds were set by looking at the sample catalogue's pictures (procedural, one motif
each), so the pattern facets are surest on pictures like those; colours and tones are general.
The words that name each facet are :data:`.lexicon.FACET_WORDS`.
"""

from __future__ import annotations

import colorsys
import functools
import io

import numpy as np

SIDE = 64
"""Pictures are measured at most this many pixels on a side (the thumbnail's size)."""
FULL_SHARE = 0.25
"""A colour covering this share of the picture counts fully."""
COLOUR_FACETS = ("red", "orange", "gold", "green", "teal", "blue", "purple", "pink", "brown",
                 "black", "white", "grey")  # fmt: skip
NEIGHBOURS = {
    "red": ("orange", "pink"), "orange": ("red", "gold", "brown"), "gold": ("orange",),
    "green": ("teal",), "teal": ("green", "blue"), "blue": ("teal", "purple"), "purple": ("blue", "pink"),
    "pink": ("red", "purple"), "brown": ("orange",), "black": (), "white": ("grey",), "grey": ("white",),
}  # fmt: skip
"""Colour families a name may stretch to: "cyan" for a blue picture, "amber" for an orange one."""
NEIGHBOUR_CREDIT = 0.5
"""A neighbouring family counts at most this much."""
TONE_FACETS = ("dark", "bright", "pale", "vivid", "warm", "cool")
PATTERN_FACETS = ("stripes", "grid", "rings", "orb", "void", "rays", "spiral", "waves", "noise", "crystal",
                  "cells", "glitch")  # fmt: skip


PATTERN_WORDS = {
    "stripes": "striped", "grid": "a grid of lines", "rings": "concentric rings",
    "orb": "a round glow in the middle", "void": "a hollow, empty centre",
    "rays": "rays from the centre", "spiral": "a spiral", "waves": "wavy lines", "noise": "grainy",
    "crystal": "faceted and mirrored", "cells": "blobs like cells",
}  # fmt: skip
"""How a picture's pattern is put in its visual notes (:func:`.analysis.visual_notes`)."""
SURE = 0.6
"""A pattern this strong is named in the notes."""


def pattern_of(measured: dict[str, float]) -> str | None:
    """The strongest pattern of a picture's facets, when it is strong enough to name."""
    named = [(measured.get(p, 0.0), p) for p in PATTERN_WORDS]
    strength, name = max(named)
    return name if strength >= SURE else None


def _ramp(value: float, low: float, high: float) -> float:
    """0 at ``low``, 1 at ``high``, linear between."""
    return float(np.clip((value - low) / (high - low), 0.0, 1.0))


def colour_family(hue: float, light: float, saturation: float) -> str:
    """The facet of one colour given as HLS (each 0–1)."""
    if light < 0.1:
        return "black"
    if light > 0.92:
        return "white"
    if saturation < 0.18 or (saturation < 0.3 and light < 0.25):
        return "white" if light > 0.8 else "grey"
    degrees = hue * 360
    if degrees >= 345 or degrees < 15:
        family = "pink" if light > 0.72 else "red"
    elif degrees < 40:
        family = "orange"
    elif degrees < 68:
        family = "gold"
    elif degrees < 165:
        family = "green"
    elif degrees < 200:
        family = "teal"
    elif degrees < 258:
        family = "blue"
    elif degrees < 290:
        family = "purple"
    else:
        family = "pink"
    if family in ("red", "orange", "gold") and (light < 0.28 or (saturation < 0.45 and light < 0.45)):
        return "brown"
    return family


def colour_shares(rgb: np.ndarray) -> dict[str, float]:
    """Share of the picture's pixels in each colour family."""
    pixels = rgb.reshape(-1, 3)
    levels = np.clip((pixels * 31).round(), 0, 31).astype(np.int32)
    keys, counts = np.unique(levels @ np.array([1024, 32, 1]), return_counts=True)
    distinct = np.stack([keys // 1024, (keys // 32) % 32, keys % 32], axis=1) / 31.0
    shares: dict[str, float] = dict.fromkeys(COLOUR_FACETS, 0.0)
    for colour, count in zip(distinct, counts, strict=True):
        shares[_family(*colour)] += float(count) / len(pixels)
    return shares


@functools.lru_cache(maxsize=32768)
def _family(red: float, green: float, blue: float) -> str:
    return colour_family(*colorsys.rgb_to_hls(red, green, blue))


def tone(rgb: np.ndarray, shares: dict[str, float]) -> dict[str, float]:
    """Dark, bright, pale, vivid; warm (reds to yellows and browns) or cool (teal to violet) by how
    much more of the picture is of one than of the other."""
    light = rgb.max(-1) * 0.5 + rgb.min(-1) * 0.5
    spread = rgb.max(-1) - rgb.min(-1)
    mean_light = float(light.mean())
    chroma = float(spread.mean())
    warm = sum(shares[f] for f in ("red", "orange", "gold", "brown"))
    cool = sum(shares[f] for f in ("teal", "blue", "purple"))
    return {
        "warm": _ramp(warm - cool, 0.0, 0.4),
        "cool": _ramp(cool - warm, 0.0, 0.4),
        "dark": _ramp(-mean_light, -0.45, -0.2),
        "bright": _ramp(mean_light, 0.5, 0.75),
        "pale": _ramp(mean_light, 0.5, 0.75) * _ramp(-chroma, -0.3, -0.12),
        "vivid": _ramp(chroma, 0.2, 0.45),
    }


def _windows(values: np.ndarray, size: int) -> np.ndarray:
    """Sums over non-overlapping ``size`` × ``size`` windows."""
    h, w = (values.shape[0] // size) * size, (values.shape[1] // size) * size
    return values[:h, :w].reshape(h // size, size, w // size, size).sum(axis=(1, 3))


def pattern(grey: np.ndarray) -> dict[str, float]:
    """Pattern facets of a grey picture in [0, 1] (see the module's docstring)."""
    gy, gx = np.gradient(grey)
    power = gx * gx + gy * gy
    total = float(power.sum())
    if total < 1e-9 or min(grey.shape) < 8:
        return dict.fromkeys(PATTERN_FACETS, 0.0)
    angle = np.arctan2(gy, gx)
    weight = power / total
    coherence = float(abs((weight * np.exp(2j * angle)).sum()))
    h, w = grey.shape
    yy, xx = np.mgrid[0:h, 0:w]
    yy, xx = yy - (h - 1) / 2, xx - (w - 1) / 2
    radius = np.hypot(xx, yy) / (min(h, w) / 2)
    # gradients against the direction from the centre: along it (+1), across it (-1), or at a
    # constant slant (the imaginary part: a spiral's arms)
    turn = complex((weight * np.exp(2j * (angle - np.arctan2(yy, xx)))).sum())
    window = max(4, min(h, w) // 8)
    local = float(np.abs(_windows(power * np.exp(2j * angle), window)).sum() / total)
    fine = 1.0 - float((np.hypot(*np.gradient(_blur(grey))) ** 2).sum()) / total
    profile = _profile(grey, radius)
    centre, edge = float(profile[:4].mean()), float(profile[-3:].mean())
    outer_peak = float(profile[len(profile) // 2 :].max()) - centre
    radial, across = _ramp(turn.real, 0.3, 0.7), _ramp(-turn.real, 0.3, 0.7)
    crossings = _crossings(profile)
    spiral = _ramp(abs(turn.imag), 0.15, 0.35)
    undirected = 1.0 - _ramp(coherence, 0.3, 0.6)
    grid = _ramp(_axis_detail(grey), 0.4, 0.6) * undirected
    return {
        "stripes": _ramp(coherence, 0.6, 0.9),
        "grid": grid,
        "rings": radial * _ramp(crossings, 3.0, 6.0) * (1.0 - spiral),
        "orb": radial * _ramp(centre - edge, 0.15, 0.4),
        "void": radial * _ramp(outer_peak, 0.08, 0.2) * (1.0 - _ramp(crossings, 3.0, 6.0)),
        "rays": across,
        "spiral": spiral,
        "waves": _ramp(coherence, 0.3, 0.5) * (1.0 - _ramp(coherence, 0.8, 0.95)) * _ramp(local, 0.6, 0.8),
        "noise": _ramp(fine, 0.35, 0.6) * (1.0 - _ramp(local, 0.45, 0.7)) * (1.0 - grid),
        "cells": (1.0 - _ramp(fine, 0.15, 0.3)) * (1.0 - _ramp(abs(turn), 0.3, 0.6)) * undirected,
        "crystal": _ramp(_mirror(grey), 0.8, 0.95) * (1.0 - _ramp(abs(turn), 0.4, 0.7)) * (1.0 - grid),
        "glitch": 0.0,  # not measured: named by words only
    }


def _axis_detail(grey: np.ndarray) -> float:
    """How much of the picture's fine detail survives averaging its rows and, apart, its columns
    (the smaller of the two): lines along both axes (a grid) keep it, grain and slanted or
    one-way lines average out, a smooth blob has little fine detail to keep."""
    detail = grey - _blur(_blur(grey))
    total = float((detail**2).mean())
    if total < 1e-12:
        return 0.0
    columns, rows = _fine(grey.mean(axis=0)), _fine(grey.mean(axis=1))
    return min(float((columns**2).mean()), float((rows**2).mean())) / total


def _fine(profile: np.ndarray) -> np.ndarray:
    """A profile less its running mean over 5 values."""
    padded = np.pad(profile, 2, mode="edge")
    return profile - np.convolve(padded, np.ones(5) / 5, mode="valid")


def _blur(grey: np.ndarray) -> np.ndarray:
    """The mean of each pixel's 3 × 3 neighbourhood."""
    padded = np.pad(grey, 1, mode="edge")
    h, w = grey.shape
    shifted = [padded[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w] for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    return np.mean(shifted, axis=0)


def _profile(grey: np.ndarray, radius: np.ndarray) -> np.ndarray:
    """The mean lightness at 16 distances from the centre, out to the inscribed circle."""
    bins = np.clip((radius * 16).astype(int), 0, 15)
    counts = np.bincount(bins.ravel(), minlength=16)
    sums = np.bincount(bins.ravel(), grey.ravel(), minlength=16)
    return (sums / np.maximum(counts, 1))[counts > 0]


def _crossings(profile: np.ndarray) -> float:
    """How often the radial profile crosses its own mean: concentric rings cross it often."""
    signs = np.sign(profile - profile.mean())
    return float((signs[1:] * signs[:-1] < 0).sum())


def _mirror(grey: np.ndarray) -> float:
    a = grey - grey.mean()
    b = a[:, ::-1]
    denominator = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return 0.0 if denominator < 1e-12 else float((a * b).sum() / denominator)


def measure(rgb: np.ndarray) -> dict[str, float]:
    """Every facet of a float RGB picture (values 0–1)."""
    rgb = np.asarray(rgb, np.float64)[..., :3]
    grey = rgb @ np.array([0.2125, 0.7154, 0.0721])
    shares = colour_shares(rgb)
    full = {name: min(1.0, share / FULL_SHARE) for name, share in shares.items()}
    facets = {
        name: max([strength, *(NEIGHBOUR_CREDIT * full[n] for n in NEIGHBOURS[name])])
        for name, strength in full.items()
    }
    facets.update(tone(rgb, shares))
    facets.update(pattern(grey))
    return facets


@functools.lru_cache(maxsize=8192)
def _of_png(data: bytes) -> tuple[tuple[str, float], ...]:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as picture:
        picture.thumbnail((SIDE, SIDE))
        rgb = np.asarray(picture.convert("RGB"), np.float64) / 255.0
    return tuple(measure(rgb).items())


def of_thumbnail(data: bytes | None) -> dict[str, float]:
    """The facets of a stored thumbnail (PNG), measured once a process; none for no picture or an
    unreadable one."""
    if not data:
        return {}
    try:
        return dict(_of_png(data))
    except (OSError, ValueError, SyntaxError):
        return {}
