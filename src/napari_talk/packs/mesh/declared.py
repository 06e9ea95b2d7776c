"""What a model file says it holds, counted from its header (or glTF's JSON) before any reader
allocates for it, and refused when over the limits.

A file may declare far more than its bytes hold (a PLY header asking for a billion vertices) or
multiply a small mesh many times (glTF nodes sharing a mesh, ``EXT_mesh_gpu_instancing``): both
are caught here, from counts alone.
"""

from __future__ import annotations

import json
import re
import struct
from typing import Any

from .corners import CornerError, obj_triangles, off_triangles, ply_triangles
from .limits import MeshLimits


class DeclaredError(ValueError):
    """The file is malformed or declares more than the limits allow (the message says which)."""


def check(data: bytes, kind: str, limits: MeshLimits) -> None:
    """Raise :class:`DeclaredError` when ``data`` (a ``kind`` file) declares more than ``limits``."""
    counter = _COUNTERS.get(kind)
    if counter is None:
        return
    try:
        faces, vertices = counter(data, limits)
    except CornerError as exc:
        raise DeclaredError(str(exc)) from None
    _within(faces, vertices, limits)


def _within(faces: int, vertices: int, limits: MeshLimits) -> None:
    if faces > limits.max_faces:
        raise DeclaredError(limits.refusal("faces", faces, "max_faces"))
    if vertices > limits.max_vertices:
        raise DeclaredError(limits.refusal("vertices", vertices, "max_vertices"))


def _stl(data: bytes, _limits: MeshLimits) -> tuple[int, int]:
    if len(data) >= 84:
        (count,) = struct.unpack_from("<I", data, 80)
        if 84 + 50 * count == len(data):
            return count, 3 * count
    if data.lstrip()[:5].lower() == b"solid":
        faces = data.count(b"endfacet")
        return faces, 3 * faces
    raise DeclaredError(
        "it is neither an ASCII STL (starting with 'solid') nor a binary one of the size it declares"
    )


def _ply(data: bytes, limits: MeshLimits) -> tuple[int, int]:
    """Declared faces and vertices, then (when those pass) the triangles the face lists fan out to."""
    end = data.find(b"end_header", 0, 65536)
    if not data.startswith(b"ply") or end < 0:
        raise DeclaredError("it has no PLY header ('ply' ... 'end_header')")
    counts = dict.fromkeys(("vertex", "face"), 0)
    for name, number in re.findall(rb"^element\s+(\w+)\s+(\d+)", data[:end], flags=re.MULTILINE):
        counts[name.decode("ascii", "replace")] = int(number)
    _within(counts["face"], counts["vertex"], limits)
    return max(counts["face"], ply_triangles(data, end, limits.max_faces)), counts["vertex"]


def _off(data: bytes, limits: MeshLimits) -> tuple[int, int]:
    head = re.sub(rb"#[^\n]*", b"", data[:4096]).split()
    if not head or not head[0].endswith(b"OFF"):
        raise DeclaredError("it does not start with an OFF header")
    try:
        vertices, faces = int(head[1]), int(head[2])
    except (IndexError, ValueError):
        raise DeclaredError("its OFF header does not give the vertex and face counts") from None
    _within(faces, vertices, limits)
    return max(faces, off_triangles(data, _off_body(data), vertices, faces)), vertices


def _off_body(data: bytes) -> int:
    """Where the vertex lines start: after the line that completes the counts."""
    numbers = 0
    for line in re.finditer(rb"[^\n]*\n", data[:4096]):
        words = re.sub(rb"#.*", b"", line.group()).split()
        numbers += len(words[1:] if words and words[0].endswith(b"OFF") else words)
        if numbers >= 2:
            return line.end()
    return 0


def _obj(data: bytes, limits: MeshLimits) -> tuple[int, int]:
    """Vertex lines, and the triangles the face lines fan out to (stopping once over the limit)."""
    vertices = data.count(b"\nv ") + data.startswith(b"v ")
    if vertices > limits.max_vertices:
        return 0, vertices
    return obj_triangles(data, limits.max_faces), vertices


def _gltf(data: bytes, limits: MeshLimits) -> tuple[int, int]:
    document = _gltf_json(data)
    try:
        return _gltf_counts(document, limits)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, DeclaredError):
            raise
        raise DeclaredError(f"its glTF structure is broken ({type(exc).__name__}: {exc})") from None


def _gltf_json(data: bytes) -> dict[str, Any]:
    if data[:4] == b"glTF":
        if len(data) < 20:
            raise DeclaredError("it is a truncated GLB")
        length, kind = struct.unpack_from("<II", data, 12)
        if kind != 0x4E4F534A or 20 + length > len(data):
            raise DeclaredError("its GLB has no JSON chunk of the length it declares")
        text = data[20 : 20 + length]
    else:
        text = data
    try:
        document = json.loads(text)
    except (UnicodeDecodeError, ValueError) as exc:
        raise DeclaredError(f"its glTF JSON cannot be read ({exc})") from None
    except RecursionError:
        raise DeclaredError("its glTF JSON nests deeper than a reader can follow") from None
    if not isinstance(document, dict):
        raise DeclaredError("its glTF JSON is not an object")
    return document


def _gltf_counts(document: dict[str, Any], limits: MeshLimits) -> tuple[int, int]:
    """Faces and vertices of the default scene, every node counted as often as it is reached,
    times the instances ``EXT_mesh_gpu_instancing`` asks for."""
    accessors = document.get("accessors", [])
    views = document.get("bufferViews", [])
    for number, accessor in enumerate(accessors):
        _check_accessor(number, accessor, views, limits)
    mesh_size = []
    for mesh in document.get("meshes", []):
        faces = vertices = 0
        for primitive in mesh.get("primitives", []):
            count = int(accessors[primitive["attributes"]["POSITION"]]["count"])
            corners = int(accessors[primitive["indices"]]["count"]) if "indices" in primitive else count
            mode = primitive.get("mode", 4)
            faces += corners // 3 if mode == 4 else max(corners - 2, 0) if mode in (5, 6) else 0
            vertices += count
        mesh_size.append((faces, vertices))
    nodes = document.get("nodes", [])
    scenes = document.get("scenes", [])
    roots = scenes[document.get("scene", 0)].get("nodes", []) if scenes else range(len(nodes))
    faces = vertices = visited = 0
    stack = [(int(root), 0) for root in roots]
    while stack:
        index, depth = stack.pop()
        visited += 1
        if visited > limits.max_nodes:
            raise DeclaredError(limits.refusal("scene nodes", visited, "max_nodes"))
        if depth > 64:
            raise DeclaredError("its scene nests nodes more than 64 deep (or in a loop)")
        node = nodes[index]
        if "mesh" in node:
            copies = 1
            instancing = node.get("extensions", {}).get("EXT_mesh_gpu_instancing")
            if instancing:
                attributes = instancing.get("attributes", {})
                copies = max((int(accessors[a]["count"]) for a in attributes.values()), default=1)
            size = mesh_size[node["mesh"]]
            faces += copies * size[0]
            vertices += copies * size[1]
        stack.extend((int(child), depth + 1) for child in node.get("children", []))
    return faces, vertices


_COMPONENT_BYTES = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}


def _check_accessor(
    number: int, accessor: dict[str, Any], views: list[dict[str, Any]], limits: MeshLimits
) -> None:
    """An accessor may not claim more elements than its buffer view holds, nor (without one, all
    zeros that a reader would allocate) more than a model of the largest size needs."""
    count = int(accessor.get("count", 0))
    if count < 0:
        raise DeclaredError(f"accessor {number} declares a negative count")
    if count > 3 * limits.max_faces:
        what = "faces' worth of elements in one accessor"
        raise DeclaredError(limits.refusal(what, count // 3, "max_faces"))
    if "bufferView" not in accessor:
        return  # all zeros (or sparse): nothing to read, trimesh allocates count × width
    view = views[accessor["bufferView"]]
    component = _COMPONENT_BYTES.get(int(accessor.get("componentType", 5126)), 4)
    element = component * _WIDTH.get(str(accessor.get("type", "SCALAR")), 1)
    stride = int(view.get("byteStride") or element)
    needed = int(accessor.get("byteOffset", 0)) + (stride * (count - 1) + element if count else 0)
    if needed > int(view.get("byteLength", 0)):
        raise DeclaredError(
            f"accessor {number} declares {count:,} elements, more than its buffer view's "
            f"{int(view.get('byteLength', 0)):,} bytes hold"
        )


_COUNTERS = {"stl": _stl, "ply": _ply, "off": _off, "obj": _obj, "glb": _gltf, "gltf": _gltf}
