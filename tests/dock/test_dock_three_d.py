"""2-D layers the packs draw, shown in the 3-D view another pack's sample opens: napari must be
able to paint them whatever they hold (an emptied ray selection painted in 3-D aborted the window)."""

from __future__ import annotations

from support.door import open_door, typed_ok


def test_an_emptied_ray_selection_paints_in_the_mesh_samples_3d_view(
    qtbot, make_napari_viewer_proxy, workspace
):
    dock = open_door(make_napari_viewer_proxy, workspace)
    viewer = dock.viewer
    viewer.open_sample("napari-talk", "prism_demo")
    assert "ray segments cross" in typed_ok(qtbot, dock, "rays crossing edge N of Prism")
    selection = next(layer for layer in viewer.layers if layer.name == "rays: selection")
    assert len(selection.data) and selection.visible
    typed_ok(qtbot, dock, "move Main Prism up by 20")  # the scene changed: its old highlight goes
    assert len(selection.data) == 0
    viewer.open_sample("napari-talk", "mesh")
    assert viewer.dims.ndisplay == 3
    viewer.canvas.grid.enabled = True
    viewer.canvas.grid.enabled = False
    picture = viewer.screenshot(canvas_only=True)  # paints every layer in 3-D: raised before
    assert picture.ndim == 3
    assert not selection.visible  # nothing to show; shown again once it holds rays
    typed_ok(qtbot, dock, "rays crossing edge N of Main Prism")
    assert len(selection.data) and selection.visible
    viewer.screenshot(canvas_only=True)
