"""Compiling a rule's pass runs no garbage collection: its full collections held the GUI's GIL."""

from __future__ import annotations

import copy
import gc
import re

from napari_talk.core.rules import rule as rules
from napari_talk.packs.rays.grammar import RULES as RAY_RULES


def test_compiling_a_pass_runs_with_the_collector_off_and_leaves_it_as_it_was(monkeypatch):
    rule = copy.copy(next(r for r in RAY_RULES if r.action == "find_rays_by_angle_to_edge"))
    rule._passes = {}
    collector_on: list[bool] = []
    compile_ = re.compile

    def watched(pattern, flags=0):
        collector_on.append(gc.isenabled())
        return compile_(pattern, flags)

    monkeypatch.setattr(rules.re, "compile", watched)
    re.purge()  # compiled, not taken from re's cache
    compiled = rule._pass(True)
    monkeypatch.undo()
    assert collector_on and not any(collector_on)
    assert compiled.combined.fullmatch("rays hitting edge N of Prism at below 20 degrees")
    assert gc.isenabled()
    gc.disable()
    try:
        rule._passes = {}
        rule._pass(False)
        assert not gc.isenabled()  # a collector turned off elsewhere stays off
    finally:
        gc.enable()
