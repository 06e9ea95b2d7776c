"""The atlas catalogue: a real SQLite file, its persistence, JSONL in and out, sref codes, undo."""

from __future__ import annotations

import json
import sqlite3

import numpy as np
import pytest
from support.atlas_fixtures import *  # noqa: F403  (the atlas fixtures)

from napari_talk.core.running.session import Session
from napari_talk.packs.atlas.catalogue import Catalogue, CatalogueError, Entity, top_k
from napari_talk.packs.atlas.embeddings import HashedEmbedder
from napari_talk.packs.atlas.sref import normalize_codes
from napari_talk.packs.atlas.store import CATALOGUE_FILE

HOSTILE = [
    "Robert'); DROP TABLE entities;--",
    "x' OR '1'='1",
    'quote " and ; semicolon',
    "100% _wild_ \\ card",
    "名前 with ünïcode",
]


def run(session: Session, text: str):
    turn = session.run(text)
    assert turn.road == "parser", text
    return turn.results[-1]


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_an_empty_catalogue_says_how_to_fill_it(workspace):
    result = run(Session(None, workspace=workspace), "find similar to void walker")
    assert not result.ok
    assert "empty" in result.message and "load the sample catalogue" in result.message


def test_entities_and_vectors_persist_across_sessions(workspace):
    write_jsonl(workspace / "a.jsonl", [{"name": "Glass Heron", "domain": "Verdant Hollow", "sref": 5}])
    first = Session(None, workspace=workspace)
    assert run(first, "import a.jsonl").ok
    first.state("atlas").close()

    second = Session(None, workspace=workspace)
    catalogue = Catalogue(workspace / CATALOGUE_FILE)
    assert catalogue.names() == ["Glass Heron"]
    assert catalogue.get("glass heron").sref == "5"
    assert catalogue.missing_vectors("offline") == []  # nothing to embed again
    result = run(second, "find similar to a heron made of glass")
    assert result.data["entities"][0]["name"] == "Glass Heron"


def test_injection_looking_names_are_stored_and_found_verbatim(workspace):
    hostile_code = "'; DROP TABLE sref_codes; --"
    write_jsonl(workspace / "odd.jsonl", [{"name": n, "sref": hostile_code} for n in HOSTILE])
    session = Session(None, workspace=workspace)
    assert run(session, "import odd.jsonl").ok
    catalogue = session.state("atlas").catalogue
    assert sorted(catalogue.names()) == sorted(HOSTILE)
    for name in HOSTILE:
        assert catalogue.get(name).name == name
        found = session.execute({"action": "find_similar", "query": name, "limit": 10})
        assert found.ok and name not in [e["name"] for e in found.data["entities"]]  # itself excluded
    drop = session.execute({"action": "find_by_sref", "sref_code": hostile_code})
    assert drop.ok and drop.data["found"] == len(HOSTILE)
    master = sqlite3.connect(workspace / CATALOGUE_FILE).execute("SELECT name FROM sqlite_master")
    tables = {row[0] for row in master}
    assert {"entities", "sref_codes", "vectors"} <= tables


@pytest.mark.parametrize(
    ("typed", "codes"),
    [
        ("--sref 123", ["123"]),
        ("  123  ", ["123"]),
        ("sref: 123::2", ["123"]),
        ("--sref 123 456 --ar 16:9", ["123", "456"]),
        ("a golden knight --v 6 --sref 42", ["42"]),
        ("123, 123;456", ["123", "456"]),
        ("STYLE REFERENCE 77", ["77"]),
        ("", []),
    ],
)
def test_sref_codes_are_normalized(typed, codes):
    assert normalize_codes(typed) == codes


def test_find_by_sref_lists_the_family_and_how_many_share_each_code(atlas_session):
    result = run(atlas_session, "who shares --sref 3050518")
    assert result.ok
    names = {e["name"] for e in result.data["entities"]}
    assert names == {"The Heralds", "Solanthe, the Dune Warden", "Auriel Vane", "The Choir of Meridian",
                     "The Quiet Kernel"}  # fmt: skip
    codes = {c["code"]: c["count"] for c in result.data["codes"]}
    assert codes == {"3050518": 5, "7777": 5}  # the Quiet Kernel also carries the Lattice's code
    assert result.data["codes"][0]["code"] == "3050518"
    nothing = run(atlas_session, "sref 99999")
    assert nothing.ok and nothing.data["found"] == 0


def test_export_and_import_round_trip(atlas_session, tmp_path):
    assert run(atlas_session, "export the catalogue to out/atlas.jsonl").ok
    exported = (atlas_session.workspace.root / "out" / "atlas.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(exported) == 56
    again = run(atlas_session, "export the catalogue to out/atlas.jsonl")
    assert not again.ok and "already exists" in again.message

    other = tmp_path / "other"
    other.mkdir()
    (other / "atlas.jsonl").write_text("\n".join(exported) + "\n", encoding="utf-8")
    fresh = Session(None, workspace=other)
    result = run(fresh, "import atlas.jsonl")
    assert result.ok and result.data["added"] == 56
    original = {e.name: e.record() for e in atlas_session.state("atlas").catalogue.entities()}
    copied = {e.name: e.record() for e in fresh.state("atlas").catalogue.entities()}
    assert copied == original


def test_import_skips_bad_lines_and_says_which(workspace):
    (workspace / "mixed.jsonl").write_text(
        '{"name": "One"}\nnot json\n{"type": "nameless"}\n[1, 2]\n\n{"name": "Two", "domain": "D"}\n'
        '{"name": "' + "x" * 300 + '"}\n',
        encoding="utf-8",
    )
    result = run(Session(None, workspace=workspace), "import mixed.jsonl")
    assert result.ok and result.data["added"] == 2
    assert [e.split(":")[0] for e in result.data["skipped"]] == ["line 2", "line 3", "line 4", "line 7"]
    assert "4 line(s) skipped" in result.message


@pytest.mark.parametrize(
    ("content", "path", "says"),
    [
        ("", "empty.jsonl", "empty"),
        ("nothing here\n", "junk.jsonl", "line 1"),
        (None, "missing.jsonl", "no file"),
        (None, "../outside.jsonl", "security error"),
    ],
)
def test_imports_that_bring_nothing_are_errors(workspace, content, path, says):
    if content is not None:
        (workspace / path).write_text(content, encoding="utf-8")
    result = Session(None, workspace=workspace).execute({"action": "import_catalogue", "path": path})
    assert not result.ok and says in result.message


def test_undoing_an_import_restores_what_it_replaced(atlas_session):
    write_jsonl(
        atlas_session.workspace.root / "update.jsonl",
        [{"name": "eigensage", "description": "Rewritten."}, {"name": "Brand New", "domain": "X"}],
    )
    result = run(atlas_session, "import update.jsonl")
    catalogue = atlas_session.state("atlas").catalogue
    assert result.data == {
        "imported": 2,
        "repeated": 0,
        "added": 1,
        "replaced": 1,
        "skipped": [],
        "skipped_count": 0,
    }
    assert catalogue.get("Eigensage").description == "Rewritten."
    assert catalogue.count() == 57
    assert run(atlas_session, "undo").ok
    assert catalogue.get("Eigensage").description.startswith("An abstract entity")
    assert catalogue.get("Eigensage").name == "Eigensage"
    assert catalogue.get("Brand New") is None and catalogue.count() == 56
    assert run(atlas_session, "similar to Eigensage").data["found"] == 5  # its vector came back too


def test_removing_is_undone_with_the_entitys_codes_and_vectors(atlas_session):
    assert run(atlas_session, "remove Parity from the catalogue").ok
    catalogue = atlas_session.state("atlas").catalogue
    assert catalogue.get("Parity") is None
    assert run(atlas_session, "undo").ok
    assert catalogue.get("Parity").sref == "7777"
    assert "Parity" in {e["name"] for e in run(atlas_session, "sref 7777").data["entities"]}


def test_search_sees_what_another_connection_wrote(atlas_session):
    embedder = HashedEmbedder()
    assert run(atlas_session, "find similar to lantern").ok
    mine = atlas_session.state("atlas").catalogue
    other = Catalogue(mine.path)
    other.add(Entity("Paper Lantern Kite", description="a lantern kite of paper"), embedder)
    hits = mine.search(embedder.embed(["paper lantern kite"])[0], "offline", 1)
    assert hits[0][0].name == "Paper Lantern Kite"
    with pytest.raises(CatalogueError, match="already"):
        other.add(Entity("paper lantern KITE"), embedder)


def test_a_file_that_is_not_a_catalogue_is_refused(workspace):
    path = workspace / CATALOGUE_FILE
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not sqlite" * 100)
    result = run(Session(None, workspace=workspace), "list entities")
    assert not result.ok and "not a catalogue" in result.message


def test_top_k_matches_a_full_sort():
    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(2000, 32)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    query = vectors[7]
    excluded = np.zeros(2000, bool)
    excluded[[7, 11]] = True
    got = top_k(vectors, query, 10, excluded)
    scores = vectors @ query
    scores[[7, 11]] = -np.inf
    assert [i for i, _ in got] == list(np.argsort(-scores)[:10])
    assert top_k(vectors[:3], query, 10) and len(top_k(vectors[:3], query, 10)) == 3
    assert top_k(vectors[:0], query, 5) == []


def hostile_catalogue(workspace) -> None:
    """A catalogue file whose ``entities`` is a recursive view: any read of it never ends."""
    path = workspace / CATALOGUE_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE VIEW entities AS WITH RECURSIVE forever(n) AS "
        "(SELECT 1 UNION ALL SELECT n + 1 FROM forever) "
        "SELECT n AS id, 'x' || n AS name, 'x' || n AS name_key FROM forever;"
    )
    db.close()


def test_a_catalogue_with_a_recursive_view_never_holds_up_a_typed_line(workspace):
    import time

    hostile_catalogue(workspace)
    session = Session(None, workspace=workspace)
    started = time.perf_counter()
    for _ in range(5):
        session.known_names()  # what every typed line asks
    assert time.perf_counter() - started < 1.0
    started = time.perf_counter()
    result = run(session, "list entities")
    assert time.perf_counter() - started < 5.0
    assert not result.ok and "view" in result.message and "not opened" in result.message


def test_a_statement_past_its_deadline_is_stopped_with_a_clear_message(tmp_path, monkeypatch):
    import time

    from napari_talk.packs.atlas import catalogue as module

    catalogue = Catalogue(tmp_path / "c.sqlite")
    monkeypatch.setattr(module, "STATEMENT_SECONDS", 0.3)
    started = time.perf_counter()
    with pytest.raises(CatalogueError, match="took more than"):
        catalogue._db.execute(
            "WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever) "
            "SELECT count(*) FROM forever"
        )
    assert time.perf_counter() - started < 2.0
    assert catalogue.count() == 0  # the connection goes on


def test_the_sample_never_overwrites_a_persons_file_of_the_same_name(workspace):
    """A person's picture where the sample's would go stays; the sample's goes beside it, and
    undo takes back only what the sample made."""
    mine = workspace / "atlas" / "images" / "sample" / "eigensage.png"
    mine.parent.mkdir(parents=True)
    mine.write_bytes(b"my own picture")
    session = Session(None, workspace=workspace)
    assert run(session, "load the sample catalogue").ok
    assert mine.read_bytes() == b"my own picture"
    image = session.state("atlas").catalogue.get("Eigensage").image
    assert image == "atlas/images/sample/eigensage-2.png" and (workspace / image).is_file()
    assert run(session, "undo").ok
    assert mine.read_bytes() == b"my own picture" and not (workspace / image).exists()


def test_stop_ends_an_import_between_two_batches(workspace):
    """The person presses Stop while an import embeds: the work ends after the batch in hand,
    saying how far it got, and the catalogue is left as it was."""
    from napari_talk.core.basics.jobs import Progress
    from napari_talk.core.basics.result import CommandError
    from napari_talk.packs.atlas import commands as cmd
    from napari_talk.packs.atlas.handlers import HANDLERS

    write_jsonl(workspace / "big.jsonl", [{"name": f"entity {i}", "description": "x"} for i in range(2000)])
    session = Session(None, workspace=workspace)
    session.state("atlas").use("offline", None)
    ctx = session.context(session.registry.pack("atlas"))
    handler = HANDLERS.get(cmd.ImportCatalogue)
    assert handler is not None
    job = handler(cmd.ImportCatalogue(path="big.jsonl"), ctx)
    reports: list[str] = []
    progress = Progress(lambda status, _: reports.append(status) or progress.set())
    with pytest.raises(CommandError, match="stopped after 512 of 2000"):
        job.work(progress)
    assert reports == ["embedding 2000 entities: 256 of 2000"]
    assert session.state("atlas").catalogue.count() == 0
