"""The parser against example lines: none wrong, at least 95 % understood."""

from __future__ import annotations

import pytest
from conftest import DATA, SHARED_CORPUS
from support.corpus import load, score

from napari_talk.core.contract.registry import default_registry
from napari_talk.core.grammar.parser import parse

REGISTERED = set(default_registry().commands)


CORPORA = [
    pytest.param(DATA / "phrasings_dev.jsonl", id="dev"),
    pytest.param(DATA / "phrasings_dev2.jsonl", id="dev2"),
    pytest.param(DATA / "phrasings_holdout.jsonl", id="holdout"),
    pytest.param(DATA / "phrasings_new.jsonl", id="new-commands"),
    pytest.param(DATA / "phrasings_fresh.jsonl", id="fresh"),  # lines written by another hand after the rules
    pytest.param(DATA / "phrasings_holdout2.jsonl", id="holdout2"),  # a hold-out, read before its mechanisms
    pytest.param(DATA / "phrasings_families.jsonl", id="families"),  # slips, numbers, chains, routing
    pytest.param(
        DATA / "phrasings_order.jsonl", id="order"
    ),  # layer order, slider places, rays edits, angles
    pytest.param(
        SHARED_CORPUS,
        id="shared-example",
        marks=pytest.mark.skipif(not SHARED_CORPUS.exists(), reason="shared/ is not beside this checkout"),
    ),
]


@pytest.mark.parametrize("path", CORPORA)
def test_corpus_has_no_wrong_reading_and_high_coverage(path):
    cases = load(path, REGISTERED)
    assert len(cases) >= 40
    result = score(cases, parse)
    assert result.wrong == []
    assert result.coverage >= 0.95, result.unknown


def test_lines_of_packs_not_installed_are_not_guessed():
    """Lines meant for packs that are not registered must not be read as viewer commands."""
    if not SHARED_CORPUS.exists():
        pytest.skip("the shared example corpus is not beside this checkout")
    others = [c for c in load(SHARED_CORPUS) if any(e["action"] not in REGISTERED for e in c["expect"])]
    for case in others:
        got = parse(case["text"], case.get("context", {}))
        assert got == [], (case["text"], got)
