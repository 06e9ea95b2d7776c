# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2024-2025 The Ray Optics Simulation authors and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from ray-optics (https://github.com/ricktu288/ray-optics, by Yi-Ting Tu and contributors):
# src/core/sceneObjs/BaseFilter.js.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: translated to
# Python and changed for napari-talk (2026).
"""What filtered objects share (ray-optics' ``BaseFilter``): with colours simulated and the
filter on, they act only on wavelengths within ``bandwidth`` of ``wavelength`` (or, inverted, only
outside it)."""

from __future__ import annotations

from ..base import GREEN_WAVELENGTH, Ray, SceneObj

FILTER_DEFAULTS = {"filter": False, "invert": False, "wavelength": GREEN_WAVELENGTH, "bandwidth": 10.0}


class BaseFilter(SceneObj):
    """An object that, with colours simulated and its filter on, acts only on some wavelengths."""

    def passes_filter(self, ray: Ray) -> bool:
        enabled = self.settings.simulate_colors and self.filter and self.wavelength
        if not enabled:
            return True
        if ray.wl is None:
            return bool(self.invert)
        matches = abs(self.wavelength - ray.wl) <= self.bandwidth
        return matches != bool(self.invert)
