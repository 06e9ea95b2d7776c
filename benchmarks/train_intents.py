"""Train the intent reader's weights (``core/grammar/intents``) and write them where the package
ships them.

    python benchmarks/train_intents.py                 # the shipped weights, seed 0
    python benchmarks/train_intents.py --seed 1 --out /tmp/w.npz

The training lines are the grammar's canonical phrasings and free variants of them
(``intents/training.py``, ``augment.py``), embedded by the int8 MiniLM the session uses; the same
seed gives the same lines and the same weights. No evaluation set is read here: the weights are
judged by ``understanding_stages.py --stages intent+minilm`` on the tuning set only.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    from napari_talk.core import sentences
    from napari_talk.core.contract.registry import default_registry
    from napari_talk.core.grammar.intents.classifier import train
    from napari_talk.core.grammar.intents.reader import SHIPPED
    from napari_talk.core.grammar.intents.training import PER_ACTION, SEED, examples, fingerprint

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--per-action", type=int, default=PER_ACTION)
    ap.add_argument("--out", type=Path, default=SHIPPED)
    args = ap.parse_args(argv)

    texts, labels = examples(default_registry(), args.seed, args.per_action)
    model = sentences.minilm(True)
    tag = sentences.onnx_minilm.model_file(True).name
    start = time.perf_counter()
    vectors = model.embed(texts)
    embedded = time.perf_counter() - start
    start = time.perf_counter()
    trained = train(vectors, labels, tag=f"{tag}:{fingerprint(texts, labels, tag)}")
    fitted = time.perf_counter() - start
    seen = (vectors @ trained.weights + trained.bias).argmax(axis=1)
    right = sum(trained.actions[i] == a for i, a in zip(seen, labels, strict=True))
    trained.save(args.out)
    busy = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{len(texts)} lines, {len(trained.actions)} commands; embedded in {embedded:.1f} s, trained in "
          f"{fitted:.1f} s (load average {busy}); {100 * right / len(texts):.1f}% of the training lines "
          f"read back; {args.out} ({args.out.stat().st_size // 1024} KB), {trained.tag}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
