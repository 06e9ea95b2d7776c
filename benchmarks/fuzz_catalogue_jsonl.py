"""Fuzz the catalogue's JSON Lines import: every malformed file is imported or refused in a sentence.

    python benchmarks/fuzz_catalogue_jsonl.py                # 60 s of mutated files, then the big ones
    python benchmarks/fuzz_catalogue_jsonl.py --seconds 300 --seed 7

A mutation fuzzer over the sample catalogue's lines (``packs/atlas/sample_entities.jsonl``):
truncations, wrong types, huge strings, deep nesting, control characters, invalid UTF-8,
NaN/Infinity, duplicate keys, unpaired surrogates, line separators inside strings, a byte-order
mark, blank and CRLF lines; then a million tiny lines and very long lines, once each. Every file is
imported through the real command (``import <file>.jsonl`` on a Session with a workspace).

A crash is anything but a clean import or a refusal in a sentence naming the file: an exception
the command did not turn into a sentence ("... failed: ..."), a refusal that does not name the
file, a refusal that changed the catalogue, an import whose imported and skipped lines do not add
up to the file's lines, or an undo that does not bring the catalogue back. Prints the crash-free
figure, per mutation, and the first crashes found.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from napari_talk.core.running.session import Session
from napari_talk.packs.atlas import embeddings, store

SAMPLE = Path(store.__file__).with_name("sample_entities.jsonl")
FILE = "fuzz.jsonl"
Mutation = Callable[[random.Random, list[bytes]], bytes]


# -- mutations: each makes a whole file from the sample's lines -------------------------------------


def _pick(rng: random.Random, lines: list[bytes], count: int = 4) -> list[bytes]:
    return [rng.choice(lines) for _ in range(rng.randint(1, count))]


def _records(rng: random.Random, lines: list[bytes]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in _pick(rng, lines)]


def _file(records: list[Any], **dumps: Any) -> bytes:
    return "".join(json.dumps(r, **dumps) + "\n" for r in records).encode("utf-8", "surrogatepass")


def truncated(rng: random.Random, lines: list[bytes]) -> bytes:
    data = b"".join(line + b"\n" for line in _pick(rng, lines))
    return data[: rng.randint(0, len(data))]


def wrong_types(rng: random.Random, lines: list[bytes]) -> bytes:
    values: list[Any] = [None, True, 0, -1.5, 10**30, [], {}, ["x"], {"a": 1}, "", " ", "\t"]
    records = _records(rng, lines)
    for record in records:
        record[rng.choice([*record, "name", "sref", "created"])] = rng.choice(values)
    return _file([*records, *rng.sample([1, "x", None, [1], True], 2)])


def huge_strings(rng: random.Random, lines: list[bytes]) -> bytes:
    records = _records(rng, lines)
    for record in records:
        record[rng.choice(["name", "description", "prompt", "image", "sref"])] = "é" * rng.choice(
            [199, 200, 201, 5000, 5001, 99_990, 200_000]
        )
    return _file(records, ensure_ascii=rng.random() < 0.5)


def deep_nesting(rng: random.Random, lines: list[bytes]) -> bytes:
    depth = rng.choice([100, 1000, 10_000, 49_000])
    opened, closed = rng.choice([("[", "]"), ('{"a":', "}")])
    nested = opened * depth + "1" + closed * depth
    line = '{"name": "Deep", "description": ' + nested + "}"
    return (line + "\n").encode() + b"".join(line + b"\n" for line in _pick(rng, lines))


def control_characters(rng: random.Random, lines: list[bytes]) -> bytes:
    records = _records(rng, lines)
    for record in records:
        noise = "".join(chr(rng.choice([*range(0, 32), 0x7F, 0x85, 0x200B, 0xFEFF])) for _ in range(8))
        key = rng.choice(["name", "description", "domain"])
        record[key] = rng.choice([noise, str(record.get(key, "")) + noise, noise + "Name"])
    return _file(records, ensure_ascii=rng.random() < 0.5)


def line_separators(rng: random.Random, lines: list[bytes]) -> bytes:
    """Characters Python's ``splitlines`` breaks at, inside strings, where JSON allows them raw."""
    records = _records(rng, lines)
    for record in records:
        mark = rng.choice(["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"])
        record["description"] = f"first{mark}second"
    return _file(records, ensure_ascii=False)


def invalid_utf8(rng: random.Random, lines: list[bytes]) -> bytes:
    chosen = _pick(rng, lines)
    at = rng.randrange(len(chosen))
    bad = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80\x80"])
    line = chosen[at]
    cut = rng.randrange(len(line) + 1)
    chosen[at] = line[:cut] + bad + line[cut:]
    return b"".join(line + b"\n" for line in chosen)


def non_finite(rng: random.Random, lines: list[bytes]) -> bytes:
    records = _records(rng, lines)
    text = _file(records).decode()
    return (
        re.sub(r'"sref": "[^"]*"', lambda _: '"sref": ' + rng.choice(["NaN", "Infinity", "-Infinity"]), text)
        .replace('"name"', rng.choice(['"name"', '"name": NaN, "name"']), 1)
        .encode()
    )


def duplicate_keys(rng: random.Random, lines: list[bytes]) -> bytes:
    out = []
    for line in _pick(rng, lines):
        other = rng.choice(['"name": "Twin"', '"name": 7', '"name": ""', '"name": null', '"sref": [1]'])
        out.append(
            b"{" + other.encode() + b", " + line[1:]
            if rng.random() < 0.5
            else line[:-1] + b", " + other.encode() + b"}"
        )
    return b"".join(line + b"\n" for line in out)


def unpaired_surrogates(rng: random.Random, lines: list[bytes]) -> bytes:
    records = _records(rng, lines)
    for record in records:
        record[rng.choice(["name", "description", "type"])] = rng.choice(["\ud800", "a\udfffb", "\udc00x"])
    return _file(records)


def framing(rng: random.Random, lines: list[bytes]) -> bytes:
    """A byte-order mark, CRLF, blank lines, no final newline, a NUL byte between lines."""
    chosen = _pick(rng, lines, 6)
    sep = rng.choice([b"\n", b"\r\n", b"\n\n", b"\n \t\n", b"\n\x00\n", b"\r"])
    data = sep.join(chosen) + rng.choice([b"", b"\n", sep])
    return (b"\xef\xbb\xbf" if rng.random() < 0.5 else b"") + data


def byte_flips(rng: random.Random, lines: list[bytes]) -> bytes:
    data = bytearray(b"".join(line + b"\n" for line in _pick(rng, lines)))
    for _ in range(rng.randint(1, 8)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


MUTATIONS: dict[str, Mutation] = {
    f.__name__: f
    for f in (
        truncated, wrong_types, huge_strings, deep_nesting, control_characters, line_separators,
        invalid_utf8, non_finite, duplicate_keys, unpaired_surrogates, framing, byte_flips,
    )
}  # fmt: skip


def big_files(lines: list[bytes]) -> dict[str, bytes]:
    """Run once each: a million tiny lines (valid and not), and lines around the length limit."""
    long_line = json.dumps({"name": "Long", "description": "x" * 150_000}).encode()
    return {
        "million_tiny_lines": b"{}\n1\n\n" * 333_334,
        "million_tiny_records": b"".join(b'{"name": "n%d"}\n' % (i % 1000) for i in range(1_000_000)),
        "very_long_lines": (long_line + b"\n") * 20 + b"\n".join(lines),
        "one_line_of_50_mb": b'{"name": "Huge", "description": "' + b"y" * 50_000_000 + b'"}\n',
    }


# -- the oracle -------------------------------------------------------------------------------------


def catalogue_now(session: Session) -> list[tuple[Any, ...]]:
    return sorted(tuple(e.record().values()) for e in session.state("atlas").catalogue.entities())


def json_lines(data: bytes) -> int:
    """The file's non-blank lines, split at line ends (LF, CRLF or CR) and nowhere else."""
    return sum(1 for line in re.split(rb"\r\n|\r|\n", data) if line.strip(b" \t"))


def check(session: Session, root: Path, data: bytes, before: list[tuple[Any, ...]]) -> str | None:
    """None when ``data`` was imported cleanly or refused in a sentence naming the file; else why not."""
    (root / FILE).write_bytes(data)
    try:
        result = session.execute({"action": "import_catalogue", "path": FILE})
    except Exception as exc:  # what the fuzzer looks for
        return f"raised {type(exc).__name__}: {exc}"[:300]
    said = result.message
    if re.search(r"\bfailed: |Traceback|Error\b", said):
        return f"not a sentence: {said[:300]}"
    if FILE not in said:
        return f"does not name the file: {said[:300]}"
    if not result.ok and json_lines(data) and not re.search(r"\bline \d", said):
        return f"a refusal naming no line: {said[:300]}"
    if not result.ok:
        return (
            None if catalogue_now(session) == before else f"refused, yet the catalogue changed: {said[:200]}"
        )
    imported = result.data["imported"] + result.data["repeated"]
    skipped = result.data["skipped_count"]
    undone = session.undo()
    if not undone.ok or catalogue_now(session) != before:
        return f"the undo did not bring the catalogue back: {undone.message[:200]}"
    if imported + skipped != json_lines(data):
        return f"{imported} imported + {skipped} skipped of {json_lines(data)} lines: {said[:200]}"
    return None


def new_session(root: Path) -> tuple[Session, list[tuple[Any, ...]]]:
    """A session whose catalogue holds the sample (so imports both add and replace)."""
    (root / "sample.jsonl").write_bytes(SAMPLE.read_bytes())
    session = Session(None, workspace=root)
    assert session.execute({"action": "import_catalogue", "path": "sample.jsonl"}).ok
    return session, catalogue_now(session)


def fuzz(
    root: Path, seconds: float, seed: int, big: bool = True, *, at_least: int = 0
) -> tuple[Counter[str], Counter[str], list[str]]:
    """Mutated files for ``seconds`` (and at least ``at_least`` of them, however slow the machine);
    the big files once each (``big``). Cases and crashes per mutation, and the crashes' descriptions."""
    session, before = new_session(root)
    lines = [line for line in SAMPLE.read_bytes().split(b"\n") if line.strip()]
    rng = random.Random(seed)
    cases: Counter[str] = Counter()
    crashes: Counter[str] = Counter()
    found: list[str] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or sum(cases.values()) < at_least:
        name, mutate = rng.choice(list(MUTATIONS.items()))
        cases[name] += 1
        if why := check(session, root, mutate(rng, lines), before):
            crashes[name] += 1
            found.append(f"{name}: {why}")
    for name, data in (big_files(lines) if big else {}).items():
        started = time.perf_counter()
        cases[name] += 1
        if why := check(session, root, data, before):
            crashes[name] += 1
            found.append(f"{name}: {why}")
        print(f"  {name}: {len(data) / 1e6:.1f} MB, {time.perf_counter() - started:.1f} s")
    return cases, crashes, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="budget for the mutated files")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-big", action="store_true", help="skip the million-line and 50 MB files")
    args = parser.parse_args()
    store.default_model = lambda: embeddings.OFFLINE  # the built-in embedder: no model download
    with tempfile.TemporaryDirectory() as folder:
        cases, crashes, found = fuzz(Path(folder), args.seconds, args.seed, big=not args.no_big)
    total, bad = sum(cases.values()), sum(crashes.values())
    print(f"{total:,} files imported or refused, {total - bad:,} crash-free ({(total - bad) / total:.1%})")
    for name in sorted(cases):
        print(f"  {name:24} {cases[name]:6,} files  {crashes[name]:5,} crashes")
    for why in found[:10]:
        print("  -", why)


if __name__ == "__main__":
    main()
