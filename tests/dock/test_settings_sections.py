"""The settings dialog keeps the atlas and mesh sections, and takes the catalogue database."""

from __future__ import annotations

from napari_talk.core.running.settings import FileStore, Settings
from napari_talk.packs.atlas.settings import AtlasSettings
from napari_talk.packs.mesh.settings import MeshSettings


def test_the_dialog_takes_a_database_url_and_keeps_the_mesh_limits(qtbot, tmp_path):
    from napari_talk._qt.settings_dialog import SettingsDialog

    current = Settings(mesh=MeshSettings(max_faces=1234), atlas=AtlasSettings())
    dialog = SettingsDialog(current)
    qtbot.addWidget(dialog)
    dialog.field("atlas", "database").setText("mysql://lab@db.example/atlas")
    dialog.accept()
    assert dialog.result() != dialog.DialogCode.Accepted
    assert "postgresql://" in dialog.test_result.text()
    dialog.field("atlas", "database").setText("postgresql://lab:pa55@db.example/atlas")
    dialog.accept()
    assert dialog.result() == dialog.DialogCode.Accepted
    chosen = dialog.settings()
    assert chosen.atlas.database == "postgresql://lab:pa55@db.example/atlas"
    assert chosen.mesh.max_faces == 1234
    store = FileStore(tmp_path / "settings.json")
    store.save(chosen)
    assert "pa55" not in store.path.read_text()
    assert store.load().atlas.database == "postgresql://lab@db.example/atlas"
