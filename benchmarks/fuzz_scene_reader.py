"""Fuzz the ray-optics scene reader: generated scene files must be read or refused in a sentence.

    python benchmarks/fuzz_scene_reader.py              # 2,000 scenes
    python benchmarks/fuzz_scene_reader.py --examples 300

Hypothesis builds scene-shaped JSON (objects of every type the simulator knows, with numbers,
strings, empty values, infinities, nested lists, modules with loops and formulas) and hands its
text to the pack's one reader (``scene_json``: the dock's and MCP's ``load_scene``, ``napari-talk
rays``), then hands what it read to the simulator as a trace does (``engine.simulator_scene``).
Each step may refuse (the reader's ``SceneFormatError`` or ``ValueError``, the simulator's
``SceneError``: what ``load_scene`` and ``napari-talk rays`` answer in a sentence); any other
exception, or a step slower than a second, is a crash. Prints the crash-free figure
and the first crashes found. Not run in CI: a fixed budget of examples, minutes of work.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from napari_talk.packs.rays.engine import simulator_scene
from napari_talk.packs.rays.rayoptics import registry
from napari_talk.packs.rays.rayoptics.base import SceneError
from napari_talk.packs.rays.scene import Scene
from napari_talk.packs.rays.scene_json import SceneFormatError, scene_from_text

SLOW_SECONDS = 1.0
SCENE_MODEL_REFUSALS = (SceneFormatError, ValueError)
"""What ``load_scene`` answers in a sentence from the scene model's reader ("cannot load 'x.json': ...")."""
FORMULAS = ["x", "1/0", "", "g(g(g(1)))", "-" * 80 + "1", "i*2", "random()", "\\frac{1}{x}", "sqrt(-1)"]

numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.sampled_from(["", "1.5", "Infinity", "-1e400", "NaN", " 2 "]),
)
points = st.fixed_dictionaries({"x": numbers, "y": numbers})
texts = st.one_of(st.text(max_size=20), st.sampled_from(["`1/0`", "`x_1`", "``t``", "\x01\x1b"]))
values = st.recursive(
    st.one_of(numbers, texts, st.booleans(), st.none(), points),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@st.composite
def scene_objects(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from([*registry.TYPES, "ModuleObj", "TextLabel", "Nonsense"]))
    cls = registry.TYPES.get(kind)
    keys = list(cls.defaults) if cls is not None else ["module", "points", "params"]
    chosen = draw(st.lists(st.sampled_from(keys), unique=True, max_size=len(keys))) if keys else []
    obj: dict[str, Any] = {"type": kind}
    for key in chosen:
        if key in ("path", "points"):
            obj[key] = draw(st.lists(points, max_size=8))
        elif key.startswith("p") and len(key) == 2:
            obj[key] = draw(points)
        elif key.endswith("Fn") or key.startswith("eqn"):
            obj[key] = draw(st.sampled_from(FORMULAS))
        else:
            obj[key] = draw(values)
    if kind == "ModuleObj":
        obj["module"] = "M"
    return obj


@st.composite
def scenes(draw: st.DrawFn) -> dict[str, Any]:
    template = {
        "type": draw(st.sampled_from(["Blocker", "TextLabel", "ModuleObj"])),
        "for": draw(st.sampled_from(["i=0:1:3", "i=0:0:3", "i=1:1:1e9", ["i=0:1:2", "j=0:1:2"]])),
        "p1": {"x": draw(st.sampled_from(FORMULAS)).join("``") or 0, "y": 0},
        "p2": draw(points),
        "module": "M",
    }
    assignments = st.lists(st.sampled_from(["g(x)=x+x", "a=1/0", "b="]), max_size=2)
    module = {"objs": [template], "vars": draw(assignments)}
    return {
        "version": draw(st.sampled_from([5, 4, 6, "5", None])),
        "objs": draw(st.lists(scene_objects(), max_size=6)),
        "modules": {"M": module},
        "rayModeDensity": draw(numbers),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000)
    args = parser.parse_args()
    outcomes: Counter[str] = Counter()
    crashes: list[str] = []

    @settings(max_examples=args.examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(scenes())
    def read(scene: dict[str, Any]) -> None:
        text = json.dumps(scene, allow_nan=True)
        model: Scene | None = None
        steps = (
            (lambda: scene_from_text(text, "fuzz.json"), SCENE_MODEL_REFUSALS),
            (lambda: simulator_scene(model) if model is not None else None, (SceneError,)),
        )
        for step, refusals in steps:
            started = time.perf_counter()
            try:
                done = step()
                outcomes["read" if done is not None else "not built (refused when read)"] += 1
                if isinstance(done, Scene):
                    model = done
            except refusals:
                outcomes["refused in a sentence"] += 1
            except Exception as exc:
                outcomes["crashed"] += 1
                crashes.append(f"{type(exc).__name__}: {exc} ← {text[:200]}")
            if time.perf_counter() - started > SLOW_SECONDS:
                outcomes["slower than 1 s"] += 1

    started = time.perf_counter()
    read()
    total = sum(v for k, v in outcomes.items() if k != "slower than 1 s")
    clean = total - outcomes["crashed"]
    seconds = time.perf_counter() - started
    print(f"{total:,} readings of {args.examples:,} generated scenes in {seconds:.0f} s")
    for name, count in outcomes.most_common():
        print(f"  {name}: {count:,}")
    print(f"crash-free: {clean / total:.2%}" if total else "nothing read")
    for crash in dict.fromkeys(crashes[:10]):
        print("  " + crash)


if __name__ == "__main__":
    main()
