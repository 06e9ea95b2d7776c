"""The npe2 manifest: valid, and what it contributes really loads."""

from __future__ import annotations

from npe2 import PluginManifest


def test_manifest_is_valid_and_its_contributions_import():
    manifest = PluginManifest.from_distribution("napari-talk")
    assert manifest.name == "napari-talk"
    manifest.validate_imports()
    assert [w.display_name for w in manifest.contributions.widgets] == ["Chat"]
    assert [s.key for s in manifest.contributions.sample_data] == [
        "cells",
        "prism_demo",
        "atlas",
        "mesh",
        "files",
    ]


def test_the_cells_sample_has_the_layers_the_docs_use():
    from napari_talk.samples import cells

    layers = {kwargs["name"]: (kind, data) for data, kwargs, kind in cells()}
    assert list(layers) == ["nuclei", "cell boundaries", "actin", "GFP", "Labels", "spots"]
    assert layers["Labels"][0] == "labels" and layers["Labels"][1].max() == 28
    assert layers["spots"][0] == "points"
    assert all(layers[n][1].shape == (512, 512) for n in ("nuclei", "GFP"))


def test_the_manifests_settings_are_the_settings_models():
    from importlib import resources

    import yaml

    from napari_talk.core.running.settings import manifest_configurations

    manifest = yaml.safe_load(resources.files("napari_talk").joinpath("napari.yaml").read_text())
    expected = manifest_configurations()
    block = yaml.safe_dump({"configurations": expected}, sort_keys=False, allow_unicode=True, width=110)
    assert manifest["contributions"]["configurations"] == expected, f"napari.yaml should say:\n{block}"
