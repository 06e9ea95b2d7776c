"""Importing models people have: every format trimesh reads, cleaned on import with the repair said,
and every declared size checked against a limit before anything is allocated for it."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import HIGH_WATER
from support.mesh_shapes import instanced, sphere_glb

from napari_talk.core.running.session import Session
from napari_talk.packs.mesh.importers import MeshFileError, import_bytes
from napari_talk.packs.mesh.limits import MeshLimits

trimesh = pytest.importorskip("trimesh")


def _box_written_badly() -> trimesh.Trimesh:
    """A closed box as careless exporters write it: every face twice (the copy flipped, as
    double-sided exports do), one face with no area, and unshared corners."""
    box = trimesh.creation.box()
    faces = np.concatenate([box.faces, box.faces[:, ::-1], [[0, 0, 1]]])
    soup = box.vertices[faces.reshape(-1)]
    return trimesh.Trimesh(soup, np.arange(len(soup)).reshape(-1, 3), process=False)


def _text(exported: str | bytes) -> bytes:
    return exported.encode() if isinstance(exported, str) else exported


FORMATS = [
    ("box.stl", lambda m: m.export(file_type="stl")),
    ("box_ascii.stl", lambda m: _text(m.export(file_type="stl_ascii"))),
    ("box.ply", lambda m: m.export(file_type="ply")),
    ("box_ascii.ply", lambda m: m.export(file_type="ply", encoding="ascii")),
    ("box.off", lambda m: m.export(file_type="off").encode()),
    ("box.obj", lambda m: m.export(file_type="obj").encode()),
    ("box.glb", lambda m: m.export(file_type="glb")),
]


@pytest.mark.parametrize("name, write", FORMATS, ids=[name for name, _ in FORMATS])
def test_every_format_imports_cleaned_and_the_reply_says_what_was_repaired(workspace, name, write):
    (workspace / "models").mkdir()
    (workspace / "models" / name).write_bytes(write(_box_written_badly()))
    session = Session(None, workspace=workspace)
    result = session.execute({"action": "import_model", "path": f"models/{name}"})
    assert result.ok, result.message
    mesh = session.state("mesh").model.mesh
    assert mesh.n_faces == 12 and mesh.is_watertight and mesh.volume > 0
    assert result.data["repair"]["duplicate_faces"] == 12
    assert result.data["repair"]["degenerate_faces"] == 1
    assert "cleaned on import:" in result.message and "dropped 12 duplicate faces and 1 degenerate face" in (
        result.message
    )


def test_a_clean_file_says_nothing_about_repairs(workspace):
    (workspace / "ball.off").write_bytes(
        trimesh.creation.icosphere(subdivisions=2).export(file_type="off").encode()
    )
    session = Session(None, workspace=workspace)
    result = session.execute({"action": "import_model", "path": "ball.off"})
    assert result.ok and "cleaned" not in result.message and result.data["repair"]["welded_vertices"] == 0


def _limits(**values: int) -> MeshLimits:
    return MeshLimits(**values)


def _glb_with_nodes(nodes: int, instancing: int = 0) -> bytes:
    """A 12-face box shown by ``nodes`` nodes (or one node instanced ``instancing`` times)."""
    data = trimesh.creation.box().export(file_type="glb")
    (length,) = struct.unpack_from("<I", data, 12)
    document = json.loads(data[20 : 20 + length])
    binary = data[20 + length :]
    if instancing:
        document["accessors"].append({"componentType": 5126, "count": instancing, "type": "VEC3"})
        document["nodes"] = [{"mesh": 0, "extensions": {"EXT_mesh_gpu_instancing": {
            "attributes": {"TRANSLATION": len(document["accessors"]) - 1}}}}]  # fmt: skip
        document["extensionsUsed"] = ["EXT_mesh_gpu_instancing"]
    else:
        document["nodes"] = [{"mesh": 0, "translation": [i * 2.0, 0, 0]} for i in range(nodes)]
    document["scenes"] = [{"nodes": list(range(len(document["nodes"])))}]
    text = json.dumps(document).encode()
    text += b" " * (-len(text) % 4)
    body = struct.pack("<II", len(text), 0x4E4F534A) + text + binary
    return b"glTF" + struct.pack("<II", 2, 12 + len(body)) + body


def _ply_header(vertices: int, faces: int) -> bytes:
    return (
        f"ply\nformat binary_little_endian 1.0\nelement vertex {vertices}\nproperty float x\n"
        f"property float y\nproperty float z\nelement face {faces}\nproperty list uchar int vertex_indices\n"
        "end_header\n"
    ).encode() + bytes(64)


HOSTILE = [
    ("huge.ply", _ply_header(1_000_000_000, 1), "max_vertices", "NAPARI_TALK_MESH_MAX_VERTICES"),
    ("huge.off", b"OFF\n10 3000000000 0\n0 0 0\n", "max_faces", "NAPARI_TALK_MESH_MAX_FACES"),
    ("shared.glb", _glb_with_nodes(200), "max_faces", "NAPARI_TALK_MESH_MAX_FACES"),
    ("instanced.glb", _glb_with_nodes(1, instancing=100), "max_faces", "NAPARI_TALK_MESH_MAX_FACES"),
]


@pytest.mark.parametrize("name, data, limit, variable", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_declared_sizes_over_a_limit_are_refused_naming_it_and_how_to_raise_it(name, data, limit, variable):
    with pytest.raises(MeshFileError) as refused:
        import_bytes(data, name, _limits(max_faces=1000, max_vertices=100_000))
    assert limit in str(refused.value) and variable in str(refused.value)


def test_a_limit_is_a_setting_raised_by_its_variable(workspace, monkeypatch):
    (workspace / "shared.glb").write_bytes(_glb_with_nodes(200))  # 2,400 faces
    monkeypatch.setenv("NAPARI_TALK_MESH_MAX_FACES", "1000")
    session = Session(None, workspace=workspace)
    refused = session.execute({"action": "import_model", "path": "shared.glb"})
    assert not refused.ok and "NAPARI_TALK_MESH_MAX_FACES=2400" in refused.message
    assert session.state("mesh").model.mesh is None, "a refused import changes nothing"
    monkeypatch.setenv("NAPARI_TALK_MESH_MAX_FACES", "2400")
    accepted = session.execute({"action": "import_model", "path": "shared.glb"})
    assert accepted.ok and session.state("mesh").model.mesh.n_faces == 2400


def test_accessors_claiming_more_than_their_buffer_are_refused():
    data = bytearray(_glb_with_nodes(1))
    (length,) = struct.unpack_from("<I", data, 12)
    document = json.loads(bytes(data[20 : 20 + length]))
    document["accessors"][0]["count"] *= 1000
    text = json.dumps(document).encode()
    text += b" " * (-len(text) % 4)
    body = struct.pack("<II", len(text), 0x4E4F534A) + text + bytes(data[20 + length :])
    forged = b"glTF" + struct.pack("<II", 2, 12 + len(body)) + body
    with pytest.raises(MeshFileError, match="more than its buffer view"):
        import_bytes(forged, "forged.glb")


def test_a_gltf_that_points_at_other_files_is_refused(workspace):
    document = {"asset": {"version": "2.0"}, "buffers": [{"uri": "../../etc/passwd", "byteLength": 10}]}
    (workspace / "outside.gltf").write_text(json.dumps(document))
    turn = Session(None, workspace=workspace).execute({"action": "import_model", "path": "outside.gltf"})
    assert not turn.ok and "separate files" in turn.message


def _shared_by_nodes(document, binary: bytes) -> bytes:
    """50,000 nodes sharing the mesh: ~30 GB if each were made."""
    document["nodes"] = [{"mesh": 0}] * 50_000
    document["scenes"] = [{"nodes": list(range(50_000))}]
    return binary


@pytest.mark.parametrize("change", [_shared_by_nodes, instanced], ids=["shared-by-nodes", "instanced"])
def test_a_small_gltf_asking_for_gigabytes_is_refused_within_a_memory_limit(tmp_path, change):
    """A GLB of a few MB whose nodes or instances would need tens of gigabytes: under a 1.5 GB
    address-space limit the import refuses it from the counts (the default limits), its peak
    memory growing by less than 100 MB."""
    path = tmp_path / "bomb.glb"
    path.write_bytes(sphere_glb(change))
    assert path.stat().st_size < 3_000_000
    script = HIGH_WATER + textwrap.dedent(
        f"""
        import resource
        from napari_talk.packs.mesh.importers import MeshFileError, import_bytes
        data = open({str(path)!r}, "rb").read()
        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
        print("before KiB", hwm())
        try:
            import_bytes(data, "bomb.glb")
        except MeshFileError as exc:
            print("refused:", exc)
        print("peak KiB", hwm())
        """
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "refused:" in run.stdout and "max_faces" in run.stdout, run.stdout
    before = int(run.stdout.split("before KiB", 1)[1].split()[0])
    peak = int(run.stdout.rsplit("peak KiB", 1)[1])
    assert peak - before < 100_000, f"the import grew the peak by {peak - before} KiB"
