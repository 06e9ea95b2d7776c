"""Every understanding set side by side, for each stage that can read a line the parser misses.

    python benchmarks/understanding_stages.py            # every set, every stage
    python benchmarks/understanding_stages.py --sets dev --show 20   # the tuning set, with its changes

Stages, each on top of the deterministic parser (no LLM):

- ``parser``: the parser alone;
- ``canonical+minilm``: the session's stage (``core/running/rephrasing.py``) with its
  nearest-neighbour reader: a line the parser does not read and that is no remark is mapped onto
  the grammar's canonical phrasings (``core/grammar/canonical.py``, ``rephrase.py``) by MiniLM (int8,
  ONNX Runtime), and the nearest fitting phrasing, filled with the line's values, is read by the
  parser (a question only as a command that reads);
- ``intent+minilm``: the session's stage as it runs: the same, the command chosen by a softmax
  regression over the MiniLM vectors trained on the phrasings and free variants of them
  (``core/grammar/intents/``, ``benchmarks/train_intents.py``), filled by its nearest phrasing;
- ``canonical+ngrams``: the same with the TF-IDF character n-grams of the model road's router
  instead of a sentence model (nothing to load);
- ``canonical+llm``: a small model on a local OpenAI-compatible server paraphrases the line into
  the canonical language (``core/llm/canonical_pick.py``, after Shin et al. 2021): the nearest
  phrasings (MiniLM) offered as numbered choices, the reply held by a JSON schema to a choice and to
  spans of the line or live names for the slots, the filled phrasings read by the parser. The server
  is ``--llm-url`` (or ``NAPARI_TALK_BENCH_LLM``; default http://127.0.0.1:8092/v1); with none
  answering there the stage is skipped;
- ``canonical+minilm+llm``: the session's stage first, the model for the lines it leaves.

Timings of the model stages: median and 90th percentile of the lines that reach the model, with
the load average beside them (the machine is shared).

The session offers a stage's reading ("Did you mean …?") and never runs it: a stage's right and
wrong here are those of its offered reading, as if the person accepted it (the parser's own
answers included). ``--alone`` hands every line to the stage, the parser's own reading put aside:
the parser reads nearly every line of the tuning sets, so this is where stages differ. For each set:
right, unknown and wrong among the lines that ask for commands, remarks kept silent, and the stage's
time on the lines that reach it (median warm; the first line's, with the phrasings embedded, apart).
The held-out sets (``understanding_fresh.jsonl``, the earlier blind ones) are for reporting, never
for tuning; choices are made on ``understanding_fresh_dev.jsonl``.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from understanding import in_play, judge, load  # beside this script

ROOT = Path(__file__).resolve().parents[1]
SETS = {
    "frozen": ROOT / "benchmarks/data/understanding_eval.jsonl",
    "dev": ROOT / "benchmarks/data/understanding_fresh_dev.jsonl",
    "fresh": ROOT / "benchmarks/data/understanding_fresh.jsonl",
    "blind3": ROOT / "benchmarks/data/understanding_blind3.jsonl",
    "blind4": ROOT / "benchmarks/data/understanding_blind4.jsonl",
    "holdout": ROOT / "tests/data/phrasings_holdout.jsonl",
    "holdout2": ROOT / "tests/data/phrasings_holdout2.jsonl",
    "remarks": ROOT / "benchmarks/data/chat_holdout.jsonl",
}
GRAM_DIMENSIONS = 1 << 15


class GramEmbedder:
    """The router's character n-grams, TF-IDF weighted over the phrasings, hashed to a vector."""

    def __init__(self, texts: Sequence[str]) -> None:
        from napari_talk.core.llm.router import _grams

        self._grams = _grams
        counts: Counter[str] = Counter()
        for text in texts:
            counts.update(set(_grams(text.casefold())))
        self._idf = {g: math.log((1 + len(texts)) / (1 + c)) + 1 for g, c in counts.items()}

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), GRAM_DIMENSIONS), np.float32)
        for row, text in enumerate(texts):
            for gram, count in self._grams(text.casefold()).items():
                out[row, zlib.crc32(gram.encode()) % GRAM_DIMENSIONS] += count * self._idf.get(gram, 1.0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def minilm() -> Callable[[Sequence[str]], np.ndarray]:
    from napari_talk.packs.atlas.embeddings import QuantizedMiniLMEmbedder

    model = QuantizedMiniLMEmbedder()

    def embed(texts: Sequence[str]) -> np.ndarray:
        vectors = model.embed(list(texts))
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    return embed


Read = Callable[[str, dict[str, Any]], "str | None"]
"""A stage: a line the parser did not read, and the scene's names, to a canonical line, or None."""

LLM_URL = os.environ.get("NAPARI_TALK_BENCH_LLM", "http://127.0.0.1:8092/v1")


class Skipped(Exception):
    """A stage that cannot run here (no server): the others go on."""


def serving(url: str) -> bool:
    """Whether an OpenAI-compatible server answers at ``url`` (its model list, within 2 s)."""
    import urllib.request

    try:
        with urllib.request.urlopen(url.rstrip("/") + "/models", timeout=2) as answer:
            return answer.status == 200
    except (OSError, ValueError):
        return False


def llm_stage(registry: Any, url: str, first: Read | None = None) -> Read:
    """The model stage as a session runs it: the road in canonical mode over the session's
    embedded phrasings (see the module's docstring); ``first``: a stage asked before the model."""
    from napari_talk.core.chat.settings import LLMSettings
    from napari_talk.core.llm.road import LLMRoad
    from napari_talk.core.llm.words import is_remark
    from napari_talk.core.running.rephrasing import Rephrasing

    if not serving(url):
        raise Skipped(f"no server answers at {url}")
    phrasings = Rephrasing(registry)
    phrasings.prepare()
    if phrasings.reader is None:
        raise Skipped("the sentence model is not here")
    settings = LLMSettings(model="local", base_url=url, mode="canonical", timeout=120, max_retries=0)
    road = LLMRoad(registry, settings)

    def never(command: Any, _timeout: float) -> Any:
        raise AssertionError(f"canonical mode runs nothing itself ({command.action})")

    def read(text: str, context: dict[str, Any]) -> str | None:
        if first is not None and (canonical := first(text, context)) is not None:
            return canonical
        began = time.perf_counter()
        outcome = road.interpret(text, [], never, names=context, phrasings=phrasings.reader)
        if not is_remark(text):  # a remark never reaches the model
            MODEL_TIMES.append(time.perf_counter() - began)
        return outcome.meant  # the reading the session offers ("Did you mean …?")

    return read


MODEL_TIMES: list[float] = []
"""Seconds each request to the model took (the lines that reach it)."""


def stages(url: str = LLM_URL) -> dict[str, Callable[[], Read | None]]:
    from napari_talk.core.contract.registry import default_registry
    from napari_talk.core.grammar.canonical import phrasings
    from napari_talk.core.grammar.intents.reader import IntentReader
    from napari_talk.core.grammar.parser import Parser
    from napari_talk.core.grammar.rephrase import Rephraser, bare_phrasing
    from napari_talk.core.llm.words import is_remark
    from napari_talk.core.running.rephrasing import Rephrasing

    registry = default_registry()
    parser = Parser(registry)

    def as_the_session_reads(reader: Any) -> Read:  # the session's own stage, its guards included
        stage = Rephrasing(registry, reader)
        stage.prepare()
        return lambda text, context: stage.read(text, context, parser)

    def with_ngrams() -> Read:
        bank = phrasings(registry)
        reader = Rephraser(registry, GramEmbedder([bare_phrasing(p) for p in bank]))

        def read(text: str, context: dict[str, Any]) -> str | None:
            if is_remark(text):
                return None
            reading = reader.read(text, context, lambda t: [c.to_wire() for c in parser.parse(t, context)])
            return None if reading is None else reading.canonical

        return read

    return {
        "parser": lambda: None,
        "canonical+minilm": lambda: as_the_session_reads(Rephraser),
        "canonical+ngrams": with_ngrams,
        "intent+minilm": lambda: as_the_session_reads(IntentReader),
        "canonical+llm": lambda: llm_stage(registry, url),
        "canonical+minilm+llm": lambda: llm_stage(registry, url, as_the_session_reads(IntentReader)),
    }


def run(
    cases: list[dict[str, Any]], read: Read | None, alone: bool = False
) -> tuple[list[str], list[float], list[tuple]]:
    """``alone``: every line goes to the stage as if the parser had read none of them (how the
    stage reads lines it was never shown, where the parser reads nearly all of a set)."""
    from napari_talk.core.grammar.parser import parse

    verdicts, times, changes = [], [], []
    for case in cases:
        context = in_play(case.get("context") or {})
        got = [] if alone and read is not None else [c.to_wire() for c in parse(case["text"], context)]
        if not got and read is not None:
            start = time.perf_counter()
            canonical = read(case["text"], context)
            times.append(time.perf_counter() - start)
            if canonical is not None:
                got = [c.to_wire() for c in parse(canonical, context)]
                changes.append((case, canonical, got))
        verdicts.append(judge(case["expect"], got))
    return verdicts, times, changes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="*", default=list(SETS), choices=list(SETS))
    ap.add_argument("--stages", nargs="*", default=None,
                    help="parser, canonical+minilm, canonical+ngrams, intent+minilm, canonical+llm, "
                    "canonical+minilm+llm")
    ap.add_argument("--llm-url", default=LLM_URL, help="the local server of the model stages")
    ap.add_argument("--alone", action="store_true",
                    help="every line to the stage, the parser's own reading put aside")
    ap.add_argument("--show", type=int, default=0, metavar="N", help="print N lines each stage changed")
    args = ap.parse_args(argv)

    data = {name: load(SETS[name]) for name in args.sets}
    print(f"{'set':10} {'stage':18} {'asks':>5} {'right':>6} {'unknown':>8} {'wrong':>6} {'right %':>8} "
          f"{'remarks silent':>15} {'ms/line':>8} {'first ms':>9}")
    for stage, make in stages(args.llm_url).items():
        if args.stages and stage not in args.stages:
            continue
        start = time.perf_counter()
        try:
            read = make()
        except Skipped as why:
            print(f"{stage}: skipped ({why})")
            continue
        built_ms = (time.perf_counter() - start) * 1000
        for name, cases in data.items():
            MODEL_TIMES.clear()
            verdicts, times, changes = run(cases, read, args.alone)
            asks = [v for c, v in zip(cases, verdicts, strict=True) if c["expect"]]
            remarks = [v for c, v in zip(cases, verdicts, strict=True) if not c["expect"]]
            silent = f"{remarks.count('covered')}/{len(remarks)}" if remarks else "-"
            right = asks.count("covered")
            share = f"{100 * right / len(asks):.1f}" if asks else "-"
            warm = f"{1000 * statistics.median(times[1:]):.1f}" if len(times) > 1 else "-"
            first = f"{built_ms + 1000 * times[0]:.0f}" if times else "-"
            print(f"{name:10} {stage:18} {len(asks):5d} {right:6d} {asks.count('unknown'):8d} "
                  f"{asks.count('wrong'):6d} {share:>8} {silent:>15} {warm:>8} {first:>9}")
            built_ms = 0.0
            if MODEL_TIMES:
                q = statistics.quantiles(MODEL_TIMES, n=10)[-1] if len(MODEL_TIMES) > 1 else MODEL_TIMES[0]
                busy = " ".join(f"{x:.1f}" for x in os.getloadavg())
                median = statistics.median(MODEL_TIMES)
                print(f"    the model: {len(MODEL_TIMES)} lines, median {median:.2f} s, "
                      f"p90 {q:.2f} s (load average {busy})")
            for case, canonical, got in changes[: args.show]:
                print(f"    {judge(case['expect'], got):8} {case['text']!r} -> {canonical!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
