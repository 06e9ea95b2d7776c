"""How big the grammar's compiled patterns are, how long they take to compile, and how long compiling
them keeps another thread (the GUI's) from running.

    python benchmarks/parser_patterns.py                # the 10 largest passes, and the stall figures
    python benchmarks/parser_patterns.py --top 20 --heap 1000000

Each rule compiles to one alternation per pass (known names, free words). A pass longer than
``MAX_PATTERN`` is written with its templates' shared text factored (core/rules/factor.py); the
baseline beside each figure is the same pass as one plain alternation, compiled in this run.
The stall figure: a thread that wakes every millisecond records its longest wait while every pass
is compiled, beside a heap of ``--heap`` objects (about what the dock's test process holds): the
parser's way (factored, no garbage collection while a pass compiles), and the baseline (plain
alternations, collections on), whose full collections hold the GIL for a scan of the whole heap.
"""

from __future__ import annotations

import argparse
import gc
import re
import threading
import time
from collections.abc import Callable

from napari_talk.core.contract.registry import default_registry
from napari_talk.core.rules import rule as rules

TICK_S = 0.001


def generics(rule: rules.Rule) -> tuple[bool, ...]:
    """The passes a rule can compile: known names only, and free words when it has name slots."""
    return (False, True) if rule.name_kinds and rule.free_names else (bool(rule.name_kinds),)


def plain(rule: rules.Rule, generic: bool) -> rules.Pass:
    """The pass as one alternation of its templates, however long."""
    limit, rules.MAX_PATTERN = rules.MAX_PATTERN, 10**12
    try:
        return rule._compile_pass(generic)
    finally:
        rules.MAX_PATTERN = limit


def timed(func: Callable[[], rules.Pass]) -> tuple[rules.Pass, float]:
    re.purge()  # compiled, not taken from re's cache
    start = time.perf_counter()
    found = func()
    return found, time.perf_counter() - start


def stall(compile_all: Callable[[], None]) -> tuple[float, int, float]:
    """(longest wait of a thread ticking every millisecond, full collections, seconds) while compiling."""
    re.purge()
    gc.collect()
    waits: list[float] = []
    full: list[int] = []
    done = threading.Event()

    def tick() -> None:
        last = time.perf_counter()
        while not done.is_set():
            time.sleep(TICK_S)
            now = time.perf_counter()
            waits.append(now - last)
            last = now

    def count(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    ticker = threading.Thread(target=tick)
    gc.callbacks.append(count)
    ticker.start()
    time.sleep(0.05)
    start = time.perf_counter()
    try:
        compile_all()
    finally:
        took = time.perf_counter() - start
        done.set()
        ticker.join()
        gc.callbacks.remove(count)
    return max(waits), len(full), took


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--top", type=int, default=10, help="how many of the largest passes to list")
    options.add_argument("--heap", type=int, default=420_000, help="objects on the heap while compiling")
    args = options.parse_args()
    every = [(rule, generic) for rule in default_registry().rules for generic in generics(rule)]

    rows = []
    for rule, generic in every:
        compiled, seconds = timed(lambda r=rule, g=generic: r._compile_pass(g))
        rows.append((len(compiled.source), seconds, rule, generic, compiled))
    total = sum(r[0] for r in rows)
    print(
        f"{len(rows)} passes of {len(default_registry().rules)} rules: {total:,} characters, "
        f"compiled in {sum(r[1] for r in rows):.2f} s; at most {rules.MAX_PATTERN:,} before factoring"
    )
    for size, seconds, rule, generic, compiled in sorted(rows, key=lambda r: -r[0])[: args.top]:
        line = (
            f"  rule {rule._id:3} {rule.action:28} {'free words' if generic else 'known names':11} "
            f"{len(rule.templates):3} templates: {size:7,} chars {seconds * 1e3:6.0f} ms"
        )
        if len(compiled.branches) < len(compiled.templates):
            baseline, plain_s = timed(lambda r=rule, g=generic: plain(r, g))
            line += (
                f"  ({len(compiled.branches)} branches; as one alternation {len(baseline.source):,} chars "
                f"{plain_s * 1e3:.0f} ms)"
            )
        print(line)

    heap = [[] for _ in range(args.heap)]  # long-lived objects, as a GUI process holds

    def as_the_parser() -> None:
        for rule, _ in every:
            rule._passes.clear()
        for rule, generic in every:
            rule._pass(generic)

    def as_baseline() -> None:
        for rule, generic in every:
            plain(rule, generic)

    tick_ms = TICK_S * 1e3
    print(f"every pass compiled beside a thread ticking every {tick_ms:g} ms, heap {len(heap):,} objects")
    for label, func in (("the parser's way", as_the_parser), ("baseline", as_baseline)):
        wait, full, took = stall(func)
        print(f"  {label:17} longest tick wait {wait * 1e3:5.0f} ms, {full} full collections, {took:.2f} s")


if __name__ == "__main__":
    main()
