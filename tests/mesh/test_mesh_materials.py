"""The material library and the matching of descriptions to it."""

from __future__ import annotations

import colorsys

import pytest

from napari_talk.packs.mesh.materials import by_name, library, linear_to_srgb, match

TABLE = [
    ("a dark, rusty metal", "rusted iron", "cast iron"),
    ("glowing blue crystals", "crystal", "sapphire"),
    ("worn leather", "leather", "suede"),
    ("shiny gold", "gold", None),
    ("brushed steel", "brushed steel", "polished steel"),
    ("oak wood", "oak", "walnut"),
    ("wooden", "oak", None),
    ("red brick wall", "brick", None),
    ("polished white marble", "marble", None),
    ("frosted glass", "frosted glass", "clear glass"),
    ("glass", "clear glass", None),
    ("an old rubber tyre", "rubber", None),
    ("copper pipes", "copper", None),
    ("mirror-like chrome", "chrome", None),
    ("molten lava", "lava", None),
    ("ice", "ice", None),
    ("royal velvet", "velvet", None),
    ("carved jade", "jade", None),
    ("carbon fiber", "carbon fibre", None),
    ("green patina", "verdigris copper", None),
    ("weathered driftwood", "weathered wood", None),
    ("black volcanic glass", "obsidian", None),
    ("terracotta pot", "terracotta", None),
    ("neon pink sign", "neon", None),
    ("soft wool", "wool", None),
    ("bone", "bone", None),
    ("sand", "sandstone", None),
    ("make it blue", "matte plastic", None),
]


def test_the_library_has_thirty_complete_pbr_materials():
    materials = library()
    assert len(materials) >= 30
    assert len({m.name for m in materials}) == len(materials)
    for m in materials:
        assert len(m.base_color) == 3 and all(0 <= c <= 1 for c in m.base_color)
        assert 0 <= m.metallic <= 1 and 0 <= m.roughness <= 1 and 0 < m.alpha <= 1
        assert m.keywords or m.synonyms, f"{m.name} has nothing to be found by"
    assert any(m.glows for m in materials) and any(m.metallic == 1 for m in materials)


@pytest.mark.parametrize(("description", "chosen", "runner_up"), TABLE)
def test_descriptions_map_to_the_best_material(description, chosen, runner_up):
    found = match(description)
    assert found is not None
    assert found.library_name == chosen
    if runner_up is not None:
        assert found.runner_up == runner_up
    assert found.runner_up != found.library_name


def _hsv(rgb):
    return colorsys.rgb_to_hsv(*(linear_to_srgb(c) for c in rgb))


def test_colour_and_intensity_words_adjust_the_material():
    crystal = by_name("crystal")
    glowing = match("glowing blue crystals").material
    hue, saturation, _ = _hsv(glowing.base_color)
    assert 0.55 < hue < 0.72 and saturation > 0.5, "blue"
    assert glowing.glows and glowing.emissive_strength > 1 and not crystal.glows
    rust = by_name("rusted iron")
    assert _hsv(match("a dark, rusty metal").material.base_color)[2] < _hsv(rust.base_color)[2]
    assert match("shiny gold").material.roughness < by_name("gold").roughness
    assert match("matte gold").material.roughness > by_name("gold").roughness
    assert match("worn leather").material.roughness > by_name("leather").roughness
    very, slightly = match("very dark oak").material, match("slightly dark oak").material
    assert _hsv(very.base_color)[2] < _hsv(slightly.base_color)[2]
    assert (
        match("a faintly glowing jade").material.emissive_strength
        < match("glowing jade").material.emissive_strength
    )


def test_a_colour_the_material_already_has_does_not_repaint_it():
    assert match("red brick").material.base_color == by_name("brick").base_color
    assert match("blue sapphire").material.base_color == by_name("sapphire").base_color


@pytest.mark.parametrize("description", ["", "blurgh", "make it bigger", "the thing on the left"])
def test_nothing_matches_what_is_not_a_material(description):
    assert match(description) is None


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("rusty iron", "rusted iron"),
        ("iron gone rusty", "rusted iron"),
        ("copper patina", "verdigris copper"),
        ("old copper with a green patina", "verdigris copper"),
        ("clear water", "water"),
        ("sea water", "water"),
        ("bright red car paint", "car paint"),
        ("glossy blue automotive paint", "car paint"),
        ("iron", "cast iron"),
        ("copper", "copper"),
    ],
)
def test_every_word_that_names_a_material_counts_not_the_files_order(description, expected):
    from napari_talk.packs.mesh import materials

    found = materials.match(description)
    assert found is not None and found.material.name.split(" (")[0] == expected, found


def test_car_paint_keeps_its_paint_through_the_grammar(tmp_path):
    from napari_talk.core.running.session import Session

    session = Session(None, workspace=tmp_path)
    assert session.run("spawn a cube").ok
    turn = session.run("apply bright red car paint")
    assert turn.ok, turn.message
    assert turn.commands[-1].material_description == "bright red car paint"
    assert "car paint" in turn.message


@pytest.mark.parametrize(
    "description, material, finish",
    [
        ("satin nickel", "nickel", "satin"),
        ("wet asphalt", "asphalt", "wet"),
        ("tarnished copper", "copper", "tarnished"),
        ("brushed brass", "brass", "satin"),
        ("wet sandstone", "sandstone", "wet"),
        ("tarnished silver", "silver", "tarnished"),
    ],
)
def test_finish_words_modify_the_material_the_text_ends_on(description, material, finish):
    found = match(description)
    assert found is not None and found.library_name == material and finish in found.adjustments
    plain = by_name(material)
    if finish == "satin":
        assert 0.3 <= found.material.roughness <= 0.45
    if finish == "wet":  # water darkens a surface and makes it glossy
        assert found.material.roughness <= 0.15 < plain.roughness
        assert _value(found.material.base_color) < _value(plain.base_color)
    if finish == "tarnished":  # dark and dull, still the same metal
        assert found.material.roughness > plain.roughness and found.material.metallic == plain.metallic
        assert _value(found.material.base_color) < 0.8 * _value(plain.base_color)


def test_a_finish_word_alone_still_names_what_it_names():
    assert match("satin").library_name == "silk"
    assert match("a satin dress").library_name == "silk"


def test_the_docs_give_the_number_of_materials_the_library_holds():
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "mesh.md").read_text()
    assert f"{len(library())} PBR materials" in docs and f"({len(library())} materials)" in docs


def _value(rgb) -> float:
    return max(linear_to_srgb(c) for c in rgb)
