"""Export: a .glb read back by an independent reader (trimesh) and, where Node has it, the Khronos
glTF validator; renders and metadata beside it; meshes written by others read back in."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from napari_talk.core.running.session import Session
from napari_talk.packs.mesh import gltf
from napari_talk.packs.mesh.importers import MeshFileError, load_bytes

trimesh = pytest.importorskip("trimesh")


def _run(session: Session, *lines: str):
    results = []
    for line in lines:
        turn = session.run(line)
        assert turn.ok, (line, turn.message)
        results += turn.results
    return results


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """One figure, segmented, three materials, exported: shared by the tests that read it back."""
    root = tmp_path_factory.mktemp("export-workspace")
    session = Session(None, workspace=root)
    session.state("mesh").generative_prompt = "a bronze statue of a runner"
    *_, result = _run(
        session,
        "spawn a human body",
        "segment it",
        "make segment 1 shiny gold",
        "apply glowing blue crystals to segment 2",
        "make segment 3 frosted glass",
        "export the model",
    )
    return session, result, root


def test_the_glb_reads_back_with_one_primitive_and_material_per_segment(exported):
    session, result, workspace = exported
    state = session.state("mesh").model
    glb = workspace / result.data["glb"]
    assert glb.suffix == ".glb" and glb.parent.parent == workspace / "exports"
    scene = trimesh.load(glb)
    geometries = list(scene.geometry.values())
    assert len(geometries) == state.segment_count == result.data["segments"]
    assert sum(len(g.faces) for g in geometries) == state.mesh.n_faces
    by_name = {g.visual.material.name: g.visual.material for g in geometries}
    gold = by_name["gold (shinier)"]
    assert gold.metallicFactor == pytest.approx(1.0)
    assert gold.roughnessFactor < 0.25
    expected = np.round(np.array(state.materials[1].base_color) * 255)
    assert np.allclose(np.asarray(gold.baseColorFactor)[:3], expected, atol=1)
    crystals = by_name["crystal (blue, glowing)"]
    assert np.asarray(crystals.emissiveFactor).max() > 0
    assert by_name["frosted glass"].alphaMode == "BLEND"


def test_the_glb_structure_is_what_we_meant(exported):
    _, result, workspace = exported
    document, binary = gltf.decode_glb((workspace / result.data["glb"]).read_bytes())
    (mesh,) = document["meshes"]
    assert [p["extras"]["segment_id"] for p in mesh["primitives"]] == list(
        range(1, result.data["segments"] + 1)
    )
    assert document["extensionsUsed"] == [  # the glowing crystal lets light through
        "KHR_materials_emissive_strength", "KHR_materials_ior", "KHR_materials_transmission"
    ]  # fmt: skip
    for primitive in mesh["primitives"]:
        normals = gltf._accessor(document, binary, primitive["attributes"]["NORMAL"])
        assert np.allclose(np.linalg.norm(normals, axis=1), 1.0, atol=1e-5)
    assert document["asset"]["extras"]["prompt"] == "a bronze statue of a runner"


def test_renders_and_metadata_sit_beside_the_glb(exported):
    from PIL import Image

    _, result, workspace = exported
    renders = [workspace / p for p in result.data["renders"]]
    assert len(renders) == 4
    for path in renders:
        pixels = np.asarray(Image.open(path).convert("RGB"), dtype=float)
        assert pixels.shape == (512, 512, 3)
        assert pixels.std() > 10, "a picture of something, not a blank canvas"
    meta = json.loads((workspace / result.data["metadata"]).read_text())
    assert meta["prompt"] == "a bronze statue of a runner"
    assert len(meta["segments"]) == result.data["segments"]
    assert meta["segments"][0]["material"]["name"] == "gold (shinier)"
    assert [h["action"] for h in meta["history"]] == [
        "spawn_primitive", "request_segmentation", "apply_material", "apply_material", "apply_material"
    ]  # fmt: skip
    assert meta["files"]["glb"] == Path(result.data["glb"]).name


def test_each_export_gets_a_new_folder(exported):
    session, first, workspace = exported
    (second,) = _run(session, "export")
    assert second.data["folder"] != first.data["folder"]
    assert (workspace / first.data["glb"]).exists() and (workspace / second.data["glb"]).exists()


def _validator() -> tuple[str, dict[str, str]] | None:
    """Node and a gltf-validator it can require (global npm root or $NAPARI_TALK_GLTF_VALIDATOR)."""
    node = shutil.which("node")
    if node is None:
        return None
    paths = [os.environ.get("NAPARI_TALK_GLTF_VALIDATOR", "")]
    npm = shutil.which("npm")
    if npm is not None:
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=20)
            paths.append(root.stdout.strip())
    env = {**os.environ, "NODE_PATH": os.pathsep.join(p for p in paths if p)}
    probe = subprocess.run(
        [node, "-e", "require.resolve('gltf-validator')"], env=env, capture_output=True, timeout=20
    )
    return (node, env) if probe.returncode == 0 else None


VALIDATE = """
const fs = require('fs');
const validator = require('gltf-validator');
validator.validateBytes(new Uint8Array(fs.readFileSync(process.argv[1])))
  .then(report => console.log(JSON.stringify(report.issues)))
  .catch(error => { console.error(String(error)); process.exit(2); });
"""


@pytest.mark.skipif(
    _validator() is None, reason="Node with gltf-validator is not installed (npm i -g gltf-validator)"
)
def test_the_khronos_validator_finds_no_error_or_warning(exported, workspace):
    node, env = _validator()
    _, result, root = exported
    (disk,) = [r for r in _run(Session(None, workspace=workspace), "spawn a disk", "make it neon", "export")][
        -1:
    ]
    for glb in (root / result.data["glb"], workspace / disk.data["glb"]):
        run = subprocess.run(
            [node, "-e", VALIDATE, str(glb)], env=env, capture_output=True, text=True, timeout=60
        )
        assert run.returncode == 0, run.stderr
        issues = json.loads(run.stdout)
        assert issues["numErrors"] == 0 and issues["numWarnings"] == 0, issues["messages"][:5]


def test_meshes_written_by_others_read_back_in_with_their_node_transforms():
    box = trimesh.creation.box(extents=(4.0, 1.0, 1.0))
    scene = trimesh.Scene()
    scene.add_geometry(box, transform=trimesh.transformations.rotation_matrix(np.pi / 2, (0, 0, 1)))
    mesh = load_bytes(scene.export(file_type="glb"), "box.glb")
    low, high = mesh.bounds
    assert np.argmax(high - low) == 1, "rotated a quarter turn about z, the long side is along y"
    assert mesh.is_watertight and mesh.volume > 0
    assert (high - low).max() == pytest.approx(2.0)
    sphere = load_bytes(trimesh.creation.icosphere(subdivisions=3).export(file_type="glb"), "ball.glb")
    assert sphere.n_faces == 1280 and sphere.is_watertight


def test_obj_files_and_bad_files():
    mesh = load_bytes(b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n", "quad.obj")
    assert mesh.n_faces == 2 and not mesh.closed
    with pytest.raises(MeshFileError):
        load_bytes(b"not a glb at all", "x.glb")
    with pytest.raises(MeshFileError):
        load_bytes(b"v 0 0 0\nf 1 2 9\n", "broken.obj")


def test_import_model_from_the_workspace_and_undo(workspace):
    (workspace / "meshes").mkdir()
    (workspace / "meshes" / "ball.glb").write_bytes(
        trimesh.creation.icosphere(subdivisions=2).export(file_type="glb")
    )
    session = Session(None, workspace=workspace)
    _run(session, "spawn a cube", "import meshes/ball.glb")
    state = session.state("mesh").model
    assert state.mesh.n_faces == 320 and state.source == "file meshes/ball.glb"
    _run(session, "undo")
    assert session.state("mesh").model.mesh.name == "Cube"
    assert not session.run("import ../outside.glb").ok, "nothing outside the workspace"
    (workspace / "notes.txt").write_text("hello")
    refused = session.execute({"action": "import_model", "path": "notes.txt"})
    assert not refused.ok and "only .stl, .ply, .off, .obj, .glb, .gltf" in refused.message
    assert session.state("mesh").model.mesh.name == "Cube", "a refused import changes nothing"


def test_glass_is_exported_as_light_passing_through(workspace):
    *_, result = _run(Session(None, workspace=workspace), "spawn a sphere", "make it glass", "export")
    data = (workspace / result.data["glb"]).read_bytes()
    document, _ = gltf.decode_glb(data)
    (material,) = document["materials"]
    assert material["alphaMode"] == "BLEND" and material["pbrMetallicRoughness"]["baseColorFactor"][3] < 0.5
    assert material["extensions"]["KHR_materials_transmission"]["transmissionFactor"] > 0.5
    assert material["extensions"]["KHR_materials_ior"]["ior"] == pytest.approx(1.5)
    assert {"KHR_materials_transmission", "KHR_materials_ior"} <= set(document["extensionsUsed"])
    scene = trimesh.load(trimesh.util.wrap_as_stream(data), file_type="glb")
    (read,) = scene.geometry.values()
    assert read.visual.material.baseColorFactor[3] < 128, "an independent reader sees it see-through"
    checked = _validator()
    if checked is not None:
        node, env = checked
        run = subprocess.run(
            [node, "-e", VALIDATE, str(workspace / result.data["glb"])],
            env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        issues = json.loads(run.stdout)
        assert issues["numErrors"] == 0 and issues["numWarnings"] == 0, issues["messages"][:5]
