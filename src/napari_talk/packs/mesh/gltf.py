"""Binary glTF 2.0 (.glb) written and read with numpy and the standard library.

A GLB is a 12-byte header, a JSON chunk and a binary chunk; our models need only positions,
normals, indices and metallic-roughness materials, so a library would add a dependency and
hide nothing difficult. Files are checked in the tests by an independent reader (trimesh) and,
where Node is installed, by the Khronos glTF validator.

The reader handles what mesh generators (ComfyUI's SaveGLB, Blender, trimesh) write: indexed or
plain triangle lists of any index width, interleaved buffer views, and node transforms.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .materials import Material

MAGIC = b"glTF"
JSON_CHUNK = 0x4E4F534A
BIN_CHUNK = 0x004E4942
FLOAT, UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT = 5126, 5121, 5123, 5125
ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER = 34962, 34963
TRIANGLES = 4
_COMPONENT = {
    5120: np.int8,
    5121: np.uint8,
    5122: np.int16,
    5123: np.uint16,
    5125: np.uint32,
    5126: np.float32,
}
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


class GltfError(ValueError):
    """A file that is not a glTF 2.0 binary this reader understands."""


@dataclass
class Primitive:
    positions: np.ndarray
    normals: np.ndarray | None
    indices: np.ndarray
    """Flat triangle list."""
    material: int | None = None
    extras: dict[str, Any] = field(default_factory=dict)


class _Buffer:
    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.length = 0
        self.views: list[dict[str, Any]] = []
        self.accessors: list[dict[str, Any]] = []

    def add(self, array: np.ndarray, kind: str, component: int, target: int, bounds: bool = False) -> int:
        data = np.ascontiguousarray(array).tobytes()
        self.views.append({"buffer": 0, "byteOffset": self.length, "byteLength": len(data), "target": target})
        padding = (-len(data)) % 4
        self.parts.append(data + b"\x00" * padding)
        self.length += len(data) + padding
        accessor: dict[str, Any] = {
            "bufferView": len(self.views) - 1,
            "componentType": component,
            "count": len(array),
            "type": kind,
        }
        if bounds:
            accessor["min"] = [float(v) for v in array.min(axis=0)]
            accessor["max"] = [float(v) for v in array.max(axis=0)]
        self.accessors.append(accessor)
        return len(self.accessors) - 1


def material_json(material: Material, double_sided: bool) -> dict[str, Any]:
    emissive = [float(min(max(c, 0.0), 1.0)) for c in material.emissive]
    out: dict[str, Any] = {
        "name": material.name,
        "pbrMetallicRoughness": {
            "baseColorFactor": [*(float(c) for c in material.base_color), float(material.alpha)],
            "metallicFactor": float(material.metallic),
            "roughnessFactor": float(material.roughness),
        },
        "doubleSided": double_sided,
    }
    if any(emissive):
        out["emissiveFactor"] = emissive
        if material.emissive_strength != 1.0:
            strength = {"emissiveStrength": float(material.emissive_strength)}
            out["extensions"] = {"KHR_materials_emissive_strength": strength}
    if material.alpha < 1.0:
        out["alphaMode"] = "BLEND"  # what viewers without transmission show
        ior = REFRACTIVE_INDEX.get(material.category)
        if ior is not None:  # light passes through (glass, water, gems), not only around
            extensions = out.setdefault("extensions", {})
            extensions["KHR_materials_transmission"] = {"transmissionFactor": round(1.0 - material.alpha, 3)}
            extensions["KHR_materials_ior"] = {"ior": ior}
    return out


REFRACTIVE_INDEX = {"glass": 1.5, "liquid": 1.33, "gem": 1.6}
"""Categories whose see-through materials transmit light, and their index of refraction."""


def encode_glb(
    primitives: list[Primitive],
    materials: list[Material],
    *,
    name: str = "model",
    double_sided: bool = False,
    extras: dict[str, Any] | None = None,
) -> bytes:
    """One mesh of the given primitives in one node, as GLB bytes."""
    buffer = _Buffer()
    json_primitives = []
    for primitive in primitives:
        attributes = {
            "POSITION": buffer.add(primitive.positions.astype(np.float32), "VEC3", FLOAT, ARRAY_BUFFER, True)
        }
        if primitive.normals is not None:
            attributes["NORMAL"] = buffer.add(
                primitive.normals.astype(np.float32), "VEC3", FLOAT, ARRAY_BUFFER
            )
        small = len(primitive.positions) < 65536
        index_type = (np.uint16, UNSIGNED_SHORT) if small else (np.uint32, UNSIGNED_INT)
        indices = buffer.add(
            primitive.indices.astype(index_type[0]), "SCALAR", index_type[1], ELEMENT_ARRAY_BUFFER
        )
        entry: dict[str, Any] = {"attributes": attributes, "indices": indices, "mode": TRIANGLES}
        if primitive.material is not None:
            entry["material"] = primitive.material
        if primitive.extras:
            entry["extras"] = primitive.extras
        json_primitives.append(entry)
    document: dict[str, Any] = {
        "asset": {"version": "2.0", "generator": "napari-talk mesh pack"},
        "scene": 0,
        "scenes": [{"name": name, "nodes": [0]}],
        "nodes": [{"name": name, "mesh": 0}],
        "meshes": [{"name": name, "primitives": json_primitives}],
        "buffers": [{"byteLength": buffer.length}],
        "bufferViews": buffer.views,
        "accessors": buffer.accessors,
    }
    if materials:
        document["materials"] = [material_json(m, double_sided) for m in materials]
    used = sorted({name for m in document.get("materials", []) for name in m.get("extensions", {})})
    if used:
        document["extensionsUsed"] = used
    if extras:
        document["asset"]["extras"] = extras
    text = json.dumps(document, separators=(",", ":")).encode("utf-8")
    text += b" " * ((-len(text)) % 4)
    binary = b"".join(buffer.parts)
    total = 12 + 8 + len(text) + 8 + len(binary)
    return b"".join(
        [
            struct.pack("<4sII", MAGIC, 2, total),
            struct.pack("<II", len(text), JSON_CHUNK),
            text,
            struct.pack("<II", len(binary), BIN_CHUNK),
            binary,
        ]
    )


# -- reading --------------------------------------------------------------------------------------


def decode_glb(data: bytes) -> tuple[dict[str, Any], bytes]:
    """The JSON document and the binary chunk of GLB bytes."""
    if len(data) < 20 or data[:4] != MAGIC:
        raise GltfError("not a binary glTF file (no 'glTF' magic)")
    _, version, length = struct.unpack_from("<4sII", data)
    if version != 2:
        raise GltfError(f"glTF version {version} is not supported (only 2)")
    offset, document, binary = 12, None, b""
    while offset + 8 <= min(length, len(data)):
        size, kind = struct.unpack_from("<II", data, offset)
        chunk = data[offset + 8 : offset + 8 + size]
        if kind == JSON_CHUNK:
            try:
                document = json.loads(chunk.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError) as exc:
                raise GltfError(f"the file's JSON cannot be read ({type(exc).__name__})") from None
        elif kind == BIN_CHUNK:
            binary = chunk
        offset += 8 + size
    if document is None:
        raise GltfError("the file has no JSON chunk")
    return document, binary


def _accessor(document: dict[str, Any], binary: bytes, index: int) -> np.ndarray:
    accessor = document["accessors"][index]
    width = _WIDTH[accessor["type"]]
    dtype = np.dtype(_COMPONENT[accessor["componentType"]])
    count = accessor["count"]
    if "sparse" in accessor:
        raise GltfError("sparse accessors are not supported")
    if "bufferView" not in accessor or count == 0:
        return np.zeros((count, width), dtype)
    view = document["bufferViews"][accessor["bufferView"]]
    if view.get("buffer", 0) != 0:
        raise GltfError("only the GLB's own binary buffer is supported")
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    stride = view.get("byteStride") or dtype.itemsize * width
    raw = np.frombuffer(
        binary, dtype=np.uint8, count=stride * (count - 1) + dtype.itemsize * width, offset=start
    )
    rows = np.lib.stride_tricks.as_strided(raw, shape=(count, dtype.itemsize * width), strides=(stride, 1))
    values = np.ascontiguousarray(rows).view(dtype).reshape(count, width)
    if accessor.get("normalized") and dtype.kind in "iu":
        values = values.astype(np.float64) / np.iinfo(dtype).max  # type: ignore[type-var]
    return values


def _node_matrix(node: dict[str, Any]) -> np.ndarray:
    if "matrix" in node:
        return np.asarray(node["matrix"], float).reshape(4, 4).T
    t = np.eye(4)
    t[:3, 3] = node.get("translation", (0, 0, 0))
    x, y, z, w = node.get("rotation", (0, 0, 0, 1))
    r = np.eye(4)
    r[:3, :3] = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ]
    s = np.diag([*node.get("scale", (1, 1, 1)), 1.0])
    return t @ r @ s


def read_primitives(data: bytes) -> tuple[list[tuple[Primitive, np.ndarray]], dict[str, Any]]:
    """Every triangle primitive in the default scene with its world matrix, and the document."""
    document, binary = decode_glb(data)
    nodes = document.get("nodes", [])
    scenes = document.get("scenes") or [{"nodes": list(range(len(nodes)))}]
    roots = scenes[document.get("scene", 0)].get("nodes", [])
    found: list[tuple[Primitive, np.ndarray]] = []
    stack = [(i, np.eye(4)) for i in roots]
    seen = 0
    while stack:
        index, parent = stack.pop()
        seen += 1
        if seen > 100_000:
            raise GltfError("the node hierarchy does not end")
        node = nodes[index]
        matrix = parent @ _node_matrix(node)
        stack += [(child, matrix) for child in node.get("children", [])]
        if "mesh" not in node:
            continue
        for entry in document["meshes"][node["mesh"]]["primitives"]:
            if entry.get("mode", TRIANGLES) != TRIANGLES:
                continue
            if "KHR_draco_mesh_compression" in (entry.get("extensions") or {}):
                raise GltfError("Draco-compressed meshes are not supported; export without compression")
            positions = _accessor(document, binary, entry["attributes"]["POSITION"]).astype(np.float64)
            normals = entry["attributes"].get("NORMAL")
            if "indices" in entry:
                indices = _accessor(document, binary, entry["indices"]).reshape(-1).astype(np.int64)
            else:
                indices = np.arange(len(positions) - len(positions) % 3)
            primitive = Primitive(
                positions,
                None if normals is None else _accessor(document, binary, normals).astype(np.float64),
                indices,
                entry.get("material"),
                entry.get("extras", {}),
            )
            found.append((primitive, matrix))
    return found, document
