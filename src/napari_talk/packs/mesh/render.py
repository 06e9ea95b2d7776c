"""A small software renderer (numpy): the model with its materials, from any angle, as RGB pixels.

Used for export renders and ComfyUI uploads when no napari canvas is there to take a screenshot.
Orthographic camera, z-buffer, smooth normals within crease patches, and a metallic-roughness
shading close enough to a glTF viewer's to judge colours and materials.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .mesh import TriMesh, crease_groups, split_by_groups, vertex_normals

MAX_PAIRS = 4_000_000
"""(face, pixel) candidates handled at once; bigger jobs go in chunks."""


@dataclass(frozen=True)
class Surface:
    """Per-face appearance in linear RGB."""

    base: np.ndarray
    """(m, 3) base colour."""
    metallic: np.ndarray
    roughness: np.ndarray
    emissive: np.ndarray
    """(m, 3) emitted colour (already times its strength)."""

    @classmethod
    def plain(cls, n_faces: int, color=(0.62, 0.62, 0.66)) -> Surface:
        return cls(
            np.tile(np.asarray(color, float), (n_faces, 1)),
            np.zeros(n_faces),
            np.full(n_faces, 0.55),
            np.zeros((n_faces, 3)),
        )


VIEWS = {"front": (0.0, 10.0), "three_quarter": (35.0, 20.0), "side": (90.0, 10.0), "back": (180.0, 10.0)}
"""Named views: (azimuth, elevation) in degrees; azimuth 0 looks at the model's front (+z)."""


def _camera(azimuth: float, elevation: float) -> np.ndarray:
    """Rows: right, up, towards-the-viewer unit vectors of the camera."""
    az, el = np.radians(azimuth), np.radians(elevation)
    back = np.array([np.sin(az) * np.cos(el), np.sin(el), np.cos(az) * np.cos(el)])
    right = np.cross([0.0, 1.0, 0.0], back)
    right /= np.linalg.norm(right)
    up = np.cross(back, right)
    return np.array([right, up, back])


def to_srgb(linear: np.ndarray) -> np.ndarray:
    linear = np.clip(linear, 0.0, 1.0)
    return np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * np.power(linear, 1 / 2.4) - 0.055)


def render(
    mesh: TriMesh,
    surface: Surface | None = None,
    *,
    azimuth: float = 35.0,
    elevation: float = 20.0,
    size: int = 512,
    supersample: int = 2,
    background=(0.16, 0.17, 0.2),
) -> np.ndarray:
    """The mesh seen from (azimuth, elevation), an (size, size, 3) uint8 sRGB image."""
    surface = surface or Surface.plain(mesh.n_faces)
    groups = crease_groups(mesh, 40.0) if mesh.n_faces else np.zeros(0, int)
    vertices, faces, _ = split_by_groups(mesh, groups)
    normals = vertex_normals(vertices, faces)
    rotation = _camera(azimuth, elevation)
    center = mesh.center
    radius = float(np.linalg.norm(mesh.vertices - center, axis=1).max()) or 1.0
    view = (vertices - center) @ rotation.T
    view_normals = normals @ rotation.T
    pixels = size * supersample
    scale = pixels / (2.2 * radius)
    sx = view[:, 0] * scale + pixels / 2
    sy = pixels / 2 - view[:, 1] * scale
    depth = view[:, 2]

    image = np.empty((pixels, pixels, 3))
    shade = np.linspace(1.0, 0.55, pixels)[:, None, None]
    image[:] = np.asarray(background)[None, None, :] * shade
    zbuffer = np.full(pixels * pixels, -np.inf)
    owner = np.full(pixels * pixels, -1)
    bary_store = np.zeros((pixels * pixels, 3))

    x, y = sx[faces], sy[faces]
    area = (x[:, 1] - x[:, 0]) * (y[:, 2] - y[:, 0]) - (x[:, 2] - x[:, 0]) * (y[:, 1] - y[:, 0])
    visible = np.abs(area) > 1e-12
    if mesh.closed:
        visible &= area < 0  # counter-clockwise in view = clockwise in image rows (y flipped)
    candidates = np.flatnonzero(visible)
    x0 = np.clip(np.floor(x[candidates].min(1)).astype(int), 0, pixels - 1)
    x1 = np.clip(np.ceil(x[candidates].max(1)).astype(int), 0, pixels - 1)
    y0 = np.clip(np.floor(y[candidates].min(1)).astype(int), 0, pixels - 1)
    y1 = np.clip(np.ceil(y[candidates].max(1)).astype(int), 0, pixels - 1)
    widths, heights = x1 - x0 + 1, y1 - y0 + 1
    counts = widths * heights
    start = 0
    while start < len(candidates):
        stop = start + max(1, int(np.searchsorted(np.cumsum(counts[start:]), MAX_PAIRS)))
        _rasterize(
            candidates[start:stop], x0[start:stop], y0[start:stop], widths[start:stop], counts[start:stop],
            x, y, area, faces, depth, pixels, zbuffer, owner, bary_store,
        )  # fmt: skip
        start = stop

    hit = np.flatnonzero(owner >= 0)
    face = owner[hit]
    bary = bary_store[hit]
    n = np.einsum("pk,pkj->pj", bary, view_normals[faces[face]])
    n /= np.linalg.norm(n, axis=1, keepdims=True) + 1e-12
    if not mesh.closed:
        n *= np.where(n[:, 2:3] < 0, -1.0, 1.0)
    colour = _shade(n, surface.base[face], surface.metallic[face], surface.roughness[face])
    colour += surface.emissive[face]
    flat = image.reshape(-1, 3)
    flat[hit] = to_srgb(colour)
    flat[owner < 0] = to_srgb(flat[owner < 0] ** 2.2)
    if supersample > 1:
        image = image.reshape(size, supersample, size, supersample, 3).mean(axis=(1, 3))
    return np.round(image * 255).astype(np.uint8)


def _rasterize(chosen, x0, y0, widths, counts, x, y, area, faces, depth, pixels, zbuffer, owner, bary_store):
    """Every (face, pixel) pair of the faces' bounding boxes; the nearest face inside wins a pixel."""
    face = np.repeat(chosen, counts)
    first = np.repeat(np.cumsum(counts) - counts, counts)
    local = np.arange(len(face)) - first
    width = np.repeat(widths, counts)
    cx = (np.repeat(x0, counts) + local % width).astype(np.float32) + 0.5
    cy = (np.repeat(y0, counts) + local // width).astype(np.float32) + 0.5
    fx, fy = x[face].astype(np.float32), y[face].astype(np.float32)
    inv = (1.0 / area[face]).astype(np.float32)
    w0 = ((fx[:, 1] - cx) * (fy[:, 2] - cy) - (fx[:, 2] - cx) * (fy[:, 1] - cy)) * inv
    w1 = ((fx[:, 2] - cx) * (fy[:, 0] - cy) - (fx[:, 0] - cx) * (fy[:, 2] - cy)) * inv
    inside = (w0 >= -1e-6) & (w1 >= -1e-6) & (w0 + w1 <= 1 + 1e-6)
    face, w0, w1 = face[inside], w0[inside], w1[inside]
    pixel = (cy[inside].astype(np.int64)) * pixels + cx[inside].astype(np.int64)
    corner = depth[faces[face]]
    z = w0 * corner[:, 0] + w1 * corner[:, 1] + (1 - w0 - w1) * corner[:, 2]
    nearest = np.full(pixels * pixels, np.inf)
    np.minimum.at(nearest, pixel, -z)
    wins = (-z == nearest[pixel]) & (z > zbuffer[pixel])
    pixel = pixel[wins]
    zbuffer[pixel] = z[wins]
    owner[pixel] = face[wins]
    bary_store[pixel] = np.column_stack([w0[wins], w1[wins], 1 - w0[wins] - w1[wins]])


_LIGHTS = (
    (np.array([0.45, 0.6, 0.66]), 2.4),
    (np.array([-0.6, 0.25, 0.4]), 0.7),
    (np.array([0.0, 0.3, -1.0]), 0.8),
)


def _shade(n: np.ndarray, base: np.ndarray, metallic: np.ndarray, roughness: np.ndarray) -> np.ndarray:
    """A metallic-roughness look: Lambert for the dielectric part, Blinn-Phong highlights tinted
    by the base colour for metals, and a sky/ground reflection that fades with roughness."""
    view = np.array([0.0, 0.0, 1.0])
    metallic = metallic[:, None]
    rough = np.clip(roughness, 0.04, 1.0)[:, None]
    diffuse_colour = base * (1.0 - metallic)
    specular_colour = 0.04 * (1.0 - metallic) + base * metallic
    shininess = np.clip(2.0 / rough**4 - 2.0, 2.0, 4000.0)
    out = 0.08 * diffuse_colour + 0.03 * specular_colour
    for direction, strength in _LIGHTS:
        light = direction / np.linalg.norm(direction)
        lambert = np.clip(n @ light, 0.0, None)[:, None]
        half = (light + view) / np.linalg.norm(light + view)
        highlight = np.clip(n @ half, 0.0, None)[:, None] ** shininess * (shininess + 8) / (8 * np.pi)
        out += strength * lambert * (diffuse_colour / np.pi * 1.9 + specular_colour * highlight * 0.6)
    reflect_y = 2 * n[:, 2:3] * n[:, 1:2]  # the view vector reflected about n, its y part
    sky = np.where(reflect_y > 0, 0.9, 0.25) * (1.0 - 0.75 * rough)
    out += specular_colour * sky * 0.6
    return out
