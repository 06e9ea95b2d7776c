"""The atlas's database and the mesh limits as sections of the settings: saved without secrets,
read by the packs through the session, their environment variables still winning."""

from __future__ import annotations

import json

import numpy as np
import pytest

from napari_talk.core.running.session import Session
from napari_talk.core.running.settings import FileStore, Settings, WorkspaceSettings
from napari_talk.packs.atlas.settings import DATABASE_ENV, AtlasSettings
from napari_talk.packs.mesh.settings import MeshSettings

SECRET = "s3cr3t-pa55"


def test_a_password_in_the_database_url_serves_the_session_and_is_never_saved(tmp_path):
    url = f"postgresql://lab:{SECRET}@db.example:5433/atlas"
    settings = Settings(atlas=AtlasSettings(database=url), mesh=MeshSettings(max_faces=5000))
    store = FileStore(tmp_path / "settings.json")
    store.save(settings)
    saved = store.path.read_text()
    assert SECRET not in saved
    again = store.load()
    assert again.atlas.database == "postgresql://lab@db.example:5433/atlas"
    assert again.mesh.max_faces == 5000
    assert settings.atlas.database == url, "the session keeps what was typed"


def test_a_section_edited_into_nonsense_falls_back_alone(tmp_path):
    path = tmp_path / "settings.json"
    good = Settings(workspace=WorkspaceSettings(root=str(tmp_path)), mesh=MeshSettings(max_nodes=7))
    data = good.model_dump()
    data["atlas"] = {"database": "mysql://somewhere/else"}
    data["mesh"]["max_faces"] = -3
    path.write_text(json.dumps(data))
    loaded = FileStore(path).load()
    assert loaded.atlas == AtlasSettings() and loaded.mesh == MeshSettings()
    assert loaded.workspace.path() == tmp_path


def test_the_session_makes_the_atlas_anew_when_its_database_changes(workspace, monkeypatch):
    monkeypatch.delenv(DATABASE_ENV, raising=False)
    session = Session(None, workspace=workspace)
    first = session.state("atlas")
    assert first.where == "atlas/catalogue.sqlite"
    session.settings = session.settings.model_copy(update={"mesh": MeshSettings(max_faces=9)})
    assert session.state("atlas") is first, "a change elsewhere keeps the open catalogue"
    url = f"postgresql://lab:{SECRET}@db.example/atlas"
    session.settings = session.settings.model_copy(update={"atlas": AtlasSettings(database=url)})
    second = session.state("atlas")
    assert second is not first
    assert second.where == "postgresql://lab:***@db.example/atlas"


def test_the_database_variable_wins_over_the_setting(workspace, monkeypatch):
    monkeypatch.setenv(DATABASE_ENV, "postgresql://env@db.example/atlas")
    session = Session(None, workspace=workspace)
    session.settings = Settings(atlas=AtlasSettings(database="postgresql://setting@db.example/atlas"))
    assert session.state("atlas").config.database == "postgresql://env@db.example/atlas"


def test_the_mesh_limit_comes_from_the_settings_and_its_variable_still_raises_it(workspace, monkeypatch):
    trimesh = pytest.importorskip("trimesh")
    monkeypatch.delenv("NAPARI_TALK_MESH_MAX_FACES", raising=False)
    sphere = trimesh.creation.icosphere(subdivisions=2)  # 320 faces
    sphere.export(workspace / "ball.stl")
    session = Session(None, workspace=workspace)
    session.settings = Settings(mesh=MeshSettings(max_faces=100))
    refused = session.execute({"action": "import_model", "path": "ball.stl"})
    assert not refused.ok and "max_faces" in refused.message and "settings" in refused.message
    monkeypatch.setenv("NAPARI_TALK_MESH_MAX_FACES", "1000")
    accepted = session.execute({"action": "import_model", "path": "ball.stl"})
    assert accepted.ok, accepted.message
    assert np.asarray(session.state("mesh").model.mesh.faces).shape[0] == 320


def test_the_packs_sections_are_the_ones_the_packs_declare():
    from napari_talk.core.contract.registry import installed_packs

    declared = {pack.name: pack.settings for pack in installed_packs() if pack.settings is not None}
    assert declared == {"atlas": AtlasSettings, "mesh": MeshSettings}
    sections = Settings.sections()
    assert list(sections)[:3] == ["llm", "workspace", "network"]
    assert {name: model for name, (model, _) in sections.items() if name in declared} == declared
    assert isinstance(Settings().section("mesh"), MeshSettings)
    assert "nonsense" not in Settings.model_validate({"nonsense": {"a": 1}}).model_dump()
