"""The deterministic parser: names, numbers, several requests per line, and its guarantees."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from napari_talk.core.contract.registry import default_registry
from napari_talk.core.grammar.parser import parse

LAYERS = {"layers": ["nuclei", "cell boundaries", "actin", "GFP", "Labels", "spots"]}


def wire(text, context=LAYERS):
    return [c.to_wire() for c in parse(text, context)]


@pytest.mark.parametrize(
    ("text", "point"),
    [
        ("center on 10 20", [10, 20]),
        ("center on 10,20", [10, 20]),
        ("center on (10, 20)", [10, 20]),
        ("center on [10, 20]", [10, 20]),
        ("center on x=10 y=20", [10, 20]),
        ("center on y=20 x=10", [10, 20]),
        ("centre at -5.5, 3e0", None),
        ("pan to -5.5, 7.25", [-5.5, 7.25]),
        ("center on 1.2.3,4", None),
    ],
)
def test_points_are_read_as_people_type_them(text, point):
    got = wire(text)
    if point is None:
        assert got == []
    else:
        assert got == [{"action": "center_on", "point": point}]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("zoom to 300%", {"action": "set_zoom", "zoom": 3}),
        ("zoom to 2", {"action": "set_zoom", "zoom": 2}),
        ("set zoom 0.5", {"action": "set_zoom", "zoom": 0.5}),
        ("zoom in", {"action": "zoom_by", "factor": 2}),
        ("zoom out", {"action": "zoom_by", "factor": 0.5}),
        ("zoom ×2", {"action": "zoom_by", "factor": 2}),
        ("zoom in 3x", {"action": "zoom_by", "factor": 3}),
        ("zoom out 4x", {"action": "zoom_by", "factor": 0.25}),
        ("set opacity of actin to 30%", {"action": "layer_opacity", "name": "actin", "opacity": 0.3}),
    ],
)
def test_scales_factors_and_percentages(text, expected):
    assert wire(text) == [expected]


@pytest.mark.parametrize("text", ["set zoom to -1", "zoom to 0", "opacity of actin 300%", "zoom box 1 2"])
def test_invalid_values_are_not_understood(text):
    assert wire(text) == []


def test_names_ignore_case_but_return_the_real_spelling():
    assert wire("HIDE gfp") == [{"action": "layer_visibility", "name": "GFP", "op": "hide"}]
    assert wire("hide Cell Boundaries") == [
        {"action": "layer_visibility", "name": "cell boundaries", "op": "hide"}
    ]


def test_multi_word_names_need_no_quotes_and_quotes_always_work():
    assert wire("rename cell boundaries to membrane") == [
        {"action": "rename_layer", "name": "cell boundaries", "new_name": "membrane"}
    ]
    assert wire("fit 'cell boundaries'") == [{"action": "fit_to_layer", "name": "cell boundaries"}]


def test_a_unique_part_of_a_name_resolves_and_an_exact_name_wins():
    assert wire("hide bound") == [{"action": "layer_visibility", "name": "cell boundaries", "op": "hide"}]
    raw = {"layers": ["raw", "raw denoised"]}
    assert wire("hide raw", raw) == [{"action": "layer_visibility", "name": "raw", "op": "hide"}]


def test_unknown_and_ambiguous_names_are_left_to_the_next_road():
    assert wire("hide mitochondria") == []
    assert wire("hide GFP", {"layers": ["GFP left", "GFP right"]}) == []


def test_several_requests_in_order():
    assert [c["action"] for c in wire("fit GFP, then zoom to 2")] == ["fit_to_layer", "set_zoom"]
    assert wire("hide nuclei and show actin") == [
        {"action": "layer_visibility", "name": "nuclei", "op": "hide"},
        {"action": "layer_visibility", "name": "actin", "op": "show"},
    ]
    assert wire("hide nuclei and actin") == [
        {"action": "layer_visibility", "name": "nuclei", "op": "hide"},
        {"action": "layer_visibility", "name": "actin", "op": "hide"},
    ]


def test_polite_wrapping_is_fine():
    assert wire("Could you please hide the nuclei layer?") == [
        {"action": "layer_visibility", "name": "nuclei", "op": "hide"}
    ]


def test_without_context_built_in_panels_are_known():
    assert wire("open the console", {}) == [{"action": "panel_toggle", "name": "console", "op": "open"}]
    assert wire("hide nuclei", {}) == [{"action": "layer_visibility", "name": "nuclei", "op": "hide"}]


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=120))
def test_parse_never_raises_and_returns_only_valid_commands(text):
    registry = default_registry()
    for command in parse(text, LAYERS):
        assert registry.validate(command.to_wire()) == command


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "hide",
                "show",
                "zoom",
                "to",
                "and",
                "then",
                "nuclei",
                "300%",
                "x=",
                "(",
                ",",
                "1.5",
                "-2",
                "'",
                "GFP",
                "center",
                "on",
                "box",
                "rename",
                "opacity",
                "  ",
            ]
        ),
        max_size=14,
    )
)
def test_word_salad_of_grammar_words_never_breaks_the_parser(words):
    registry = default_registry()
    for command in parse(" ".join(words), LAYERS):
        registry.validate(command.to_wire())


@settings(max_examples=100, deadline=None)
@given(
    st.floats(-1e6, 1e6, allow_nan=False).map(lambda v: round(v, 3)),
    st.floats(-1e6, 1e6, allow_nan=False).map(lambda v: round(v, 3)),
)
def test_any_typed_point_round_trips(x, y):
    assert wire(f"center on ({x}, {y})") == [{"action": "center_on", "point": [x, y]}]


@settings(max_examples=100, deadline=None)
@given(st.from_regex(r"[A-Za-z][A-Za-z0-9_]{2,12}", fullmatch=True))
def test_any_layer_name_resolves_whatever_its_case(name):
    # "hide ALL" hides every layer, even with one named "all": the phrase outranks the name
    assume(name.casefold() not in {"all", "everything", "them", "layers"})
    context = {"layers": [name, "other layer"]}
    assert wire(f"hide {name.upper()}", context) == [
        {"action": "layer_visibility", "name": name, "op": "hide"}
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("zoom in three times", {"action": "zoom_by", "factor": 3}),
        ("go to slice seven", {"action": "set_slice", "index": 7}),
        ("rotate forty-five degrees", {"action": "rotate_view", "degrees": 45}),
        ("make GFP three times as bright", {"action": "adjust_brightness", "name": "GFP", "factor": 3}),
        ("make GFP twice as dim", {"action": "adjust_brightness", "name": "GFP", "factor": 0.5}),
        (
            "set the opacity of nuclei to a half",
            {"action": "layer_opacity", "name": "nuclei", "opacity": 0.5},
        ),
        ("pan down by half the screen", {"action": "pan", "direction": "down", "fraction": 0.5}),
        ("pan left a quarter of the view", {"action": "pan", "direction": "left", "fraction": 0.25}),
        ("pan left 20%", {"action": "pan", "direction": "left", "fraction": 0.2}),
    ],
)
def test_numbers_and_shares_may_be_spelled_out(text, expected):
    assert wire(text) == [expected]


@pytest.mark.parametrize("text", ["tone", "often", "pan left 3", "someone"])
def test_spelled_numbers_are_whole_words_and_a_bare_pan_number_is_no_share(text):
    assert wire(text) == []


@pytest.mark.parametrize(
    ("text", "opacity"),
    [
        ("make actin completely transparent", 0),
        ("actin fully transparent", 0),
        ("Labels fully opaque", 1),
        ("make GFP half transparent", 0.5),
        ("make Labels 20% transparent", 0.8),
        ("GFP at 75% transparency", 0.25),
        ("change GFP transparency to 10%", 0.9),
        ("set the transparency of GFP to 0.3", 0.7),
        ("make GFP transparent to 30%", 0.7),
        ("make GFP 40% opaque", 0.4),
        ("make GFP a bit transparent, like 70% opacity", 0.7),
    ],
)
def test_transparency_is_one_minus_opacity(text, opacity):
    name = next(n for n in LAYERS["layers"] if n in text)
    assert wire(text) == [{"action": "layer_opacity", "name": name, "opacity": opacity}]


@pytest.mark.parametrize(
    "text",
    [
        "just GFP please",
        "ok, just GFP",
        "only GFP",
        "GFP and nothing else",
        "GFP alone",
        "I just want to see GFP",
    ],
)
def test_just_or_only_a_name_shows_that_layer_alone(text):
    assert wire(text) == [{"action": "solo_layer", "name": "GFP"}]


def test_just_is_a_filler_before_a_request():
    assert wire("just zoom in") == [{"action": "zoom_by", "factor": 2}]
    assert wire("just hide GFP") == [{"action": "layer_visibility", "name": "GFP", "op": "hide"}]


@pytest.mark.parametrize("context", [LAYERS, {}])
@pytest.mark.parametrize(
    "text",
    [
        "just kidding",
        "only joking",
        "is GFP at 75% transparency?",
        "why is it 50% transparent",
        "I just want to see it work",
        "I need a coffee",
        "I want GFP",
    ],
)
def test_chat_around_the_new_phrasings_stays_unparsed(text, context):
    assert wire(text, context) == []


def test_polite_heads_and_tails_around_names_and_values():
    assert wire("I'd like spots in yellow") == [
        {"action": "layer_colormap", "name": "spots", "colormap": "yellow"}
    ]
    assert wire("I want a 3-D view") == [{"action": "set_ndisplay", "ndisplay": 3}]
    assert wire("call actin phalloidin from now on") == [
        {"action": "rename_layer", "name": "actin", "new_name": "phalloidin"}
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("would you mind hiding GFP", {"action": "layer_visibility", "name": "GFP", "op": "hide"}),
        ("how about turning off spots", {"action": "layer_visibility", "name": "spots", "op": "hide"}),
        ("could you please, do you mind setting the zoom to 2", {"action": "set_zoom", "zoom": 2}),
        ("what about opening the console", {"action": "panel_toggle", "name": "console", "op": "open"}),
        ("for now, hide GFP", {"action": "layer_visibility", "name": "GFP", "op": "hide"}),
        ("from now on call spots puncta", {"action": "rename_layer", "name": "spots", "new_name": "puncta"}),
        ("real quick: zoom in", {"action": "zoom_by", "factor": 2}),
    ],
)
def test_gerund_openings_and_leading_fillers_become_the_plain_request(text, expected):
    assert wire(text) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pull up the console", {"action": "panel_toggle", "name": "console", "op": "open"}),
        ("open up the layer list", {"action": "panel_toggle", "name": "layer list", "op": "open"}),
        ("bring GFP back", {"action": "layer_visibility", "name": "GFP", "op": "show"}),
        ("bring them all back", {"action": "all_layers_visibility", "op": "show"}),
        ("roll back the last change", {"action": "undo_last_action"}),
        ("take back that edit", {"action": "undo_last_action"}),
        ("grab a picture of the view", {"action": "screenshot"}),
        ("save an image of the canvas to figs/a.png", {"action": "screenshot", "path": "figs/a.png"}),
        ("give me a 3-D view", {"action": "set_ndisplay", "ndisplay": 3}),
        ("go back to a flat 2D view", {"action": "set_ndisplay", "ndisplay": 2}),
        ("show me the five brightest paths", {"action": "rank_paths_by_energy", "top_n": 5}),
    ],
)
def test_shared_synonyms_read_as_their_plain_words(text, expected):
    assert wire(text) == [expected]


def test_synonyms_join_with_other_requests():
    assert wire("pull up the console and give me a 3D view") == [
        {"action": "panel_toggle", "name": "console", "op": "open"},
        {"action": "set_ndisplay", "ndisplay": 3},
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I don't need the spots right now, hide them",
            {"action": "layer_visibility", "name": "spots", "op": "hide"},
        ),
        (
            "GFP is too bright, dim it",
            {"action": "adjust_brightness", "name": "GFP", "factor": round(1 / 1.5, 6)},
        ),
    ],
)
def test_a_pronoun_in_the_last_request_names_the_one_layer_said_before(text, expected):
    assert wire(text) == [expected]


@pytest.mark.parametrize("context", [LAYERS, {}])
@pytest.mark.parametrize(
    "text",
    [
        "actin and GFP look bad, hide them",
        "I saw GFP yesterday, it was great",
        "GFP is weird, is it broken",
        "how about lunch",
        "would you mind telling me a joke",
        "would you mind if I close the console",
        "pull up a chair",
        "take back what you said",
        "give me a 3D printer",
        "give me a flat 2-D view of the problem",
        "take a picture of the cells",
    ],
)
def test_chat_around_synonyms_and_pronouns_stays_unparsed(text, context):
    assert wire(text, context) == []


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("make the picture fit", "fit_to_layer"),
        ("take a picture", "screenshot"),
        ("go to slice 3", "set_slice"),
    ],
)
def test_rules_of_one_priority_keep_the_viewer_grammars_order(text, action):
    """Fitting the view to a layer named "picture" and a screenshot read the same words at the same
    priority: the viewer grammar's modules are joined so that the fit is tried first."""
    assert [w["action"] for w in wire(text, {"layers": ["picture"]})] == [action]
