"""Small model files that ask a reader for far more than their size: built here, byte by byte, for
the tests and for ``benchmarks/hostile_inputs.py``."""

from __future__ import annotations

import json
import struct
import zlib

import numpy as np


def textured_glb(side: int = 30_016) -> bytes:
    """One triangle, shown twice, whose material has an embedded PNG of ``side`` × ``side`` RGBA
    pixels (3.6 GB decoded at the default side, 3.5 MB stored: every row is zeros; ``side`` a
    multiple of 64). Joining the two copies into one mesh packs their textures: decoded."""
    png = _blank_png(side)
    positions = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32).tobytes()
    uvs = np.array([[0, 0], [1, 0], [0, 1]], np.float32).tobytes()
    binary = positions + uvs + png + b"\x00" * (-len(png) % 4)
    document = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [{"mesh": 0}, {"mesh": 0, "translation": [2, 0, 0]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "material": 0}]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
        "textures": [{"source": 0}],
        "images": [{"bufferView": 2, "mimeType": "image/png"}],
        "buffers": [{"byteLength": len(binary)}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 36},
            {"buffer": 0, "byteOffset": 36, "byteLength": 24},
            {"buffer": 0, "byteOffset": 60, "byteLength": len(png)},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
             "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"},
        ],
    }  # fmt: skip
    return glb(document, binary)


def glb(document: dict, binary: bytes) -> bytes:
    text = json.dumps(document).encode()
    text += b" " * (-len(text) % 4)
    total = 12 + 8 + len(text) + 8 + len(binary)
    return (
        struct.pack("<4sII", b"glTF", 2, total)
        + struct.pack("<II", len(text), 0x4E4F534A)
        + text
        + struct.pack("<II", len(binary), 0x004E4942)
        + binary
    )


def _blank_png(side: int) -> bytes:
    def chunk(kind: bytes, payload: bytes) -> bytes:
        checksum = struct.pack(">I", zlib.crc32(kind + payload))
        return struct.pack(">I", len(payload)) + kind + payload + checksum

    # 64 blank rows compressed once after a full flush (which resets the compressor, so the same
    # input gives the same bytes), repeated; the stream's checksum computed over all the rows
    block = b"\x00" * (1 + 4 * side) * 64
    packer = zlib.compressobj(9)
    first = packer.compress(block) + packer.flush(zlib.Z_FULL_FLUSH)
    again = packer.compress(block) + packer.flush(zlib.Z_FULL_FLUSH)
    end = packer.flush()[:-4]  # the final empty block, without the two blocks' checksum
    checksum = 1
    for _ in range(side // 64):
        checksum = zlib.adler32(block, checksum)
    pixels = first + again * (side // 64 - 1) + end + struct.pack(">I", checksum)
    header = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def obj_one_face(corners: int = 15_000_000) -> bytes:
    """Three vertices and one face line of ``corners`` corners (30 MB at the default)."""
    return b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf " + b"1 2 3 " * (corners // 3) + b"\n"


def ply_one_face(indices: int = 10_000_000) -> bytes:
    """A binary PLY of three vertices and one face listing ``indices`` indices (40 MB)."""
    header = (
        b"ply\nformat binary_little_endian 1.0\nelement vertex 3\n"
        b"property float x\nproperty float y\nproperty float z\n"
        b"element face 1\nproperty list uint int vertex_indices\nend_header\n"
    )
    vertices = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], "<f4").tobytes()
    listing = np.tile(np.array([0, 1, 2], "<i4"), indices // 3 + 1)[:indices].tobytes()
    return header + vertices + struct.pack("<I", indices) + listing


def ascii_ply_one_face(indices: int = 5_000_000) -> bytes:
    header = (
        b"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
        b"element face 1\nproperty list uint int vertex_indices\nend_header\n"
    )
    return header + b"0 0 0\n1 0 0\n0 1 0\n" + f"{indices} ".encode() + b"0 1 2 " * (indices // 3) + b"\n"


def off_one_face(corners: int = 5_000_000) -> bytes:
    return b"OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n" + f"{corners} ".encode() + b"0 1 2 " * (corners // 3) + b"\n"


def fan_obj(faces: int = 50_000) -> bytes:
    """A flat disc of ``faces`` slivers around one centre vertex: every triangle meets the centre,
    so a uniform grid's centre cell lists them all."""
    angles = np.linspace(0, 2 * np.pi, faces, endpoint=False)
    ring = "".join(f"v {np.cos(a):.9f} {np.sin(a):.9f} 0\n" for a in angles)
    corners = "".join(f"f 1 {i + 2} {(i + 1) % faces + 2}\n" for i in range(faces))
    return ("v 0 0 0\n" + ring + corners).encode()


def deep_gltf(depth: int = 200_000) -> bytes:
    """A .gltf whose JSON nests ``depth`` arrays deep inside an extras field."""
    return b'{"asset": {"version": "2.0", "extras": ' + b"[" * depth + b"]" * depth + b"}}"
