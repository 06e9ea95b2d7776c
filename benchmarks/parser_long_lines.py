"""How long the parser takes on a long chained line (20 requests joined by "and"/"then", about
1,000 characters), beside a short line, in the same process.

    python benchmarks/parser_long_lines.py               # first call and warm median, 20 repeats
    python benchmarks/parser_long_lines.py --repeat 50 --clauses 12

"First call" is the line's first reading once the rules are compiled (the parser's per-token and
per-name memories still empty for its words); "warm" is the median of the repeats after it. The
short line is the baseline: the ratio says what the length costs, whatever the machine's load.
The line is past what runs at once (8 requests), so it is read to the end and given up: the worst
case, a line read clause by clause only to be left to a model.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from napari_talk.core.contract.registry import default_registry
from napari_talk.core.grammar.parser import _parser_for

CONTEXT = {
    "layers": [
        "heart (myl7:GFP)", "endothelium (kdrl:mCherry)", "brightfield", "nuclei (H2B-BFP)",
        "Atrium mask", "ventricle labels", "blood flow tracks", "Landmarks 2", "larva model",
    ],
    "panels": ["layer list", "layer controls", "console", "Talk"],
    "segments": ["head", "yolk sac", "tail fin", "dorsal fin"],
    "entities": ["Coral Sentinel", "Glass Heron", "Tidecaller"],
}  # fmt: skip
CLAUSES = (
    "hide the brightfield channel for a moment please",
    "could you show the nuclei (H2B-BFP) layer again",
    "set the opacity of the atrium mask to 40 percent",
    "make the heart green like before",
    "zoom in a little bit on the middle",
    "pan the view over to the left a bit",
    "rename the larva model to whole fish outline",
    "toggle the console at the bottom",
    "make the endothelium magenta so it stands out please",
    "turn on the scale bar for the figure",
    "set the contrast limits of the nuclei to 100 to 900",
    "rotate the camera by 30 degrees to the right side",
    "hide the ventricle labels for now, they are distracting",
    "show the blood flow tracks on top",
    "zoom out twice so the whole larva fits",
    "reset the view to the whole scene",
    "make the brightfield 50% opaque again",
    "switch to the 3d view for the blood flow tracks",
    "hide the layer list on the left",
    "take a screenshot of the canvas for the lab notebook",
)
"""Requests as people chain them, about half read alone and half with words the rules do not take:
the search for where one request ends tries the most splits then."""
SHORT = "hide the brightfield"


def long_line(clauses: int) -> str:
    joins = (" and ", " then ", ", and then ", ", then ")
    parts = [CLAUSES[i % len(CLAUSES)] for i in range(clauses)]
    return "".join(p + (joins[i % len(joins)] if i < len(parts) - 1 else "") for i, p in enumerate(parts))


def timed(read, line: str) -> float:
    start = time.perf_counter()
    read(line, CONTEXT)
    return (time.perf_counter() - start) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--clauses", type=int, default=20)
    args = parser.parse_args(argv)
    reader = _parser_for(default_registry())
    reader.prepare(CONTEXT)  # the rules compiled, as the dock does ahead of the first line
    reader.read("zoom in", CONTEXT)
    line = long_line(args.clauses)
    rows = []
    for label, text in (("short", SHORT), (f"long ({args.clauses} clauses)", line)):
        first = timed(reader.read, text)
        warm = statistics.median(timed(reader.read, text) for _ in range(args.repeat))
        rows.append((label, len(text), first, warm))
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'line':<22}{'chars':>7}{'first ms':>11}{'warm ms':>10}")
    for label, chars, first, warm in rows:
        print(f"{label:<22}{chars:>7}{first:>11.1f}{warm:>10.2f}")
    short_warm, long_warm = rows[0][3], rows[1][3]
    print(f"long / short (warm): {long_warm / max(short_warm, 1e-6):.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
