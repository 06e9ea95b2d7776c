"""analyze_image: real measurements, real downloads from 127.0.0.1 with their limits, and a vision
model through the Chat Completions stub."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from PIL import Image
from support.atlas_fixtures import *  # noqa: F403  (the atlas fixtures)
from support.atlas_servers import Route

from napari_talk.core.running.session import Session
from napari_talk.core.safety.net import NetPolicy
from napari_talk.packs.atlas import analysis, fetch


def png(pixels: np.ndarray) -> bytes:
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="PNG")
    return out.getvalue()


def halves(left, right, size=64) -> np.ndarray:
    picture = np.zeros((size, size, 3), np.uint8)
    picture[:, : size // 2], picture[:, size // 2 :] = left, right
    return picture


@pytest.fixture
def offline(workspace):
    """A session that may fetch from this machine: the test servers listen on 127.0.0.1."""
    session = Session(None, workspace=workspace)
    session.net = NetPolicy.from_setting("127.0.0.1")
    session.net = NetPolicy.from_setting("127.0.0.1")
    return session


def analyze(session, target: str):
    return session.execute({"action": "analyze_image", "image_url": target})


# -- the measurements ----------------------------------------------------------------------------


def test_brightness_contrast_and_colourfulness_are_measured():
    white = analysis.analyze(np.full((32, 32, 3), 255, np.uint8))["measurements"]
    black = analysis.analyze(np.zeros((32, 32), np.uint16))["measurements"]
    checker = analysis.analyze((np.indices((64, 64)).sum(0) // 8 % 2 * 255).astype(np.uint8))["measurements"]
    vivid = analysis.analyze(halves((255, 0, 0), (0, 255, 0)))["measurements"]
    assert white["brightness"] == 1.0 and white["contrast"] == 0.0
    assert black["brightness"] == 0.0
    assert checker["contrast"] > 0.45 and checker["texture"] != "smooth"
    assert white["colourfulness"] == 0.0 and vivid["colourfulness"] > 100
    assert vivid["colourfulness_label"] == "extremely colourful"


def test_dominant_colours_have_names_and_shares():
    found = analysis.analyze(halves((220, 30, 30), (30, 60, 210)))["colors"]
    names = {c["name"]: c["share"] for c in found["dominant"]}
    assert set(names) == {"red", "blue"} and all(abs(s - 0.5) < 0.05 for s in names.values())
    assert all(c["hex"].startswith("#") and len(c["hex"]) == 7 for c in found["dominant"])
    assert analysis.analyze(np.full((16, 16, 3), (240, 160, 20), np.uint8))["colors"]["temperature"] == "warm"


def test_symmetry_and_edges():
    yy, xx = np.mgrid[-1:1:64j, -1:1:64j]
    disc = ((xx**2 + yy**2) < 0.5).astype(np.uint8) * 255
    measured = analysis.analyze(disc)["measurements"]
    assert measured["symmetry"] == {"left_right": 1.0, "top_bottom": 1.0}
    assert measured["edge_density"] > 0
    ramp = np.tile(np.linspace(0, 255, 64), (64, 1)).astype(np.uint8)
    assert analysis.analyze(ramp)["measurements"]["symmetry"]["left_right"] == 0.0
    flat = analysis.analyze(np.full((64, 64), 7, np.uint8))["measurements"]
    assert flat["edge_density"] == 0.0 and flat["texture"] == "smooth"


def test_a_grey_picture_is_measured_through_its_colormap():
    grey = np.tile(np.linspace(0, 1000, 64), (64, 1))

    def green(values):
        return np.stack([0 * values, values, 0 * values, np.ones_like(values)], axis=-1)

    shown = analysis.analyze(grey, limits=(0, 1000), colormap=green)
    assert shown["colors"]["dominant"][0]["name"] in {"green", "forest green", "black", "lime"}
    assert shown["measurements"]["colourfulness"] > 20
    assert analysis.analyze(grey)["measurements"]["colourfulness"] == 0.0


# -- where pictures come from --------------------------------------------------------------------


def test_a_url_is_downloaded_and_measured(offline, file_server):
    file_server.routes["/gold.png"] = Route(png(np.full((40, 60, 3), (212, 160, 23), np.uint8)))
    result = analyze(offline, file_server.url("/gold.png"))
    assert result.ok, result.message
    analysis_ = result.data["analysis"]
    assert result.data["success"] is True
    assert analysis_["measurements"]["size"] == [40, 60]
    assert analysis_["colors"]["dominant"][0]["name"] == "gold"
    assert analysis_["suggested_name"] is None and "description" in result.data["unavailable"]
    assert "unavailable" in result.message and "no language model" in result.message


@pytest.mark.parametrize(
    ("route", "says"),
    [
        (Route(b"<html>hello</html>", content_type="text/html"), "not an image"),
        (Route(b"gone", status=404, content_type="text/plain"), "404"),
        (Route(b"x" * 1000, announced=10**10), "over the"),
        (Route(b"x" * 300_000, send_length=False), "larger than"),
    ],
    ids=["not-an-image", "404", "huge-announced", "huge-streamed"],
)
def test_bad_downloads_are_clear_errors(offline, file_server, monkeypatch, route, says):
    monkeypatch.setattr(fetch, "MAX_BYTES", 100_000)
    file_server.routes["/thing"] = route
    result = analyze(offline, file_server.url("/thing"))
    assert not result.ok and says in result.message, result.message


def test_a_server_too_slow_is_given_up_on(offline, file_server, monkeypatch):
    monkeypatch.setattr(fetch, "TIMEOUT", 0.5)
    file_server.routes["/slow.png"] = Route(png(np.zeros((8, 8, 3), np.uint8)), delay=2.0)
    result = analyze(offline, file_server.url("/slow.png"))
    assert not result.ok and "0.5 s" in result.message


@pytest.mark.parametrize("url", ["https://", "http://127.0.0.1:1/nothing-listens.png"])
def test_bad_urls_are_clear_errors(offline, url):
    result = analyze(offline, url)
    assert not result.ok and ("not an http(s) URL" in result.message or "cannot reach" in result.message)


def test_workspace_files_are_read_and_kept_inside(offline, workspace):
    (workspace / "pics").mkdir()
    Image.fromarray(halves((0, 0, 0), (255, 255, 255))).save(workspace / "pics" / "half.png")
    (workspace / "pics" / "fake.png").write_text("I am text, not a picture")
    good = analyze(offline, "pics/half.png")
    assert good.ok and good.data["analysis"]["measurements"]["brightness"] == 0.5
    fake = analyze(offline, "pics/fake.png")
    assert not fake.ok and "not an image" in fake.message
    escape = analyze(offline, "../outside.png")
    assert not escape.ok and "security error" in escape.message
    missing = analyze(offline, "pics/none.png")
    assert not missing.ok and "no workspace file or URL" in missing.message


# -- with a vision model --------------------------------------------------------------------------


@pytest.fixture
def vision_session(workspace, llm_settings):
    from napari_talk.core.llm.road import LLMRoad

    session = Session(None, workspace=workspace)
    session.net = NetPolicy.from_setting("127.0.0.1")
    session.llm = LLMRoad(session.registry, llm_settings)
    return session


def test_a_vision_model_fills_the_interpretive_fields(vision_session, chat_server, file_server):
    file_server.routes["/void.png"] = Route(png(np.zeros((32, 32, 3), np.uint8)))
    reply = {
        "suggested_name": "Eigensage", "suggested_type": "Architect", "domain": "The Lattice",
        "description": "It contains rather than remembers.", "phase_state": "Spectral",
        "mood": "Abstract, signal-like",
    }  # fmt: skip
    chat_server.say("```json\n" + json.dumps(reply) + "\n```")
    result = analyze(vision_session, file_server.url("/void.png"))
    assert result.ok, result.message
    assert {k: result.data["analysis"][k] for k in reply} == reply
    assert result.data["analysis"]["colors"]["dominant"][0]["name"] == "black"  # measured all the same
    content = chat_server.requests[0]["messages"][0]["content"]
    assert content[1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert "visual_notes" in content[0]["text"]
    assert "unavailable" not in result.data and "Eigensage" in result.message


def test_a_failing_vision_model_leaves_the_measurements(vision_session, chat_server, file_server):
    file_server.routes["/a.png"] = Route(png(np.full((16, 16, 3), 200, np.uint8)))
    chat_server.fail(500)
    result = analyze(vision_session, file_server.url("/a.png"))
    assert result.ok and result.data["analysis"]["measurements"]["brightness"] > 0.7
    assert result.data["analysis"]["mood"] is None
    assert "interpretation failed" in result.message and "sk-test" not in result.message


def test_a_small_tiff_declaring_gigabytes_is_refused_before_decoding(offline, workspace):
    """A small TIFF of 8 compressed float pages declaring 640 MB (160 M values, each page within the
    pixel limit): refused from its header, naming the limit, while memory stays small."""
    import tracemalloc

    import tifffile

    page = np.zeros((4000, 5000), np.float32)
    path = workspace / "bomb.tif"
    tifffile.imwrite(
        path, (page for _ in range(8)), shape=(8, 4000, 5000), dtype=np.float32, compression="zlib"
    )
    assert path.stat().st_size < 2_000_000
    del page
    tracemalloc.start()
    try:
        result = analyze(offline, "bomb.tif")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not result.ok
    assert "8×4000×5000" in result.message and "MiB one image may take" in result.message
    assert peak < 100 * 2**20
