"""Searching the catalogue by how pictures look: colours, tones and patterns measured on the
pictures themselves count beside meaning, and a query that describes who an entity is still
ranks by meaning."""

from __future__ import annotations

import numpy as np
import pytest
from support.door import open_door, said, type_line, typed_ok

from napari_talk.packs.atlas import facets
from napari_talk.packs.atlas.catalogue import Entity
from napari_talk.packs.atlas.ranking import focus, query_facets, rank_scores, text_facets

SIDE = 96


def _grid(size: int = SIDE) -> np.ndarray:
    yy, xx = np.mgrid[0:size, 0:size]
    return ((xx % 12 < 2) | (yy % 12 < 2)).astype(float)


def _stripes(size: int = SIDE) -> np.ndarray:
    yy, xx = np.mgrid[0:size, 0:size]
    return 0.5 + 0.5 * np.sin((xx + 0.6 * yy) * 2 * np.pi / 14)


def _rings(size: int = SIDE) -> np.ndarray:
    yy, xx = np.mgrid[-1 : 1 : size * 1j, -1 : 1 : size * 1j]
    return 0.5 + 0.5 * np.cos(np.hypot(xx, yy) * 9 * np.pi)


def _orb(size: int = SIDE) -> np.ndarray:
    yy, xx = np.mgrid[-1 : 1 : size * 1j, -1 : 1 : size * 1j]
    return np.exp(-(xx**2 + yy**2) / 0.15)


def _noise(size: int = SIDE) -> np.ndarray:
    return np.random.default_rng(3).random((size, size))


def coloured(field: np.ndarray, dark: tuple[int, int, int], light: tuple[int, int, int]) -> np.ndarray:
    """A uint8 RGB picture: ``field`` (0–1) from the dark colour to the light one."""
    t = np.clip(field, 0, 1)[..., None]
    rgb = np.array(dark) * (1 - t) + np.array(light) * t
    return rgb.round().astype(np.uint8)


BLACK, WHITE = (10, 10, 12), (245, 245, 240)
PICTURES = {
    # name: (picture, what the person sees in it)
    "Specimen Alder": (coloured(_grid(), BLACK, (60, 110, 230)), "a blue grid"),
    "Specimen Birch": (coloured(_stripes(), (90, 10, 10), (235, 40, 30)), "red stripes"),
    "Specimen Cedar": (coloured(_rings(), (10, 60, 20), (60, 200, 80)), "green rings"),
    "Specimen Douglas": (coloured(_orb(), BLACK, (250, 200, 40)), "a gold orb on black"),
    "Specimen Elm": (coloured(_noise(), (40, 40, 40), (200, 200, 200)), "grey grain"),
}


def rgb_of(picture: np.ndarray) -> np.ndarray:
    return picture / 255.0


# -- the facets of a picture ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "facet"),
    [
        ("Specimen Alder", "grid"),
        ("Specimen Birch", "stripes"),
        ("Specimen Cedar", "rings"),
        ("Specimen Douglas", "orb"),
        ("Specimen Elm", "noise"),
        ("Specimen Alder", "blue"),
        ("Specimen Birch", "red"),
        ("Specimen Cedar", "green"),
        ("Specimen Douglas", "gold"),
        ("Specimen Elm", "grey"),
    ],
)
def test_a_pictures_own_facet_is_stronger_in_it_than_in_any_other_picture(name, facet):
    measured = {n: facets.measure(rgb_of(p)) for n, (p, _) in PICTURES.items()}
    ours = measured[name][facet]
    assert ours > 0.3, (name, facet, measured[name])
    assert all(ours > other[facet] for n, other in measured.items() if n != name), {
        n: round(m[facet], 2) for n, m in measured.items()
    }


def test_a_blank_or_unreadable_thumbnail_has_no_facets_and_breaks_nothing():
    assert facets.of_thumbnail(None) == {} and facets.of_thumbnail(b"not a png") == {}
    flat = facets.measure(np.full((32, 32, 3), 0.5))
    assert all(flat[p] == 0 for p in facets.PATTERN_FACETS)  # no gradient: no pattern


# -- the words of a query ---------------------------------------------------------------------------


def test_a_query_names_facets_by_general_words_and_says_how_much_it_is_about_looks():
    assert query_facets("something crimson") == ("red",)
    assert query_facets("criss-cross squares") == ("grid",)
    assert set(query_facets("a swirl in teal")) == {"spiral", "teal"}
    assert focus("a swirl") == 1.0
    assert focus("a hushed heart of the system with a lone icy pale throb") < 0.4
    assert query_facets("keeper of books beneath the waves") == ("waves",)  # named, but …
    assert focus("keeper of books beneath the waves") < 0.5  # … most of it is about who


def test_an_entitys_names_say_nothing_of_its_picture():
    entity = Entity("Hollow Index", domain="The Lattice", description="A quiet archivist in crimson.")
    assert text_facets(entity) == {"red"}  # not "void" (hollow) nor "grid" (lattice)


# -- ranking ---------------------------------------------------------------------------------------


def thumbnails() -> list[bytes]:
    from napari_talk.packs.atlas.analysis import thumbnail_png

    return [thumbnail_png(rgb_of(picture)) for picture, _ in PICTURES.values()]


def plain_entities() -> list[Entity]:
    """The specimens with the same words each: nothing in their text tells them apart."""
    return [
        Entity(name, domain="Bench", description="A specimen photographed on the bench.") for name in PICTURES
    ]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("something red", "Specimen Birch"),
        ("golden", "Specimen Douglas"),
        ("a grid", "Specimen Alder"),
    ],
)
def test_entities_whose_words_are_alike_rank_by_what_their_pictures_show(query, expected):
    from napari_talk.packs.atlas.calibration import Scale
    from napari_talk.packs.atlas.embeddings import HashedEmbedder

    entities, embedder = plain_entities(), HashedEmbedder()
    vectors = embedder.embed([entities[0].description] * len(entities))  # their names aside: alike
    vector = embedder.embed([query])[0]
    scale = Scale(0.1, 0.3, 0.5)
    alone = rank_scores(query, vector, entities, vectors, scale)  # no pictures: nothing tells them apart
    assert np.allclose(alone, alone[0])
    scores = rank_scores(query, vector, entities, vectors, scale, thumbnails())
    assert entities[int(np.argmax(scores))].name == expected, dict(
        zip(PICTURES, scores.round(2), strict=True)
    )


def test_a_query_naming_no_look_ranks_by_meaning_alone():
    """No facet named, no near-synonym shared: the order is the similarity's, pictures or not."""
    from napari_talk.packs.atlas.calibration import Scale

    entities = plain_entities()
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(len(entities), 8))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    query = vectors[2] + 0.3 * rng.normal(size=8)
    scores = rank_scores(
        "the one who tends the bench", query, entities, vectors, Scale(0.0, 0.5, 0.9), thumbnails()
    )
    assert np.array_equal(np.argsort(-scores), np.argsort(-(vectors @ query)))


@pytest.fixture
def door(make_napari_viewer_proxy, workspace, qtbot):
    """The dock on a viewer holding the five made pictures, each added to an empty catalogue by a
    typed line (their descriptions composed from the pictures' measurements, which name colours
    but no pattern)."""
    dock = open_door(make_napari_viewer_proxy, workspace)
    for name, (picture, _) in PICTURES.items():
        layer = name.split()[1].lower()
        dock.viewer.add_image(picture, name=layer, rgb=True)
        typed_ok(qtbot, dock, f"add {layer} to the catalogue as {name} in Bench")
    assert len(dock.session.state("atlas").catalogue.entities()) == len(PICTURES)
    return dock


LOOKS = [
    ("show me pictures that look like a grid", "Specimen Alder"),
    ("find similar to stripes", "Specimen Birch"),
    ("find similar to concentric circles", "Specimen Cedar"),
    ("find similar to a glowing ball", "Specimen Douglas"),
    ("find similar to grainy static", "Specimen Elm"),
    ("find similar to something red", "Specimen Birch"),
]


def test_a_person_finds_each_picture_by_its_look(door, qtbot):
    for line, expected in LOOKS:
        reply = type_line(qtbot, door, line)
        assert reply.kind != "error", reply.text
        found = list(door.session.state("atlas").last_results)
        assert found and found[0] == expected, (line, found, said(door).text)


def test_an_entity_is_found_by_its_description_when_its_whole_text_says_more_of_other_things():
    """The whole text (name, domain, a long prompt) dilutes the description; compared alone, the
    description that says what the query says ranks its entity first."""
    from napari_talk.packs.atlas.calibration import Scale
    from napari_talk.packs.atlas.embeddings import HashedEmbedder

    prompt = "harbour lighthouse storm ships fog cliffs gulls rope anchor tide lantern keeper " * 3
    keeper = Entity("Orla", domain="Coast", description="She mends fishing nets at dawn.", prompt=prompt)
    other = Entity("Bram", domain="Coast", description="He counts the boats in the harbour.")
    entities, embedder = [other, keeper], HashedEmbedder()
    vectors = embedder.embed([e.text() for e in entities])
    descriptions = embedder.embed([e.description for e in entities])
    query = "mending fishing nets at dawn"
    vector = embedder.embed([query])[0]
    scale = Scale(0.1, 0.3, 0.5)
    whole = rank_scores(query, vector, entities, vectors, scale)
    both = rank_scores(query, vector, entities, vectors, scale, descriptions=descriptions)
    assert float(both[1] - both[0]) > float(whole[1] - whole[0])
    assert int(np.argmax(both)) == 1, (whole, both)


@pytest.mark.parametrize(("name", "pattern"), [("Specimen Alder", "grid"), ("Specimen Cedar", "rings")])
def test_a_pictures_notes_name_its_pattern_in_words_a_search_reads_back(name, pattern):
    from napari_talk.packs.atlas import analysis

    notes = analysis.measure(rgb_of(PICTURES[name][0]))["visual_notes"]
    assert facets.PATTERN_WORDS[pattern] in notes, notes
    assert pattern in query_facets(notes)
    assert query_facets(facets.PATTERN_WORDS[pattern]) == (pattern,)
