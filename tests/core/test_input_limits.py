"""Input limits: a number out of range, a line too long, too many requests, a huge name: each gets a
clear reply from the parser instead of falling through to a model."""

from __future__ import annotations

import time

import pytest

from napari_talk.core.grammar.parser import MAX_COMMANDS, MAX_LINE
from napari_talk.core.running.session import Session


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("zoom out 0x", "out of range: factor should be greater than 0"),
        ("zoom to -1", "out of range: zoom"),
        ("set opacity of GFP to 300%", "out of range: opacity"),
        ("hide " + "x" * 100_000, f"at most {MAX_LINE:,} are read"),
        ("hide nuclei" + " " * MAX_LINE + "and show actin", f"at most {MAX_LINE:,} are read"),
        (" and ".join(["zoom in"] * (MAX_COMMANDS + 3)), f"at most {MAX_COMMANDS} run at once"),
    ],
    ids=["zero-factor", "negative-zoom", "opacity-300", "long-line", "long-line-runs-none", "many-requests"],
)
def test_a_line_the_parser_recognises_but_cannot_run_says_why(session, line, says):
    visible = [layer.visible for layer in session.viewer.layers]
    turn = session.run(line)
    assert turn.road == "parser" and not turn.ok and says in turn.message, turn.message
    assert [layer.visible for layer in session.viewer.layers] == visible, "no part of the line ran"
    assert len(turn.message) < 300, "the reply does not echo a huge line back"


def test_chat_is_still_not_understood_and_not_refused(session):
    for line in ("what a lovely image", "my supervisor wants the figure by friday"):
        turn = session.run(line)
        assert turn.road == "none" and "I did not understand" in turn.message


def test_a_huge_name_from_an_agent_is_refused_by_validation(tmp_path):
    result = Session(None, workspace=tmp_path).execute(
        {"action": "layer_visibility", "name": "x" * 100_000, "op": "hide"}
    )
    assert not result.ok and "at most 500 characters" in result.message and len(result.message) < 300


def test_parsing_time_stays_flat_as_lines_grow(session):
    """A chained line of the longest readable length costs about what a short one does."""
    names = session.known_names()
    short = "hide nuclei and show actin"
    long = " and ".join(["hide nuclei", "show actin"] * 40)[:MAX_LINE]
    session.parser.parse(short, names)

    def best(line: str) -> float:
        times = []
        for _ in range(5):
            started = time.perf_counter()
            session.parser.parse(line, names)
            times.append(time.perf_counter() - started)
        return min(times)

    assert best(long) < 0.25, f"{best(long) * 1000:.0f} ms for a {len(long)}-character line"


def test_a_slice_beyond_the_stack_says_its_range():
    import numpy as np
    from napari.components import ViewerModel

    viewer = ViewerModel()
    viewer.add_image(np.zeros((5, 10, 10)), name="stack")
    turn = Session(viewer).run("slice 99999999999999999999999999")
    assert not turn.ok and "out of range" in turn.message and "0–4" in turn.message
    assert viewer.dims.current_step[0] == 2, "the slider did not move"


def test_a_huge_layer_name_already_in_the_viewer_costs_nothing_and_is_shown_short(tmp_path):
    """A layer named with 100,000 characters outside napari-talk (a script, a plugin): the next typed
    line answers at once, and listings (for the person and for a model) show the name shortened."""
    import numpy as np
    from napari.components import ViewerModel

    viewer = ViewerModel()
    viewer.add_points(np.zeros((1, 2)), name="nuclei")
    session = Session(viewer, workspace=tmp_path)
    assert session.run("hide nuclei").ok  # the rules for the usual names are ready
    huge = "L" * 100_000
    viewer.add_image(np.zeros((4, 4)), name=huge)
    started = time.perf_counter()
    turn = session.run("show nuclei")
    assert turn.ok and time.perf_counter() - started < 5, time.perf_counter() - started
    assert all(len(n) <= 500 for found in session.known_names().values() for n in found)
    listed = session.run("list layers")
    assert listed.ok and len(listed.message) < 500 and "100,000 characters" in listed.message
    assert all(len(item["name"]) <= 200 for item in listed.results[0].data)
    assert sum(map(len, session.context_lines())) < 2_000, "a model is told the name shortened"
    missed = session.run("hide cytoplasm")
    assert not missed.ok and len(missed.message) < 500
