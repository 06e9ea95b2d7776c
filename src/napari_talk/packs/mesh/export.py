"""The final export: a .glb with one primitive per segment, renders, and a metadata JSON.

Everything goes to a new folder ``exports/<model>-<time>/`` in the workspace, so an export never
overwrites an earlier one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.basics.png import encode_png
from .appearance import segment_materials
from .gltf import Primitive, encode_glb
from .mesh import TriMesh, crease_groups, split_by_groups, vertex_normals
from .render import VIEWS, render
from .state import ModelState

SMOOTHING_ANGLE = 40.0
"""Normals are smooth within a segment up to this crease angle (a cube keeps sharp edges)."""
Renderer = Callable[[str, float, float], np.ndarray]
"""``renderer(view_name, azimuth, elevation)`` → an RGB(A) uint8 image."""

if TYPE_CHECKING:
    from ...core.safety.workspace import Workspace


@dataclass(frozen=True)
class Exported:
    """Where the files went, as workspace-relative paths."""

    folder: str
    glb: str
    renders: list[str]
    metadata: str
    segments: int
    materials: list[str]


def primitives(state: ModelState) -> tuple[list[Primitive], list]:
    """One glTF primitive per segment, each with its own material."""
    mesh = state.mesh
    assert mesh is not None
    labels = state.face_labels()
    creases = crease_groups(mesh, SMOOTHING_ANGLE)
    groups = labels * (int(creases.max()) + 1) + creases
    vertices, faces, _ = split_by_groups(mesh, groups)
    normals = vertex_normals(vertices, faces)
    materials = segment_materials(state)
    out = []
    for segment in range(state.segment_count):
        chosen = faces[labels == segment]
        used, local = np.unique(chosen, return_inverse=True)
        out.append(
            Primitive(
                vertices[used],
                normals[used],
                local.reshape(-1).astype(np.int64),
                material=segment,
                extras={"segment_id": segment + 1, "faces": len(chosen)},
            )
        )
    return out, materials


def glb_bytes(state: ModelState, extras: dict[str, Any] | None = None) -> bytes:
    mesh = state.mesh
    assert mesh is not None
    prims, materials = primitives(state)
    return encode_glb(prims, materials, name=mesh.name, double_sided=not mesh.closed, extras=extras)


def software_renderer(state: ModelState, size: int = 512) -> Renderer:
    from .appearance import face_surface

    surface = face_surface(state)
    mesh: TriMesh = state.mesh  # type: ignore[assignment]
    return lambda _name, azimuth, elevation: render(
        mesh, surface, azimuth=azimuth, elevation=elevation, size=size
    )


def safe_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name)[:40] or "model"


def new_folder(workspace: Workspace, exports: str, name: str) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    safe = safe_name(name)
    for attempt in range(1000):
        folder = f"{exports}/{safe}-{stamp}" + ("" if attempt == 0 else f"-{attempt + 1}")
        if not workspace.exists(folder):
            return workspace.mkdir(folder)
    raise FileExistsError(f"no free export folder name under {exports}")


def metadata(state: ModelState, prompt: str | None, files: dict[str, Any]) -> dict[str, Any]:
    mesh = state.mesh
    assert mesh is not None
    segments = state.segments()
    materials = segment_materials(state)
    for entry, material in zip(segments, materials, strict=True):
        entry["material"] = material.summary()
    return {
        "generator": "napari-talk mesh pack",
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "prompt": prompt,
        "model": {
            "name": mesh.name,
            "source": state.source,
            "vertices": len(mesh.vertices),
            "faces": int(mesh.n_faces),
            "closed": bool(mesh.closed),
            "bounds": mesh.bounds.round(6).tolist(),
        },
        "segments": segments,
        "selected_segment": state.selected,
        "concepts": [str(c.path) for c in state.concepts],
        "history": list(state.history),
        "files": files,
    }


def export(
    state: ModelState,
    workspace: Workspace,
    prompt: str | None,
    renderer: Renderer | None = None,
    exports: str = "exports",
) -> Exported:
    """Write a new export folder through the workspace gate; ``renderer`` (the viewer's
    screenshots) defaults to software renders."""
    mesh = state.mesh
    if mesh is None:
        raise ValueError("there is no model to export")
    folder = new_folder(workspace, exports, mesh.name)
    glb = f"{folder}/{safe_name(mesh.name)}.glb"
    workspace.write_bytes(glb, glb_bytes(state, extras={"prompt": prompt or ""}), overwrite=False)
    renderer = renderer or software_renderer(state)
    renders = []
    for view, (azimuth, elevation) in VIEWS.items():
        image = np.asarray(renderer(view, azimuth, elevation))
        path = f"{folder}/render_{view}.png"
        png = encode_png(np.ascontiguousarray(image[..., :3]).astype(np.uint8))
        workspace.write_bytes(path, png, overwrite=False)
        renders.append(path)
    files = {"glb": glb.rsplit("/", 1)[-1], "renders": [p.rsplit("/", 1)[-1] for p in renders]}
    meta = f"{folder}/metadata.json"
    document = metadata(state, prompt, files)
    workspace.write_text(meta, json.dumps(document, indent=2), overwrite=False)
    return Exported(
        folder, glb, renders, meta, state.segment_count, [m["material"]["name"] for m in document["segments"]]
    )
