"""A fixed budget of Hypothesis-made model files through the import a person uses: every one must
import or be refused in one sentence (``MeshFileError``), never crash with another exception.

    python benchmarks/mesh_reader_fuzz.py              # 300 files per format
    python benchmarks/mesh_reader_fuzz.py --examples 50

Files are small valid OBJ, PLY (ASCII and binary), STL (ASCII and binary), OFF and glTF/GLB models
with Hypothesis's changes: counts, polygon sizes and indices drawn freely, then bytes flipped, cut
or repeated. The figure printed is files crash-free of files tried, per format, and the slowest
import. A file whose import logs a traceback (a reader's warning with its trace, which the person
would see on the console) counts as a crash.
"""

from __future__ import annotations

import argparse
import base64
import json
import logging
import struct
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.hostile_meshes import glb

from napari_talk.packs.mesh.importers import MeshFileError, import_bytes
from napari_talk.packs.mesh.limits import MeshLimits

LIMITS = MeshLimits(max_faces=20_000, max_vertices=20_000, max_file_mb=4)
"""Small limits, so a file Hypothesis makes large is refused rather than imported slowly."""

coordinates = st.lists(
    st.tuples(*[st.integers(-9, 9).map(float) | st.floats(-1e6, 1e6)] * 3), min_size=3, max_size=12
).map(lambda points: [*points, (float("nan"), 0.0, 0.0)] if len(points) == 11 else points)
"""Mostly small integer points (so faces have area); one file in nine has a NaN point."""
polygons = st.lists(
    st.lists(st.integers(0, 11), min_size=3, max_size=5, unique=True)
    | st.lists(st.integers(-3, 15), max_size=9),
    max_size=12,
)
"""Indices from 0 (1 in OBJ): mostly in range, sometimes not."""


@st.composite
def obj_files(draw) -> bytes:
    lines = [f"v {x} {y} {z}" for x, y, z in draw(coordinates)]
    lines += ["f " + " ".join(str(i + 1) for i in face) for face in draw(polygons)]
    lines += draw(
        st.lists(st.sampled_from(["o part", "g", "vn 0 0 1", "vt 0 0", "f", "f 1/1/1 2//2 3", "\\"]))
    )
    return "\n".join(lines if draw(st.booleans()) else draw(st.permutations(lines))).encode()


@st.composite
def ply_files(draw) -> bytes:
    vertices, faces = draw(coordinates), draw(polygons)
    declared_v = draw(st.one_of(st.just(len(vertices)), st.integers(0, 10**7)))
    declared_f = draw(st.one_of(st.just(len(faces)), st.integers(0, 10**7)))
    count_type = draw(st.sampled_from(["uchar", "ushort", "uint", "int", "char"]))
    binary = draw(st.booleans())
    header = (
        f"ply\nformat {'binary_little_endian' if binary else 'ascii'} 1.0\nelement vertex {declared_v}\n"
        f"property float x\nproperty float y\nproperty float z\nelement face {declared_f}\n"
        f"property list {count_type} int vertex_indices\nend_header\n"
    ).encode()
    if not binary:
        body = "".join(f"{x} {y} {z}\n" for x, y, z in vertices)
        body += "".join(f"{len(f)} {' '.join(map(str, f))}\n" for f in faces)
        return header + body.encode()
    code = {"uchar": "B", "ushort": "H", "uint": "I", "int": "i", "char": "b"}[count_type]
    out = b"".join(struct.pack("<3f", *(min(max(c, -3e38), 3e38) for c in v)) for v in vertices)
    for face in faces:
        size = min(len(face), 127)
        out += struct.pack(f"<{code}", size) + struct.pack(f"<{size}i", *face[:size])
    return header + out


@st.composite
def stl_files(draw) -> bytes:
    """Triangles of drawn corners (some not finite); binary with a drawn declared count, or ASCII
    with facets and loops of any length, keywords dropped or repeated."""
    points = draw(coordinates)
    triangles = [
        [points[i % len(points)] for i in face[:3]] for face in draw(polygons) if len(face) >= 3
    ] or [points[:3]]
    if draw(st.booleans()):
        declared = draw(st.one_of(st.just(len(triangles)), st.integers(0, 2**32 - 1)))
        header = draw(st.sampled_from([b"\0" * 80, b"solid binary but not ascii".ljust(80, b" ")]))
        out = header + struct.pack("<I", declared)
        for triangle in triangles:
            corners = [min(max(c, -3e38), 3e38) for corner in triangle for c in corner]
            out += struct.pack("<12fH", 0.0, 0.0, 1.0, *corners, draw(st.integers(0, 65535)))
        return out
    lines = [draw(st.sampled_from(["solid part", "solid", "solid  ", "SOLID x"]))]
    for triangle in triangles:
        corners = triangle if draw(st.integers(0, 9)) else triangle * draw(st.integers(0, 3))
        lines += ["facet normal 0 0 1", "outer loop"]
        lines += [f"vertex {x} {y} {z}" for x, y, z in corners]
        lines += draw(st.sampled_from([["endloop", "endfacet"], ["endloop"], [], ["endfacet", "endfacet"]]))
    lines += draw(st.sampled_from([["endsolid part"], [], ["endsolid", "solid again"]]))
    return "\n".join(lines).encode()


@st.composite
def off_files(draw) -> bytes:
    """An OFF header with drawn counts (declared or not what follows), the counts on the header's
    line or the next, comments and blank lines, colours after a face's indices."""
    vertices, faces = draw(coordinates), draw(polygons)
    declared_v = draw(st.sampled_from([len(vertices)] * 4) | st.integers(-2, 10**9))
    declared_f = draw(st.sampled_from([len(faces)] * 4) | st.integers(-2, 10**9))
    counts = f"{declared_v} {declared_f} {draw(st.sampled_from(['0', '0', '-1', '', '99999999999']))}"
    head = draw(
        st.sampled_from(["OFF\n" + counts, "OFF " + counts, "COFF\n" + counts, "# made\nOFF\n" + counts])
    )
    lines = [head, *draw(st.lists(st.sampled_from(["", "# a comment"]), max_size=2))]
    lines += [f"{x} {y} {z}" for x, y, z in vertices]
    colour = draw(st.sampled_from(["", "", " 255 0 0", " 1.0 0.5 0.5 1.0"]))
    wrong = draw(st.integers(0, 3)) == 0  # one file in four says a wrong size for some faces
    sizes = [draw(st.sampled_from([len(f), len(f) + 3, 0])) if wrong else len(f) for f in faces]
    lines += [f"{size} {' '.join(map(str, f))}{colour}" for size, f in zip(sizes, faces, strict=True)]
    return "\n".join(lines).encode()


@st.composite
def gltf_files(draw) -> bytes:
    count = draw(st.integers(3, 12) | st.integers(0, 2))
    points = draw(st.lists(st.integers(-9, 9), min_size=3 * count, max_size=3 * count))
    positions = struct.pack(f"<{3 * count}f", *map(float, points))
    indices = draw(st.lists(st.integers(0, 11), min_size=3, max_size=12) | st.lists(st.integers(0, 20)))
    index_bytes = struct.pack(f"<{len(indices)}I", *indices)
    binary = positions + index_bytes
    accessor_count = draw(st.one_of(st.just(count), st.integers(-2, 10**9)))
    mode = draw(st.sampled_from([4, 4, 4, 0, 1, 5, 6]))
    document = {
        "asset": {"version": "2.0"},
        "scene": draw(st.sampled_from([0, 0, 0, 1])),
        "scenes": [{"nodes": draw(st.just([0]) | st.lists(st.integers(-1, 3), max_size=3))}],
        "nodes": [{"mesh": 0, "children": draw(st.just([]) | st.lists(st.integers(0, 2), max_size=3))}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "mode": mode}]}],
        "buffers": [{"byteLength": len(binary)}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": len(positions)},
            {"buffer": 0, "byteOffset": len(positions), "byteLength": len(index_bytes)},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": accessor_count, "type": "VEC3"},
            {"bufferView": 1, "componentType": draw(st.sampled_from([5125, 5125, 5125, 5121, 5123, 5126])),
             "count": len(indices), "type": "SCALAR"},
        ],
    }  # fmt: skip
    if draw(st.booleans()):
        depth = draw(st.integers(1, 100_000))
        document["asset"]["extras"] = json.loads("[" * min(depth, 500) + "]" * min(depth, 500))
    if draw(st.booleans()):
        return glb(document, binary)
    encoded = base64.b64encode(binary).decode()
    document["buffers"][0]["uri"] = f"data:application/octet-stream;base64,{encoded}"
    return json.dumps(document).encode()


@st.composite
def mangled(draw, files: st.SearchStrategy[bytes]) -> bytes:
    """A file, then perhaps bytes flipped, a cut or a stretch repeated."""
    data = bytearray(draw(files))
    for _ in range(draw(st.sampled_from([0, 0, 1, 2, 3]))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        change = draw(st.sampled_from(["flip", "cut", "repeat"]))
        if change == "flip":
            data[at] = draw(st.integers(0, 255))
        elif change == "cut":
            del data[at:]
        else:
            data[at:at] = data[at : at + 16] * draw(st.integers(1, 64))
    return bytes(data)


FORMATS: dict[str, tuple[st.SearchStrategy[bytes], str]] = {
    "obj": (mangled(obj_files()), "fuzz.obj"),
    "ply": (mangled(ply_files()), "fuzz.ply"),
    "stl": (mangled(stl_files()), "fuzz.stl"),
    "off": (mangled(off_files()), "fuzz.off"),
    "gltf": (mangled(gltf_files()), "fuzz.glb"),
}


class _Traces(logging.Handler):
    """Log records that carry a traceback (seen after the loggers' own filters)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.exc_text:
            self.records.append(record)


def fuzz(name: str, examples: int) -> tuple[int, int, int, float, list[str]]:
    """Files tried, imported, refused; the slowest import; the crashes (the first few)."""
    files, suffix = FORMATS[name]
    tally = {"tried": 0, "imported": 0, "refused": 0, "slowest": 0.0}
    crashes: list[str] = []
    traces = _Traces()
    logging.getLogger().addHandler(traces)

    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(files)
    def one(data: bytes) -> None:
        kind = suffix if not (name == "gltf" and data[:4] != b"glTF") else "fuzz.gltf"
        started = time.perf_counter()
        tally["tried"] += 1
        traces.records.clear()
        try:
            import_bytes(data, kind, LIMITS)
            tally["imported"] += 1
        except MeshFileError:
            tally["refused"] += 1
        except Exception:
            crashes.append(traceback.format_exc(limit=3).strip().splitlines()[-1])
        else:
            crashes.extend(f"traceback logged by {r.name}: {r.getMessage()}" for r in traces.records[:1])
        tally["slowest"] = max(tally["slowest"], time.perf_counter() - started)

    try:
        one()
    finally:
        logging.getLogger().removeHandler(traces)
    return int(tally["tried"]), int(tally["imported"]), int(tally["refused"]), tally["slowest"], crashes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300, help="files per format (default 300)")
    parser.add_argument("formats", nargs="*", default=list(FORMATS))
    args = parser.parse_args()
    run: Callable[[str, int], tuple[int, int, int, float, list[str]]] = fuzz
    import trimesh  # noqa: F401  (imported before the clock starts: seconds on a first import)

    for name in args.formats:
        tried, imported, refused, slowest, crashes = run(name, args.examples)
        clean = tried - len(crashes)
        print(
            f"{name:<5} {clean}/{tried} crash-free ({imported} imported, {refused} refused in a sentence); "
            f"slowest {slowest:.2f} s"
        )
        for crash in sorted(set(crashes))[:5]:
            print(f"      crash: {crash}")


if __name__ == "__main__":
    main()
