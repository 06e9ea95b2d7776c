"""Every viewer command on a real napari viewer: it changes what it says, and undo puts it back."""

from __future__ import annotations

import numpy as np
import pytest

from napari_talk.core.viewer.access import camera, canvas_size


def run_ok(session, text):
    turn = session.run(text)
    assert turn.ok, turn.message
    return turn


def center_xy(viewer):
    center = camera(viewer).center
    return [center[-1], center[-2]]


def test_center_on_takes_x_y_and_sets_row_col(session, cells_viewer):
    run_ok(session, "center on 100 200")
    assert tuple(camera(cells_viewer).center[-2:]) == (200, 100)
    run_ok(session, "undo")
    assert tuple(camera(cells_viewer).center[-2:]) != (200, 100)


def test_zoom_box_frames_the_box_as_napari_frames_data(session, cells_viewer):
    run_ok(session, "zoom box 64 0 0 32")
    height, width = canvas_size(cells_viewer)
    assert center_xy(cells_viewer) == [32, 16]
    assert camera(cells_viewer).zoom == pytest.approx(0.95 * min(height / 32, width / 64))


def test_set_zoom_and_zoom_by(session, cells_viewer):
    run_ok(session, "zoom to 300%")
    assert camera(cells_viewer).zoom == pytest.approx(3)
    run_ok(session, "zoom out")
    assert camera(cells_viewer).zoom == pytest.approx(1.5)
    run_ok(session, "undo")
    assert camera(cells_viewer).zoom == pytest.approx(3)


def test_fit_to_layer_frames_its_pixels_on_the_displayed_axes(session, cells_viewer):
    cells_viewer.add_image(np.zeros((5, 40, 80)), name="stack", translate=(0, 100, 200))
    run_ok(session, "fit stack")
    height, width = canvas_size(cells_viewer)
    # pixel centres 100..139 and 200..279, plus half a pixel each side
    assert center_xy(cells_viewer) == pytest.approx([239.5, 119.5])
    assert camera(cells_viewer).zoom == pytest.approx(0.95 * min(height / 40, width / 80))


def test_reset_view_and_undo(session, cells_viewer):
    run_ok(session, "zoom to 7")
    run_ok(session, "reset the view")
    assert camera(cells_viewer).zoom != pytest.approx(7)
    run_ok(session, "undo")
    assert camera(cells_viewer).zoom == pytest.approx(7)


def test_visibility_solo_and_all(session, cells_viewer):
    layers = cells_viewer.layers
    run_ok(session, "hide nuclei")
    assert not layers["nuclei"].visible
    run_ok(session, "toggle nuclei")
    assert layers["nuclei"].visible
    run_ok(session, "show only spots")
    assert [layer.visible for layer in layers] == [layer.name == "spots" for layer in layers]
    run_ok(session, "undo")
    assert all(layer.visible for layer in layers)
    run_ok(session, "hide all layers")
    assert not any(layer.visible for layer in layers)
    run_ok(session, "undo")
    assert all(layer.visible for layer in layers)


def test_opacity_colormap_contrast(session, cells_viewer):
    gfp = cells_viewer.layers["GFP"]
    run_ok(session, "set opacity of GFP to 30%")
    assert gfp.opacity == pytest.approx(0.3)
    run_ok(session, "colormap GFP magma")
    assert gfp.colormap.name == "magma"
    run_ok(session, "undo")
    assert gfp.colormap.name == "green"
    run_ok(session, "contrast limits GFP 0 100000")
    assert tuple(gfp.contrast_limits) == (0, 100000)
    run_ok(session, "undo")
    assert tuple(gfp.contrast_limits) != (0, 100000)
    gfp.contrast_limits = (0, 10)
    run_ok(session, "auto contrast GFP")
    low, high = gfp.contrast_limits
    assert low >= 0 and high > 1000


def test_colormap_is_checked_at_execution(session):
    turn = session.run("colormap GFP sparkles")
    assert not turn.ok and "no colormap 'sparkles'" in turn.message


def test_colormap_on_a_points_layer_says_why_not(session):
    turn = session.run("colormap spots magma")
    assert not turn.ok and "points layer" in turn.message


def test_select_remove_rename_and_their_undo(session, cells_viewer):
    layers = cells_viewer.layers
    run_ok(session, "select Labels")
    assert layers.selection.active.name == "Labels"
    index = [layer.name for layer in layers].index("spots")
    spots = layers["spots"]
    run_ok(session, "delete spots")
    assert "spots" not in [layer.name for layer in layers]
    run_ok(session, "undo")
    assert layers[index] is spots
    run_ok(session, "rename GFP to GFP raw")
    assert "GFP raw" in [layer.name for layer in layers]
    run_ok(session, "undo")
    assert "GFP" in [layer.name for layer in layers]
    run_ok(session, "redo")
    assert "GFP raw" in [layer.name for layer in layers]


def test_ndisplay_slice_grid_and_scale_bar(session, cells_viewer):
    from napari_talk.core.viewer.access import grid, scale_bar

    cells_viewer.add_image(np.zeros((10, 20, 20)), name="volume")
    run_ok(session, "3d")
    assert cells_viewer.dims.ndisplay == 3
    run_ok(session, "undo")
    assert cells_viewer.dims.ndisplay == 2
    run_ok(session, "slice 7")
    assert cells_viewer.dims.current_step[0] == 7
    assert not session.run("slice 70").ok
    run_ok(session, "grid on")
    assert grid(cells_viewer).enabled
    run_ok(session, "scale bar on")
    assert scale_bar(cells_viewer).visible
    run_ok(session, "undo")
    assert not scale_bar(cells_viewer).visible


def test_move_layer_reorders_the_list_and_undo_puts_it_back(session, cells_viewer):
    def names():
        return [layer.name for layer in cells_viewer.layers]

    start = names()
    assert start[0] == "nuclei" and start[-1] == "spots"
    run_ok(session, "move nuclei to the top")
    assert names()[-1] == "nuclei" and names()[:-1] == start[1:]
    run_ok(session, "undo")
    assert names() == start
    run_ok(session, "put spots below GFP")
    assert names().index("spots") == names().index("GFP") - 1
    run_ok(session, "undo")
    run_ok(session, "move GFP up")
    assert names().index("GFP") == start.index("GFP") + 1
    run_ok(session, "undo")
    run_ok(session, "move spots to position 0")
    assert names()[0] == "spots"
    run_ok(session, "undo")
    assert names() == start
    assert "already at the top" in run_ok(session, "move spots to the top").message
    turn = session.execute({"action": "move_layer", "name": "spots", "position": 40})
    assert not turn.ok and "out of range" in turn.message
    turn = session.execute({"action": "move_layer", "name": "spots", "position": "above"})
    assert not turn.ok and names() == start


def test_last_and_middle_slices(session, cells_viewer):
    cells_viewer.add_image(np.zeros((11, 20, 20)), name="volume")
    run_ok(session, "go to the last slice")
    assert cells_viewer.dims.current_step[0] == 10
    run_ok(session, "the middle slice")
    assert cells_viewer.dims.current_step[0] == 5
    run_ok(session, "first slice")
    assert cells_viewer.dims.current_step[0] == 0
    run_ok(session, "undo")
    assert cells_viewer.dims.current_step[0] == 5


def test_slice_without_sliders_says_so(session):
    turn = session.run("slice 3")
    assert not turn.ok and "no slider" in turn.message


def test_list_layers_reports_types_top_first(session):
    turn = run_ok(session, "what layers are there")
    names = [item["name"] for item in turn.results[0].data]
    assert names[0] == "spots" and names[-1] == "nuclei"
    assert {item["type"] for item in turn.results[0].data} >= {"image", "labels", "points"}


def test_unknown_and_ambiguous_names_list_the_candidates(session, cells_viewer):
    turn = session.execute({"action": "layer_visibility", "name": "mito", "op": "hide"})
    assert not turn.ok and turn.message.startswith("no layer 'mito'; layers are: 'nuclei'")
    cells_viewer.add_image(np.zeros((4, 4)), name="GFP copy")
    turn = session.execute({"action": "fit_to_layer", "name": "gf"})
    assert not turn.ok and "ambiguous" in turn.message and "'GFP copy'" in turn.message


def test_panels_open_and_close(cells_viewer):
    from napari_talk._qt.panels import ViewerWindow
    from napari_talk.core.running.session import Session

    window = ViewerWindow(cells_viewer)
    session = Session(cells_viewer, window=window)
    found = window.panels()
    assert {"layer list", "layer controls", "console"} <= set(found)
    run_ok(session, "close the layer list")
    assert not found["layer list"].is_open()
    run_ok(session, "open layer list")
    assert found["layer list"].is_open()
    run_ok(session, "open console")
    assert found["console"].is_open()
    run_ok(session, "undo")
    assert not found["console"].is_open()
    assert not session.execute({"action": "panel_toggle", "name": "nope", "op": "open"}).ok


def test_a_session_without_a_window_says_it_has_no_panels(session):
    refused = session.execute({"action": "panel_toggle", "name": "console", "op": "open"})
    assert not refused.ok and "no window" in refused.message


def test_screenshot_lands_in_the_workspace(session, workspace):
    turn = run_ok(session, "screenshot figures/cells.png")
    path = workspace / "figures" / "cells.png"
    assert path.exists() and path.stat().st_size > 0
    assert turn.results[0].data["path"] == str(path)
    refused = session.execute({"action": "screenshot", "path": "../outside.png"})
    assert not refused.ok and "outside the workspace" in refused.message


def test_every_result_carries_its_execution_time(session):
    for result in session.run("hide nuclei and zoom to 2").results:
        assert result.meta["execution_time"] >= 0


def test_a_not_understood_line_suggests_commands(session):
    turn = session.run("blur the image")
    assert turn.road == "none" and not turn.ok
    assert turn.results[0].data["suggestions"]
    assert "docs/llm.md" in turn.message


def test_commands_run_in_order_and_stop_at_the_first_error(session, cells_viewer):
    from napari_talk.packs.viewer.commands import LayerVisibility

    results = session.execute_all(
        [
            LayerVisibility(name="actin", op="hide"),
            LayerVisibility(name="nonexistent", op="hide"),
            LayerVisibility(name="nuclei", op="hide"),
        ]
    )
    assert [r.ok for r in results] == [True, False]
    assert not cells_viewer.layers["actin"].visible
    assert cells_viewer.layers["nuclei"].visible


def test_slices_by_conventional_axis_names(session, cells_viewer):
    cells_viewer.add_image(np.zeros((3, 6, 20, 20)), name="tzyx")
    run_ok(session, "z 4")
    assert cells_viewer.dims.current_step[1] == 4
    run_ok(session, "go to timepoint 2 on axis t")
    assert cells_viewer.dims.current_step[0] == 2
    turn = session.run("slice 1 along axis q")
    assert not turn.ok and "no axis 'q'" in turn.message
