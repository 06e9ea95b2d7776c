"""How much of the frozen evaluation set the deterministic parser understands, and how fast.

    python benchmarks/understanding.py              # the table: overall, per pack, per family, per scene
    python benchmarks/understanding.py --show 30    # and 30 of the lines it got wrong or missed
    python benchmarks/understanding.py --json       # a machine-readable summary instead

The set (`benchmarks/data/understanding_eval.jsonl`, described in `benchmarks/data/README.md`) was
written before the parser was tuned on it and is not to be edited to fit the parser. Each line is
{"text", "context", "expect": [command, ...], "pack", "family": [...], "scene"}. A line is

  covered  the parser returned exactly the expected commands (a line that asks for nothing:
           no command, or only `help`),
  unknown  it returned nothing where commands were expected (the session would ask the LLM),
  wrong    it returned other commands, or any command but `help` on a line that asks for nothing.

Values are compared loosely: strings without case and surrounding space (paths without a trailing
slash), numbers within 1e-6, only the keys the set names. Coverage counts the lines that ask for
commands. The speed figure stands beside a baseline measured in the same run: text normalization
alone over the same lines.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "understanding_eval.jsonl"
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.corpus import same  # noqa: E402  the judgement the corpus tests use

VERDICTS = ("covered", "unknown", "wrong")


def _action(command: dict[str, Any]) -> str:
    name = str(command.get("action", ""))
    return name[:-4] if name.endswith("_xml") else name


def matches(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    """A field left unsaid is the command's default: "double the number of rays" gives
    ``more_rays`` without a factor, whose default is 2, and is right."""
    if _action(expected) != _action(actual):
        return False
    return all(
        same(v, actual[k] if k in actual else _default(_action(actual), k))
        for k, v in expected.items()
        if k != "action"
    )


def _default(action: str, field: str) -> Any:
    from napari_talk.core.contract.registry import default_registry

    command = default_registry().commands.get(action)
    info = None if command is None else command.model_fields.get(field)
    return None if info is None or info.is_required() else info.get_default(call_default_factory=True)


def judge(expect: list[dict[str, Any]], commands: list[dict[str, Any]]) -> str:
    if not expect:
        return "covered" if all(_action(c) == "help" for c in commands) else "wrong"
    if not commands:
        return "unknown"
    if len(commands) == len(expect) and all(matches(e, a) for e, a in zip(expect, commands, strict=True)):
        return "covered"
    return "wrong"


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def in_play(context: dict[str, Any]) -> dict[str, Any]:
    """The names a session offers the parser for a line's context: the files pack offers the
    workspace's folders beside its files, so a set that lists the files has its folders too."""
    files = context.get("files")
    if not files or "folders" in context:
        return context
    folders = sorted({str(Path(f).parent) for f in files} - {"."})
    return {**context, "folders": folders} if folders else context


def run_parser(cases: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    from napari_talk.core.grammar.parser import parse

    outputs = []
    for case in cases:
        try:
            commands = [c.to_wire() for c in parse(case["text"], in_play(case.get("context") or {}))]
        except Exception as exc:  # a crash on a line is a wrong answer, not the end of the run
            commands = [{"action": f"<parser raised {type(exc).__name__}: {exc}>"}]
        outputs.append(commands)
    return outputs


def speed(cases: list[dict[str, Any]], repeat: int = 3) -> dict[str, float]:
    from run import best_of  # benchmarks/run.py, beside this script

    from napari_talk.core.grammar.parser import parse
    from napari_talk.core.rules.text import normalize

    lines = [(c["text"], c.get("context") or {}) for c in cases]

    def parse_all() -> None:
        for text, context in lines:
            with contextlib.suppress(Exception):
                parse(text, context)

    parse_s = best_of(repeat, parse_all)
    normalize_s = best_of(repeat, lambda: [normalize(t) for t, _ in lines])
    return {
        "lines_per_second": len(lines) / parse_s,
        "us_per_line": parse_s / len(lines) * 1e6,
        "baseline_normalize_us_per_line": normalize_s / len(lines) * 1e6,
    }


def tally(cases: list[dict[str, Any]], verdicts: list[str]) -> dict[str, dict[str, dict[str, Any]]]:
    groups: dict[str, dict[str, dict[str, Any]]] = {"overall": {}, "pack": {}, "family": {}, "scene": {}}

    def add(kind: str, key: str, case: dict[str, Any], verdict: str) -> None:
        row = groups[kind].setdefault(
            key, {"lines": 0, "asks": 0, "asks_covered": 0, **dict.fromkeys(VERDICTS, 0)}
        )
        row["lines"] += 1
        row[verdict] += 1
        if case["expect"]:
            row["asks"] += 1
            row["asks_covered"] += verdict == "covered"

    for case, verdict in zip(cases, verdicts, strict=True):
        add("overall", "all lines", case, verdict)
        if "paraphrase" not in case.get("family", []):
            add("overall", "without paraphrase", case, verdict)
        add("pack", case.get("pack", "?"), case, verdict)
        for family in case.get("family", []):
            add("family", family, case, verdict)
        add("scene", case.get("scene", "?"), case, verdict)
    for rows in groups.values():
        for row in rows.values():
            row["coverage"] = round(100.0 * row["asks_covered"] / row["asks"], 1) if row["asks"] else None
            row["wrong_pct"] = round(100.0 * row["wrong"] / row["lines"], 1)
    return groups


def print_table(groups: dict[str, dict[str, dict[str, Any]]]) -> None:
    head = f"{'':24} {'lines':>5} {'asks':>5} {'covered':>8} {'unknown':>8} {'wrong':>6} {'coverage':>9}"
    for kind, rows in groups.items():
        print(head if kind == "overall" else "")
        order = sorted(rows, key=lambda k: -rows[k]["lines"]) if kind != "overall" else list(rows)
        for key in order:
            row = rows[key]
            label = key if kind == "overall" else f"{kind} {key}"
            coverage = f"{row['coverage']:.1f}%" if row["coverage"] is not None else "-"
            print(
                f"{label:24} {row['lines']:5d} {row['asks']:5d} {row['covered']:8d} {row['unknown']:8d} "
                f"{row['wrong']:6d} {coverage:>9}"
            )


def print_misses(
    cases: list[dict[str, Any]], outputs: list[list[dict[str, Any]]], verdicts: list[str], n: int
) -> None:
    misses = [(v, c, o) for c, o, v in zip(cases, outputs, verdicts, strict=True) if v != "covered"]
    misses.sort(key=lambda m: VERDICTS.index(m[0]), reverse=True)  # wrong first, then unknown
    for verdict, case, got in misses[:n]:
        print(f"{verdict:8} [{case.get('pack')}/{','.join(case.get('family', []))}] {case['text']!r}")
        print(f"         expected {json.dumps(case['expect'])}")
        print(f"         got      {json.dumps(got)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA, help="the evaluation set (JSON Lines)")
    ap.add_argument(
        "--show", type=int, default=0, metavar="N", help="print N lines that were wrong or missed"
    )
    ap.add_argument("--json", action="store_true", help="print a machine-readable summary")
    args = ap.parse_args(argv)

    cases = load(args.data)
    start = time.perf_counter()
    outputs = run_parser(cases)
    first_pass_s = time.perf_counter() - start
    verdicts = [judge(c["expect"], o) for c, o in zip(cases, outputs, strict=True)]
    groups = tally(cases, verdicts)
    rates = speed(cases)
    rates["first_pass_lines_per_second"] = len(cases) / first_pass_s

    if args.json:
        print(json.dumps({"data": str(args.data), "lines": len(cases), **groups, "speed": rates}, indent=1))
        return 0
    if args.show:
        print_misses(cases, outputs, verdicts, args.show)
        print()
    overall = groups["overall"]["all lines"]
    print(f"understanding: {len(cases)} lines of {args.data.name}, {overall['asks']} asking for commands")
    print_table(groups)
    print()
    print(
        f"speed: {rates['lines_per_second']:,.0f} lines/s ({rates['us_per_line']:.1f} µs/line; first pass "
        f"{rates['first_pass_lines_per_second']:,.0f} lines/s); baseline normalize-only "
        f"{rates['baseline_normalize_us_per_line']:.1f} µs/line"
    )
    print(
        f"coverage {overall['coverage']:.1f}% of lines asking for commands, wrong {overall['wrong']} "
        f"({overall['wrong_pct']:.1f}% of all lines); without paraphrase: coverage "
        f"{groups['overall']['without paraphrase']['coverage']:.1f}%"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
