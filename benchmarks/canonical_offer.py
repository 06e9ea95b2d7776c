"""How often the canonical-paraphrase stage offers the model what a line asks for: the ceiling of
``canonical+llm`` in ``understanding_stages.py``, measured without a model.

    python benchmarks/canonical_offer.py --sets dev frozen [--show]

For each line that asks for commands, is no remark and that the parser does not read (the lines
that reach the model), whether every command it expects is among the templates offered
(``core/llm/canonical_pick.py``), and how long building the offer takes (median, with the load
average). Tune on ``dev`` only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from understanding import load  # beside this script
from understanding_stages import SETS, minilm


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="*", default=["dev"], choices=list(SETS))
    ap.add_argument("--show", action="store_true", help="print the lines whose command is not offered")
    args = ap.parse_args(argv)

    from napari_talk.core.contract.registry import default_registry
    from napari_talk.core.grammar.canonical import phrasings
    from napari_talk.core.grammar.parser import parse
    from napari_talk.core.grammar.rephrase import COMMON, bare_phrasing, values_of
    from napari_talk.core.llm.canonical_pick import Picker
    from napari_talk.core.llm.words import is_remark

    registry = default_registry()
    embed = minilm()
    bank = phrasings(registry)
    picker = Picker(registry, bank, embed([bare_phrasing(p) for p in bank]), embed)
    for name in args.sets:
        reach = offered = 0
        times: list[float] = []
        for case in load(SETS[name]):
            context = case.get("context") or {}
            if not case["expect"] or is_remark(case["text"]) or parse(case["text"], context):
                continue
            began = time.perf_counter()
            offer = picker.offer(case["text"], values_of(case["text"], context, COMMON).bare, context)
            times.append(time.perf_counter() - began)
            missing = {e["action"] for e in case["expect"]} - {t.action for t in offer.templates}
            reach += 1
            offered += not missing
            if missing and args.show:
                print(f"    not offered {sorted(missing)}: {case['text']!r}")
        busy = " ".join(f"{x:.1f}" for x in os.getloadavg())
        median = 1000 * statistics.median(times) if times else 0.0
        print(f"{name}: {reach} lines reach the model; every command asked for offered in {offered}; "
              f"the offer takes {median:.0f} ms (median; load average {busy})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
