"""Importing a folder of JSON Lines files as one import, and where an import embeds."""

from __future__ import annotations

import json

from napari_talk.core.running.session import Session
from napari_talk.packs.atlas import cluster_import


def _lines(*records: dict[str, str]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def test_a_folder_of_jsonl_files_is_one_import_in_name_order(workspace):
    parts = workspace / "data" / "parts"
    parts.mkdir(parents=True)
    (parts / "b.jsonl").write_text(
        _lines({"name": "Glass Heron", "description": "the later line wins"}, {"name": "Moss Elder"})
        + "{not json\n"
    )
    (parts / "a.jsonl").write_text(
        _lines({"name": "Glass Heron", "description": "first"}, {"name": "Ash Moth"})
    )
    (parts / "notes.txt").write_text(_lines({"name": "Not Imported"}))
    (parts / "inner").mkdir()
    (parts / "inner" / "c.jsonl").write_text(_lines({"name": "Not Imported Either"}))
    session = Session(None, workspace=workspace)
    assert session.run("use the offline embedder").ok

    turn = session.run("import every jsonl file in data/parts")
    result = turn.results[-1]
    assert turn.road == "parser" and result.ok, result.message
    assert result.data["imported"] == 3 and result.data["repeated"] == 1
    assert result.data["skipped"] == ["b.jsonl line 3: not valid JSON (expecting property name enclosed in "
                                      "double quotes at column 2)"]  # fmt: skip
    catalogue = session.state("atlas").catalogue
    assert sorted(catalogue.names()) == ["Ash Moth", "Glass Heron", "Moss Elder"]
    heron = catalogue.get("Glass Heron")
    assert heron is not None and heron.description == "the later line wins"

    again = session.run("import data/parts/").results[-1]
    assert again.ok and again.data["unchanged"] == 3 and again.data["added"] == 0, again.message
    assert session.run("undo").ok and session.run("undo").ok
    assert catalogue.count() == 0


def test_a_folder_without_jsonl_files_is_one_sentence(workspace):
    (workspace / "empty").mkdir()
    (workspace / "empty" / "readme.md").write_text("nothing to import")
    session = Session(None, workspace=workspace)
    result = session.run("import the folder empty").results[-1]
    assert not result.ok and result.message == "the folder empty holds no .jsonl file to import"


def test_an_import_embeds_here_unless_a_cluster_is_asked_for_and_a_named_one_always_gets_it():
    local_from = cluster_import.LOCAL_FROM
    assert cluster_import.where(10 * local_from, None) is None
    assert cluster_import.where(local_from - 1, "local") is None
    assert cluster_import.where(local_from, "local") == "local"
    assert cluster_import.where(5, "tcp://10.0.0.9:8786") == "tcp://10.0.0.9:8786"
    assert cluster_import.where(10 * local_from, "in-process") is None
    assert cluster_import.where(0, "tcp://10.0.0.9:8786") is None  # nothing to embed: nothing to send
