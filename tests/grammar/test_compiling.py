"""Compiling a rule's pass runs no garbage collection: its full collections held the GUI's GIL."""

from __future__ import annotations

import copy
import gc
import re

from napari_talk.packs.rays.grammar import RULES as RAY_RULES


def test_compiling_a_pass_runs_no_collection_and_leaves_the_collector_as_it_was():
    rule = copy.copy(next(r for r in RAY_RULES if r.action == "find_rays_by_angle_to_edge"))
    rule._passes = {}
    started: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            started.append(info["generation"])

    re.purge()  # compiled, not taken from re's cache
    gc.callbacks.append(count)
    try:
        compiled = rule._pass(True)
    finally:
        gc.callbacks.remove(count)
    assert compiled.combined.fullmatch("rays hitting edge N of Prism at below 20 degrees")
    assert started in ([], [0]) and gc.isenabled()  # at most the young collection owed once it is back on
    gc.disable()
    try:
        rule._passes = {}
        rule._pass(False)
        assert not gc.isenabled()  # a collector turned off elsewhere stays off
    finally:
        gc.enable()
