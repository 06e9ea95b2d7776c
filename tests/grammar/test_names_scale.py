"""Live names are looked up, not compiled into patterns: a line's work does not grow with them.

Work is counted (Python calls made while reading a line), not timed, so the test does not flake;
`benchmarks/parser_names.py` gives the times."""

from __future__ import annotations

import sys

from napari_talk.core.contract.registry import default_registry
from napari_talk.core.grammar.parser import Parser

LINES = (
    "hide nuclei",
    "set the opacity of nuclei to 50%",
    "rays crossing edge N of Glass 42",
    "make nuclei magenta and zoom to 300%",
    "what's the weather like today?",
)


def scene(count: int) -> dict[str, list[str]]:
    return {
        "layers": ["nuclei (H2B)", "GFP", "actin", *(f"tile {i}" for i in range(count))],
        "glasses": [f"Glass {i}" for i in range(count)],
    }


def calls_while_reading(parser: Parser, line: str, names: dict[str, list[str]]) -> int:
    parser.parse(line, names)  # the rules compiled and the names indexed, as in a session
    names = {kind: list(found) for kind, found in names.items()}  # a session's next line: new lists
    count = 0

    def counting(_frame, event, _arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(counting)
    try:
        parser.parse(line, names)
    finally:
        sys.setprofile(None)
    return count


def test_a_line_does_the_same_work_with_ten_names_or_ten_thousand():
    parser = Parser(default_registry())
    for line in LINES:
        few = calls_while_reading(parser, line, scene(10))
        many = calls_while_reading(parser, line, scene(10_000))
        assert many <= 2 * few + 50, (line, few, many)


def test_the_work_stays_flat_however_many_scenes_were_read_before():
    """A long session (or a test run) reads many sets of names: the memory of their indexes fills,
    and what the current line uses must not be the part that is dropped. Each round indexes three
    new sets (coprime with the memory's size), so every fill level at which it overflows is met."""
    parser = Parser(default_registry())
    few = calls_while_reading(parser, "hide nuclei", scene(10))
    for earlier in range(40):
        parser.prepare({"layers": [f"earlier {earlier}"]})
        many = scene(2_000)
        many["layers"].append(f"tile set {earlier}")
        many["glasses"].append(f"Glass set {earlier}")
        work = calls_while_reading(parser, "hide nuclei", many)
        assert work <= 2 * few + 50, (earlier, few, work)


def test_names_among_ten_thousand_are_found_by_lookup():
    parser = Parser(default_registry())
    names = scene(10_000)
    (found,) = parser.parse("rays crossing edge N of Glass 9999", names)
    assert found.to_wire() == {
        "action": "find_rays_crossing_edge",
        "glass_name": "Glass 9999",
        "edge_label": "N",
    }
    (loose,) = parser.parse("hide nuclei", names)
    assert loose.to_wire() == {"action": "layer_visibility", "name": "nuclei (H2B)", "op": "hide"}
    assert parser.parse("rays crossing edge N of Glass 10000", names) == []
