# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/Simulator.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""Compiled (numba) bookkeeping of a chunk's step, between finding what each ray meets and what
that object does to it: the rays' segments recorded (start, end, hit, brightness, lineage), and
the rays moved on as ray-optics moves them (a gap where the object met changes, one more depth,
dropped past the scene's ``maxRayDepth``)."""

from __future__ import annotations

import numpy as np

from .compiled import kernel
from .layout import AMP, BP, BS, DEPTH, GAP, NEW, PARENT, SOURCE, WL, X1, X2, Y1, Y2


@kernel
def step(
    rows: np.ndarray,
    obj: np.ndarray,
    hx: np.ndarray,
    hy: np.ndarray,
    last_obj: int,
    max_depth: float,
    first_id: int,
    block: np.ndarray,
    alive: np.ndarray,
) -> float:
    """Record each ray's segment in ``block`` (rows ``first_id`` on of the record; an empty block:
    none) and move the rays on in place; ``alive``: whether each goes on. Returns the brightness
    of the rays dropped past the maximum depth."""
    truncation = 0.0
    recording = len(block) > 0
    previous = last_obj
    for k in range(len(rows)):
        row = rows[k]
        o = obj[k]
        if recording:
            out = block[k]
            out[0], out[1], out[2], out[3], out[4], out[5] = row[X1], row[Y1], row[X2], row[Y2], hx[k], hy[k]
            out[6], out[7], out[8], out[9] = row[BS], row[BP], row[WL], row[DEPTH]
            out[10], out[11], out[12], out[13] = o, row[PARENT], row[SOURCE], row[AMP]
            row[PARENT] = first_id + k
        else:
            row[PARENT] = -1.0
        row[AMP] = 1.0
        if previous != o:
            row[GAP] = 1.0
        previous = o
        row[NEW] = 0.0
        alive[k] = o >= 0
        if o >= 0:
            row[DEPTH] += 1
            if row[DEPTH] > max_depth:
                truncation += row[BS] + row[BP]
                alive[k] = False
    return truncation
