"""How the parser's cost grows with the number of live names (a scene of thousands of glasses).

    python benchmarks/parser_names.py            # 10, 1,000, 5,000 and 10,000 names
    python benchmarks/parser_names.py --names 50000

Live names are looked up, never compiled into the rules' patterns, so a line should cost about the
same with 10 names as with 10,000. For each count it prints the median time of a line (the rules
already compiled, as in a session), the time of the first line with a new set of names (its
lookup index built), and beside them the same lines with 10 names, measured in the same run.
Target: a line <= 5 ms with 10,000 names.
"""

from __future__ import annotations

import argparse
import statistics
import time

LINES = (
    "hide nuclei",
    "set the opacity of nuclei to 50%",
    "rays crossing edge N of Glass 4242",
    "make nuclei magenta and zoom to 300%",
    "what's the weather like today?",
    "shwo nuclei",
)
TARGET_MS = 5.0


def context(count: int) -> dict[str, list[str]]:
    return {
        "layers": ["nuclei", "GFP", "actin", *(f"layer {i}" for i in range(count // 2))],
        "glasses": [f"Glass {i}" for i in range(count - count // 2)],
    }


def per_line_ms(parser, names: dict[str, list[str]], repeat: int = 7) -> tuple[float, float]:
    """(first line with these names, median line afterwards), in milliseconds."""
    start = time.perf_counter()
    parser.parse(LINES[0], names)
    first = (time.perf_counter() - start) * 1e3
    times = []
    for _ in range(repeat):
        for line in LINES:
            start = time.perf_counter()
            parser.parse(line, names)
            times.append((time.perf_counter() - start) * 1e3)
    return first, statistics.median(times)


def main() -> None:
    from napari_talk.core.contract.registry import default_registry
    from napari_talk.core.grammar.parser import Parser

    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--names", type=int, nargs="*", default=[1_000, 5_000, 10_000])
    args = options.parse_args()
    parser = Parser(default_registry())
    parser.prepare(context(10))  # the rules compiled once, as a session does in the background
    parser.prepare({"layers": ["a"]})
    _, baseline = per_line_ms(parser, context(10))
    print(f"baseline, 10 names: {baseline:.2f} ms a line (median of {len(LINES)} lines x 7)")
    for count in args.names:
        first, median = per_line_ms(parser, context(count))
        verdict = "ok" if median <= TARGET_MS else "MISSED"
        print(
            f"{count:>7,} names: {median:.2f} ms a line ({median / baseline:.1f}x the 10-name line); "
            f"first line with them {first:.1f} ms (index built)  target <= {TARGET_MS:g} ms: {verdict}"
        )


if __name__ == "__main__":
    main()
