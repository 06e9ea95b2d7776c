"""The catalogue behind one protocol: both backends are CatalogueStores, neither built on the
other, a store lacking an operation is refused when opened; and an import started again (after a
stop, or of a file that grew) embeds only what it has not stored yet, ending where one whole
import ends."""

from __future__ import annotations

import json

import pytest
from support.atlas_fixtures import *  # noqa: F403  (the atlas fixtures)

from napari_talk.core.running.session import Session
from napari_talk.packs.atlas.catalogue import Catalogue, Entity
from napari_talk.packs.atlas.catalogue_store import CatalogueStore, checked, missing
from napari_talk.packs.atlas.embeddings import HashedEmbedder
from napari_talk.packs.atlas.postgres import PostgresCatalogue


def test_the_sqlite_catalogue_is_a_store_and_neither_backend_is_built_on_the_other(tmp_path):
    catalogue = Catalogue(tmp_path / "c.sqlite")
    assert checked(catalogue) is catalogue and missing(catalogue) == []
    assert not issubclass(PostgresCatalogue, Catalogue) and not issubclass(Catalogue, PostgresCatalogue)
    catalogue.close()


def test_the_postgres_catalogue_is_a_store(postgres_url):
    catalogue = PostgresCatalogue(postgres_url)
    assert isinstance(catalogue, CatalogueStore) and checked(catalogue) is catalogue
    catalogue.close()


def test_a_store_lacking_operations_is_refused_naming_them(tmp_path):
    class Partial:
        def count(self) -> int:
            return 0

        search = "not callable"

    with pytest.raises(TypeError, match="Partial is not a CatalogueStore") as refused:
        checked(Partial())
    lacking = str(refused.value).split("lacks ")[1].split(", ")
    assert "search" in lacking and "add_many" in lacking and "count" not in lacking


def _records(count: int) -> list[dict[str, str]]:
    return [
        {
            "name": f"Entity {i}",
            "type": ("Warden", "Drifter", "Archivist")[i % 3],
            "domain": f"Domain {i % 4}",
            "description": f"Keeps the lanterns of shore {i} lit.",
            "sref": str(1000 + i % 7),
            "created": "2026-11-01T00:00:00Z",
        }
        for i in range(count)
    ]


def _write(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def _session(workspace, texts: list[str]) -> Session:
    """A session on the offline embedder that notes every text it embeds."""
    session = Session(None, workspace=workspace)
    atlas = session.state("atlas")
    atlas.use("offline", None)
    embedder = atlas.embedder()
    embed = embedder.embed

    def counting(batch):
        texts.extend(batch)
        return embed(batch)

    embedder.embed = counting  # type: ignore[method-assign]
    return session


def _stored(session: Session) -> dict[str, tuple[dict[str, str], bytes]]:
    catalogue = session.state("atlas").catalogue
    return {
        e.name: (e.record(), catalogue.vector_of(e.key, "offline").tobytes()) for e in catalogue.entities()
    }


def test_an_import_started_again_embeds_only_the_rest_and_ends_like_one_whole_import(tmp_path):
    records = _records(60)
    records[5]["description"] = "Changed since the first import."
    whole_dir, resumed_dir = tmp_path / "whole", tmp_path / "resumed"
    whole_dir.mkdir(), resumed_dir.mkdir()

    whole_texts: list[str] = []
    whole = _session(whole_dir, whole_texts)
    _write(whole_dir / "all.jsonl", records)
    assert whole.execute({"action": "import_catalogue", "path": "all.jsonl"}).ok
    assert len(whole_texts) == 60

    texts: list[str] = []
    resumed = _session(resumed_dir, texts)
    first = _records(25)  # what a stopped import had stored, one record since changed
    _write(resumed_dir / "part.jsonl", first)
    assert resumed.execute({"action": "import_catalogue", "path": "part.jsonl"}).data["added"] == 25
    texts.clear()
    _write(resumed_dir / "all.jsonl", records)
    again = resumed.execute({"action": "import_catalogue", "path": "all.jsonl"})
    assert again.ok, again.message
    assert again.data["unchanged"] == 24 and again.data["added"] == 35 and again.data["replaced"] == 1
    assert again.data["imported"] == 60 and "24 already there as they are" in again.message
    assert len(texts) == 36 and not any(t.startswith("Entity 1.") for t in texts)
    assert _stored(resumed) == _stored(whole)

    same = resumed.execute({"action": "import_catalogue", "path": "all.jsonl"})
    assert same.ok and same.data["unchanged"] == 60 and same.data["added"] == same.data["replaced"] == 0
    assert resumed.run("undo").ok  # the import that changed nothing undoes to the same catalogue
    assert _stored(resumed) == _stored(whole)
    assert resumed.run("undo").ok  # the one before takes out the 35 it added, puts the changed one back
    catalogue = resumed.state("atlas").catalogue
    assert (
        catalogue.count() == 25
        and catalogue.get("Entity 5").description == "Keeps the lanterns of shore 5 lit."
    )


def test_an_entity_stored_without_a_vector_of_the_model_is_embedded_again(tmp_path):
    catalogue = Catalogue(tmp_path / "c.sqlite")
    embedder = HashedEmbedder()
    entities = [Entity(f"E {i}", created="2026-01-01T00:00:00Z") for i in range(3)]
    catalogue.add_many(entities, embedder.embed([e.text() for e in entities]), "offline")
    assert catalogue.unchanged(entities, "offline") == {0, 1, 2}
    assert catalogue.unchanged(entities, "another-model") == set()
    assert (
        catalogue.unchanged([Entity("E 1", type="new", created="2026-01-01T00:00:00Z")], "offline") == set()
    )
    assert catalogue.unchanged([Entity(" E  1 ")], "offline") == {0}  # no time given: any time matches
    catalogue.close()
