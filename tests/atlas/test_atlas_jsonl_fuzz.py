"""Malformed JSON Lines files are imported line by line or refused in a sentence naming the file and
the line, never a traceback, and an undo brings the catalogue back as it was; a CI-sized slice of
``benchmarks/fuzz_catalogue_jsonl.py`` and the files it found."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from napari_talk.core.running.session import Session


def imported(workspace: Path, content: bytes, name: str = "in.jsonl", session: Session | None = None):
    (workspace / name).write_bytes(content)
    session = session or Session(None, workspace=workspace)
    return session, session.run(f"import {name}").results[-1]


def names(session: Session) -> list[str]:
    return sorted(e.name for e in session.state("atlas").catalogue.entities())


def test_a_short_fuzz_of_the_import_finds_no_crash(workspace):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import fuzz_catalogue_jsonl as fuzz

    cases, _, found = fuzz.fuzz(workspace, seconds=8, seed=5, big=False, at_least=100)
    assert sum(cases.values()) >= 100 and set(cases) == set(fuzz.MUTATIONS)
    assert not found, found[:3]


def test_characters_json_allows_inside_a_string_do_not_end_the_line(workspace):
    lines = [
        {"name": f"Sep {i}", "description": f"one{mark}two"} for i, mark in enumerate("\u2028\u2029\x85")
    ]
    session, result = imported(
        workspace, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines).encode()
    )
    assert result.ok and result.data["imported"] == 3 and result.data["skipped_count"] == 0, result.message
    kept = session.state("atlas").catalogue.get("Sep 0")
    assert kept is not None and kept.description == "one\u2028two"


def test_a_byte_order_mark_and_old_line_ends_lose_no_line(workspace):
    session, result = imported(workspace, b'\xef\xbb\xbf{"name": "First"}\r{"name": "Second"}\r\n')
    assert result.ok and names(session) == ["First", "Second"], result.message


def test_one_line_that_is_not_utf8_skips_that_line_only(workspace):
    session, result = imported(workspace, b'{"name": "A"}\n{"name": "B\xff"}\n{"name": "C"}\n')
    assert result.ok and names(session) == ["A", "C"]
    assert "line 2: not UTF-8 text (byte 0xff" in result.message


def test_deep_nesting_and_non_numbers_are_refused_by_line(workspace):
    deep = '{"name": "Deep", "description": ' + "[" * 40_000 + "]" * 40_000 + "}"
    content = f'{deep}\n{{"name": "N", "sref": NaN}}\n{{"name": "S", "type": "\\ud800"}}\n'.encode()
    _, result = imported(workspace, content)
    assert not result.ok and "in.jsonl" in result.message and "failed" not in result.message
    assert "line 1: nested deeper than JSON can be read" in result.message
    assert "line 2: NaN is not a JSON value" in result.message
    assert "line 3: type: holds '\\ud800', half of a character" in result.message


def test_a_new_entity_before_one_it_replaces_keeps_both_and_undo_restores(workspace):
    """A new row takes the highest id plus one: the id of the row just replaced, if it was last."""
    session, first = imported(workspace, b'{"name": "Old"}\n{"name": "Newest", "type": "before"}\n')
    assert first.ok, first.message
    session, result = imported(
        workspace, b'{"name": "Fresh"}\n{"name": "Newest", "type": "after"}\n', session=session
    )
    assert result.ok and result.data["added"] == 1 and result.data["replaced"] == 1, result.message
    assert session.state("atlas").catalogue.get("Newest").type == "after"
    assert session.run("undo").ok
    assert (
        names(session) == ["Newest", "Old"]
        and session.state("atlas").catalogue.get("Newest").type == "before"
    )


def test_many_bad_lines_are_counted_not_all_kept(workspace):
    started = time.perf_counter()
    _, result = imported(workspace, b'{"name": "Only"}\n' + b"{}\n" * 200_000)
    assert result.ok and result.data["skipped_count"] == 200_000 and len(result.data["skipped"]) <= 1000
    assert "200,000 line(s) skipped: line 2: name: Field required" in result.message
    assert time.perf_counter() - started < 20


def test_a_name_repeated_in_the_file_is_imported_once_as_its_last_line(workspace):
    content = b"".join(b'{"name": "n%d", "type": "t%d"}\n' % (i % 3, i) for i in range(9))
    session, result = imported(workspace, content)
    assert result.ok and result.data["imported"] == 3 and result.data["repeated"] == 6, result.message
    assert "6 gave way to a later line of the same name" in result.message
    assert session.state("atlas").catalogue.get("n0").type == "t6"
