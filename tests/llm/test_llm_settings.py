"""LLM settings: stored without the key, read back, and kept by napari when it can."""

from __future__ import annotations

import pytest

from napari_talk.core.chat.settings import LLMSettings, MissingKeyError, resolve_key
from napari_talk.core.running.settings import FileStore, Settings, WorkspaceSettings


def test_file_store_round_trips_and_never_holds_a_key(tmp_path, monkeypatch):
    monkeypatch.setenv("MY_KEY", "sk-never-on-disk")
    store = FileStore(tmp_path / "cfg" / "settings.json")
    assert store.load() == Settings()
    llm = LLMSettings(
        model="llama3.1", base_url="http://localhost:11434/v1", api_key_env="MY_KEY", mode="json"
    )
    settings = Settings(llm=llm, workspace=WorkspaceSettings(root="~/talk-space"))
    store.save(settings)
    assert store.load() == settings
    assert store.load().workspace.path().is_absolute()
    assert "sk-never-on-disk" not in store.path.read_text()


def test_a_damaged_settings_file_falls_back_to_defaults(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{not json")
    assert FileStore(path).load() == Settings()


def test_keys_come_from_the_session_then_the_environment(monkeypatch):
    remote = LLMSettings(model="m", api_key_env="SOME_KEY")
    monkeypatch.delenv("SOME_KEY", raising=False)
    with pytest.raises(MissingKeyError, match="set SOME_KEY"):
        resolve_key(remote)
    monkeypatch.setenv("SOME_KEY", "from-env")
    assert resolve_key(remote) == "from-env"
    assert resolve_key(remote, "typed") == "typed"
    assert (
        resolve_key(LLMSettings(model="m", base_url="http://127.0.0.1:8080/v1", api_key_env="NOPE"))
        == "not-needed"
    )


def test_napari_plugin_settings_hold_the_llm_section(monkeypatch, tmp_path):
    napari_settings = pytest.importorskip("napari.settings")
    if not hasattr(napari_settings, "get_plugin_settings"):
        pytest.skip("napari < 0.9 has no plugin settings")
    from napari_talk.core.running.settings import NapariPluginStore

    store = NapariPluginStore()
    before = store.load()
    try:
        llm = before.llm.model_copy(update={"model": "qwen2.5", "mode": "json", "timeout": 12.0})
        store.save(Settings(llm=llm, workspace=WorkspaceSettings(root=str(tmp_path))))
        again = NapariPluginStore().load()
        assert (again.llm.model, again.llm.mode, again.llm.timeout) == ("qwen2.5", "json", 12.0)
        assert again.workspace.path() == tmp_path
    finally:
        store.save(before)
