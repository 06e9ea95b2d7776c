"""The README's "What to type" table works as typed on the cells sample's layers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from napari_talk.core.grammar.parser import parse
from napari_talk.samples import cells

README = (Path(__file__).parents[2] / "README.md").read_text()
SECTION = README.split("## What to type", 1)[1].split("\n## ", 1)[0]


def _table_phrases() -> list[tuple[str, str]]:
    """(what you type, what the row says it does) for every backticked phrase of the table."""
    rows = [line for line in SECTION.splitlines() if line.startswith("| `")]
    phrases = []
    for row in rows:
        typed, does = row.strip("|").split("|")[:2]
        phrases += [(phrase, does.strip()) for phrase in re.findall(r"`([^`]+)`", typed)]
    return phrases


PHRASES = _table_phrases()
LAYERS = [kwargs["name"] for _data, kwargs, _kind in cells()]


def test_the_table_is_found_and_names_the_samples_layers():
    assert len(PHRASES) >= 20, PHRASES
    named = re.search(r"With the cells sample \(layers (?P<names>[^)]*)\)", SECTION)
    assert named, "the section no longer says which layers the cells sample has"
    assert re.findall(r"`([^`]+)`", named["names"]) == LAYERS


@pytest.mark.parametrize(("typed", "does"), PHRASES, ids=[typed for typed, _ in PHRASES])
def test_each_line_of_the_table_parses_to_one_command(typed: str, does: str):
    commands = parse(typed, {"layers": LAYERS})
    assert len(commands) == 1, (typed, does, commands)
    wire = commands[0].to_wire()
    if "name" in wire and wire["action"] != "panel_toggle":
        assert wire["name"] in LAYERS, (typed, wire)


@pytest.mark.parametrize(
    ("typed", "layer"), [("HIDE gfp", "GFP"), ("hide bound", "cell boundaries"), ("shwo nuclei", "nuclei")]
)
def test_the_forgiving_examples_below_the_table_read_as_meant(typed: str, layer: str):
    assert f'"{typed}' in " ".join(SECTION.split()), f"the README no longer gives {typed!r} as an example"
    [command] = parse(typed, {"layers": LAYERS})
    assert command.to_wire()["name"] == layer
