"""Every object type the simulator traces keeps the contracts ``rayoptics/contract.py`` writes down:
each member is defined on the class (not merely readable through the JSON properties), glasses offer
what merged surfaces ask of them, light sources estimate their emission, and each class lives in
the ``scene_objs`` family ray-optics files it under."""

from __future__ import annotations

import inspect

import pytest

from napari_talk.packs.rays.rayoptics import contract
from napari_talk.packs.rays.rayoptics.base import Settings
from napari_talk.packs.rays.rayoptics.registry import TYPES, UNSUPPORTED
from napari_talk.packs.rays.rayoptics.scene_objs.base_glass import BaseGlass
from napari_talk.packs.rays.rayoptics.scene_objs.light_source.base_light_source import BaseLightSource

FAMILIES = {"glass", "mirror", "blocker", "light_source", "other"}


def members(protocol: type) -> set[str]:
    """The members a Protocol declares itself (its methods and annotated attributes)."""
    methods = {n for n, v in vars(protocol).items() if inspect.isfunction(v) and not n.startswith("__")}
    return methods | set(vars(protocol).get("__annotations__", {}))


@pytest.mark.parametrize("name", sorted(TYPES))
def test_each_traced_type_defines_every_member_of_its_contracts(name: str):
    cls = TYPES[name]
    needed = members(contract.SceneObject) - {"name", "props", "settings"}  # set per instance
    if issubclass(cls, BaseGlass):
        needed |= members(contract.MergingGlass)
        assert cls.is_glass
    if issubclass(cls, BaseLightSource):
        needed |= members(contract.LightSource)
    missing = sorted(m for m in needed if not hasattr(cls, m))
    assert not missing, f"{name} lacks {missing}"
    assert cls.type == name


@pytest.mark.parametrize("name", sorted(TYPES))
def test_each_type_lives_in_its_ray_optics_family_one_class_per_module(name: str):
    cls = TYPES[name]
    parts = cls.__module__.split(".")
    assert parts[-3] == "scene_objs" and parts[-2] in FAMILIES, cls.__module__
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")
    assert parts[-1] == snake, (name, cls.__module__)


def test_an_instance_keeps_the_contract_at_run_time():
    glass = TYPES["CircleGlass"](Settings(), {"p1": {"x": 0, "y": 0}, "p2": {"x": 1, "y": 0}})
    assert isinstance(glass, BaseGlass) and glass.is_glass
    assert glass.start() is None
    assert glass.hit_shape() == ([], [((0.0, 0.0), 1.0)])
    assert not UNSUPPORTED & set(TYPES)
