"""What the STL and OFF fuzz found: an ASCII STL whose facet normals are not numbers printed a
traceback on the console (trimesh logs it with its trace, then recomputes the normals), and a valid
OFF file with a face of more than four corners was refused in numpy's words."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from napari_talk.packs.mesh.importers import import_bytes, load_mesh

UNREADABLE_NORMALS = b"""solid part
facet normal 0 zero 1
outer loop
vertex 0 0 0
vertex 1 0 0
vertex 0 1 0
endloop
endfacet
facet normal nan inf -
outer loop
vertex 0 0 0
vertex 0 1 0
vertex 0 0 1
endloop
endfacet
endsolid part
"""
PENTAGON = [(np.cos(a), np.sin(a), 0.0) for a in np.linspace(0, 2 * np.pi, 5, endpoint=False)]
POINTS = "".join(f"{x:.6f} {y:.6f} {z:.6f}\n" for x, y, z in [*PENTAGON, (0.0, 0.0, 2.0)])


def test_an_stl_with_unreadable_normals_imports_without_a_traceback(caplog, capfd):
    caplog.set_level(logging.DEBUG)
    imported = import_bytes(UNREADABLE_NORMALS, "part.stl")
    assert len(imported.mesh.faces) == 2
    normals = np.cross(*np.diff(imported.mesh.vertices[imported.mesh.faces], axis=1).transpose(1, 0, 2))
    assert np.isfinite(normals).all() and (np.linalg.norm(normals, axis=1) > 0).all()
    assert not [r for r in caplog.records if r.exc_info or r.exc_text], "a log record carried a traceback"
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err


@pytest.mark.parametrize(
    "header",
    ["OFF\n6 {faces} 0\n", "OFF 6 {faces} 0\n", "# a model\nCOFF\n# counts next\n6 {faces} 0 # v f e\n"],
)
def test_an_off_file_with_a_pentagon_imports_as_its_triangles(tmp_path, header):
    faces = "5 0 1 2 3 4\n3 0 1 5\n4 1 2 5 5\n"  # a pentagon, a triangle, a quad with a repeated corner
    path = tmp_path / "roof.off"
    path.write_text(header.format(faces=3) + POINTS + faces)
    mesh = load_mesh(path)
    assert len(mesh.vertices) == 6
    assert len(mesh.faces) == 3 + 1 + 1, "the pentagon's three triangles, the triangle, the quad's one"
