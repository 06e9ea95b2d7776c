"""Small ray-optics scene files that would cost a reader or a tracer without end, one per way.

Each builder returns the scene (a dict, written as JSON) and the words the refusal must contain:
the tests open them through the doors (``napari-talk rays``, MCP, the dock), and
``benchmarks/hostile_inputs.py`` prints what each costs beside its limit.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

Scene = dict[str, Any]


def _point(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def _ray(x: float = -50.0, y: float = 0.5, dx: float = 1.0, dy: float = 0.0) -> dict[str, Any]:
    return {"type": "SingleRay", "p1": _point(x, y), "p2": _point(x + dx, y + dy)}


def _scene(objs: list[Any], **more: Any) -> Scene:
    return {"version": 5, "objs": objs, **more}


def shared_formula(depth: int = 40) -> Scene:
    """``g(x)=x+x`` called 40 deep: a 0.4 KB text standing for 2^40 terms."""
    value = "`" + "g(" * depth + "1" + ")" * depth + "`"
    module = {
        "vars": ["g(x)=x+x"],
        "objs": [{"type": "Blocker", "p1": _point(0, 0), "p2": _point(value, 10)}],
    }
    return _scene([{"type": "ModuleObj", "module": "M", "points": []}], modules={"M": module})


def loops_in_loops(runs: int = 1000) -> Scene:
    """A looped template whose values hold loops of their own: the runs multiply."""
    inner = {"for": f"k=1:1:{runs}", "x": "`k`", "y": "`j`"}
    middle = {"for": f"j=1:1:{runs}", "points": [inner]}
    template = {
        "for": f"i=1:1:{runs}",
        "type": "Blocker",
        "p1": _point("`i`", 0),
        "p2": _point("`i`", 1),
        "extra": [middle],
    }
    module = {"objs": [template]}
    return _scene([{"type": "ModuleObj", "module": "M", "points": []}], modules={"M": module})


def modules_of_labels(runs: int = 1000, levels: int = 4) -> Scene:
    """Modules expanding into modules, the leaves text labels (no optical object to count)."""
    modules: dict[str, Any] = {
        f"M{level}": {"objs": [{"for": f"i=1:1:{runs}", "type": "ModuleObj", "module": f"M{level + 1}"}]}
        for level in range(levels)
    }
    modules[f"M{levels}"] = {
        "objs": [{"for": f"i=1:1:{runs}", "type": "TextLabel", "x": "`i`", "y": 0, "text": "x"}]
    }
    return _scene([{"type": "ModuleObj", "module": "M0", "points": []}], modules=modules)


def _polygon(n: int, cx: float, cy: float, r: float) -> list[dict[str, Any]]:
    return [
        {
            "x": cx + r * math.cos(2 * math.pi * k / n),
            "y": cy + r * math.sin(2 * math.pi * k / n),
            "arc": False,
        }
        for k in range(n)
    ]


def overlapping_glasses(vertices: int = 10_000) -> Scene:
    """Two overlapping glasses of 10,000 vertices each (about 1 MB)."""
    glasses = [{"type": "Glass", "path": _polygon(vertices, cx, 0, 40)} for cx in (0.0, 30.0)]
    return _scene([*glasses, _ray(-100, 0.5)])


def facing_custom_surfaces(out_rays: int = 32) -> Scene:
    """Two facing custom surfaces each sending a met ray back as 32 rays of full brightness."""
    back = [{"eqnTheta": "\\pi-\\theta_0", "eqnP": "P_0"} for _ in range(out_rays)]
    surfaces = [
        {
            "type": "CustomSurface",
            "p1": _point(x, -50),
            "p2": _point(x, 50),
            "outRays": back,
            "twoSided": True,
        }
        for x in (0.0, 20.0)
    ]
    return _scene([*surfaces, _ray(5, 0.5)])


def trapped_grin() -> Scene:
    """A GRIN glass stepped at the smallest step, a ray circling in it."""
    square = [_point(0, 0), _point(200, 0), _point(200, 200), _point(0, 200)]
    grin = {
        "type": "GrinGlass",
        "path": [{**p, "arc": False} for p in square],
        "refIndexFn": "1+e^{-\\frac{(x-100)^2+(y-100)^2}{30^2}}",
        "stepSize": 0.001,
        "absorptionFn": "0",
    }
    return _scene([grin, _ray(100, 130, 1, 0)])


def thin_grin_slabs(count: int = 700) -> Scene:
    """Hundreds of thin GRIN slabs side by side, and one ray through them all."""
    slabs = [
        {
            "type": "GrinGlass",
            "path": [
                {**p, "arc": False}
                for p in (_point(x, -10), _point(x + 0.5, -10), _point(x + 0.5, 10), _point(x, 10))
            ],
            "refIndexFn": "1.2",
            "stepSize": 1,
        }
        for x in range(0, 2 * count, 2)
    ]
    return _scene([*slabs, _ray(-10, 0.3)])


def many_glasses(count: int = 5000) -> Scene:
    """Thousands of small separate glasses (napari triangulates each as it draws them) and a beam."""
    glasses = [
        {
            "type": "Glass",
            "refIndex": 1.5,
            "path": [{**p, "arc": False} for p in (_point(x, y), _point(x + 5, y), _point(x + 5, y + 5))],
        }
        for x, y in ((10.0 * (n % 100), 10.0 * (n // 100)) for n in range(count))
    ]
    beam = {"type": "Beam", "p1": _point(-20, 0), "p2": _point(-20, 40), "numRays": 20}
    return _scene([beam, *glasses])


def comb_glass(teeth: int = 25_500) -> Scene:
    """One glass shaped as a comb of many teeth: its path has more points than a path may have."""
    top = []
    for k in range(teeth):
        x = 2.0 * k
        top += [_point(x, 0), _point(x, 100), _point(x + 1, 100), _point(x + 1, 0)]
    path = [{**p, "arc": False} for p in [_point(0, -10), *top, _point(2.0 * teeth, -10)]]
    return _scene([{"type": "Glass", "path": path}, _ray(-10, 50)])


def deep_operators(count: int = 3000) -> Scene:
    """A module value of thousands of prefix operators (``----…1``)."""
    module = {"objs": [{"type": "Blocker", "p1": _point(0, 0), "p2": _point("`" + "-" * count + "1`", 10)}]}
    return _scene([{"type": "ModuleObj", "module": "M", "points": []}], modules={"M": module})


def division_by_zero_text() -> Scene:
    """``1/0`` written into a module's text."""
    module = {"objs": [{"type": "Blocker", "p1": _point(0, 0), "p2": _point(0, 10), "name": "a`1/0`"}]}
    return _scene([{"type": "ModuleObj", "module": "M", "points": []}, _ray()], modules={"M": module})


def empty_number_in_module() -> Scene:
    """A module's control point written as an empty number."""
    module = {"numPoints": 1, "objs": [{"type": "Blocker", "p1": _point("`x_1`", 0), "p2": _point(0, 10)}]}
    return _scene(
        [{"type": "ModuleObj", "module": "M", "points": [{"x": "", "y": 0}]}, _ray()], modules={"M": module}
    )


def one_ray() -> Scene:
    """A scene of one ray and nothing else (no glass for the glasses layer)."""
    return _scene([_ray()])


def nothing() -> Scene:
    """A scene of no object at all (no ray for the rays layer)."""
    return _scene([])


def deep_json(depth: int = 5000) -> str:
    """Text: arrays nested thousands deep inside a scene."""
    return '{"version": 5, "objs": [' + "[" * depth + "]" * depth + "]}"


def control_characters() -> Scene:
    """A glass whose name holds control characters (not allowed in XML, even escaped)."""
    path = [{**p, "arc": False} for p in (_point(0, -10), _point(10, -10), _point(10, 10), _point(0, 10))]
    return _scene([{"type": "Glass", "name": "pri\x01sm\x1b", "path": path}, _ray(-20, 0.5)])


HOSTILE: dict[str, tuple[Any, str]] = {
    "shared_formula": (shared_formula, "20000 terms"),
    "loops_in_loops": (loops_in_loops, "200,000 values"),
    "modules_of_labels": (modules_of_labels, "200,000 values"),
    "overlapping_glasses": (overlapping_glasses, "edge pairs"),
    "facing_custom_surfaces": (facing_custom_surfaces, "2,000,000 ray segments"),
    "trapped_grin": (trapped_grin, "ray segments"),
    "thin_grin_slabs": (thin_grin_slabs, "1401 segments traced"),
    "comb_glass": (comb_glass, "100,000"),
    "deep_operators": (deep_operators, "4000"),
    "deep_json": (deep_json, "nests deeper than 64"),
}
"""name: (builder, words of the refusal)."""


def write(folder: Path, name: str) -> Path:
    """The hostile scene ``name`` written as ``folder/name.json``."""
    built = HOSTILE[name][0]() if name in HOSTILE else globals()[name]()
    path = folder / f"{name}.json"
    path.write_text(built if isinstance(built, str) else json.dumps(built))
    return path
