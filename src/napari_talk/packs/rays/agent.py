# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ray-tracing-shapely author and contributors
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# The tools' names, parameters, docstrings and error messages follow ray_tracing_shapely
# (https://github.com/micheleben/ray_tracing_shapely):
# doc/roadmap/done/05_tools_with_JSON_serializable_data.md, which specifies its analysis/agentic_tools.py.
# Licensed under the Apache License, Version 2.0 (see LICENSES/Apache-2.0.txt); modified: its code and
# docstrings adapted and changed for napari-talk (2026), over the rays pack's own queries.
"""JSON-serializable agent tools (after ray_tracing_shapely's): string/number parameters in, XML strings out.

The live objects (scene, segments, lineage) cannot travel as tool parameters, so they sit in a
context the caller fills once after a trace::

    result = trace(scene)
    set_context_from_result(scene, result)
    find_rays_inside_glass_xml("Main Prism")   # '<?xml ...><rays count="24">...'

Every wrapper reads the context, resolves names to objects, validates its parameters with the
pack's command model, calls the analysis function and serializes the result. A chat session
answers the same queries from its own state (its Results read as the same XML for agents).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...core.basics.commands import Command
from ...core.rules.names import resolve_name
from . import analysis, lineage
from . import commands as cmd
from .fresnel import fresnel_transmittances
from .scene import Glass, Scene, get_object_by_name
from .simulation import RayLineage, Segments, SimulationResult
from .xml import edges_to_xml, energy_report_to_xml, fresnel_to_xml, paths_to_xml, rays_to_xml

NO_CONTEXT = "No context set. Call set_context() or set_context_from_result() before using agentic tools."
NO_LINEAGE = "No lineage available. Pass lineage to set_context() or use set_context_from_result()."


@dataclass
class AgentContext:
    """The objects the tools work on."""

    scene: Scene | None = None
    segments: Segments | None = None
    lineage: RayLineage | None = None

    def set(self, scene: Scene, segments: Segments, lineage: RayLineage | None = None) -> None:
        self.scene, self.segments, self.lineage = scene, segments, lineage

    def clear(self) -> None:
        self.scene, self.segments, self.lineage = None, None, None


_context = AgentContext()
"""The seed's tools are module-level functions over one context that their caller fills
(``set_context``); a chat session keeps its scene in its own state and never writes here, so two
sessions, or a session and a script, never see each other's scene."""


def set_context(scene: Scene, segments: Segments, lineage: RayLineage | None = None) -> None:
    """Register the objects the tools work on; call it before any tool."""
    _context.set(scene, segments, lineage)


def set_context_from_result(scene: Scene, result: SimulationResult) -> None:
    """Register a trace's segments and lineage, with the scene that was traced."""
    set_context(scene=scene, segments=result.segments, lineage=result.lineage)


def get_context() -> dict[str, Any]:
    """A copy of the current context (for inspection)."""
    context = _context
    if context.scene is None:
        return {}
    return {"scene": context.scene, "segments": context.segments, "lineage": context.lineage}


def clear_context() -> None:
    _context.clear()


def _require_context() -> tuple[Scene, Segments]:
    context = _context
    if context.scene is None or context.segments is None:
        raise RuntimeError(NO_CONTEXT)
    return context.scene, context.segments


def _require_lineage() -> RayLineage:
    _require_context()
    if _context.lineage is None:
        raise RuntimeError(NO_LINEAGE)
    return _context.lineage


def _glass(scene: Scene, name: str) -> Glass:
    """The glass a name means (exact, then ignoring case, then a unique part); else the seed's
    ValueError listing the names."""
    match = resolve_name(name, scene.names)
    return get_object_by_name(scene, match.found if match.found is not None else name)


def _checked(model: type[Command], **parameters: Any) -> Any:
    """The parameters validated as typed commands are (a pydantic ValidationError is a ValueError)."""
    return model(**parameters)


def find_rays_inside_glass_xml(glass_name: str) -> str:
    """Find rays whose midpoint is inside a named glass object.

    Args:
        glass_name: Name of the glass object in the scene.

    Returns:
        XML string describing the matching rays.

    Raises:
        RuntimeError: If set_context() has not been called.
        ValueError: If glass_name doesn't match any object (the message lists the names).
    """
    scene, segments = _require_context()
    query = _checked(cmd.FindRaysInsideGlass, glass_name=glass_name)
    glass = _glass(scene, query.glass_name)
    return rays_to_xml(analysis.find_rays_inside_glass(segments, glass))


def find_rays_crossing_edge_xml(glass_name: str, edge_label: str) -> str:
    """Find rays that cross (or touch) a specific edge of a named glass object.

    Args:
        glass_name: Name of the glass object in the scene.
        edge_label: Label of the edge (short label, long label, or index).

    Returns:
        XML string describing the matching rays.
    """
    scene, segments = _require_context()
    query = _checked(cmd.FindRaysCrossingEdge, glass_name=glass_name, edge_label=edge_label)
    glass = _glass(scene, query.glass_name)
    return rays_to_xml(analysis.find_rays_crossing_edge(segments, glass, query.edge_label))


def find_rays_by_angle_to_edge_xml(
    glass_name: str, edge_label: str, min_angle: float = 0.0, max_angle: float = 90.0
) -> str:
    """Find rays within an angle range relative to a named glass edge.

    Args:
        glass_name: Name of the glass object in the scene.
        edge_label: Label of the reference edge.
        min_angle: Minimum angle from edge normal in degrees.
        max_angle: Maximum angle from edge normal in degrees.

    Returns:
        XML string describing the matching rays.
    """
    scene, segments = _require_context()
    query = _checked(
        cmd.FindRaysByAngleToEdge,
        glass_name=glass_name,
        edge_label=edge_label,
        min_angle=min_angle,
        max_angle=max_angle,
    )
    glass = _glass(scene, query.glass_name)
    found = analysis.find_rays_by_angle_to_edge(
        segments, glass, query.edge_label, query.min_angle, query.max_angle
    )
    return rays_to_xml(found)


def find_rays_by_polarization_xml(min_dop: float = 0.0, max_dop: float = 1.0) -> str:
    """Filter rays by degree of polarization.

    Args:
        min_dop: Minimum degree of polarization (0-1).
        max_dop: Maximum degree of polarization (0-1).

    Returns:
        XML string describing the matching rays.
    """
    _, segments = _require_context()
    query = _checked(cmd.FindRaysByPolarization, min_dop=min_dop, max_dop=max_dop)
    return rays_to_xml(analysis.find_rays_by_polarization(segments, query.min_dop, query.max_dop))


def rank_paths_by_energy_xml(top_n: int = 10) -> str:
    """Rank optical paths by terminal segment brightness, highest-energy first.

    Args:
        top_n: Maximum number of paths to return.

    Returns:
        XML string of the paths: energy, s and p parts, length, interaction types, segment uuids.
    """
    found = _require_lineage()
    query = _checked(cmd.RankPathsByEnergy, top_n=top_n)
    return paths_to_xml(lineage.rank_paths_by_energy(found, query.top_n))


def check_energy_conservation_xml() -> str:
    """Verify energy conservation at each interaction of the ray tree.

    Returns:
        XML string: checks made, violations, worst excess ratio, and the global energy balance.
    """
    return energy_report_to_xml(lineage.check_energy_conservation(_require_lineage()))


def fresnel_transmittances_xml(n1: float, n2: float, theta_i_deg: float) -> str:
    """Compute Fresnel power reflectances and transmittances at an interface (needs no context).

    Args:
        n1: Refractive index of the incident medium.
        n2: Refractive index of the transmitting medium.
        theta_i_deg: Angle of incidence in degrees (from normal).

    Returns:
        XML string with R_s, R_p, T_s, T_p, the refraction angle and the critical and Brewster angles.
    """
    query = _checked(cmd.FresnelTransmittances, n1=n1, n2=n2, theta_i_deg=theta_i_deg)
    if isinstance(query.n1, str) or isinstance(query.n2, str):
        raise ValueError("n1 and n2 are refractive indices: numbers, not names")
    return fresnel_to_xml(fresnel_transmittances(query.n1, query.n2, query.theta_i_deg))


def describe_glass_edges_xml(glass_name: str) -> str:
    """Describe the edges of a named glass: index, labels, length, end points, midpoint, normal.

    Args:
        glass_name: Name of the glass object in the scene.

    Returns:
        XML string describing the glass and its edges (use the labels with the edge tools).
    """
    scene, _ = _require_context()
    query = _checked(cmd.DescribeGlassEdges, glass_name=glass_name)
    return edges_to_xml(_glass(scene, query.glass_name))


_TOOLS: tuple[tuple[Callable[..., str], type[Command]], ...] = (
    (find_rays_inside_glass_xml, cmd.FindRaysInsideGlass),
    (find_rays_crossing_edge_xml, cmd.FindRaysCrossingEdge),
    (find_rays_by_angle_to_edge_xml, cmd.FindRaysByAngleToEdge),
    (find_rays_by_polarization_xml, cmd.FindRaysByPolarization),
    (rank_paths_by_energy_xml, cmd.RankPathsByEnergy),
    (check_energy_conservation_xml, cmd.CheckEnergyConservation),
    (fresnel_transmittances_xml, cmd.FresnelTransmittances),
    (describe_glass_edges_xml, cmd.DescribeGlassEdges),
)


def _number_only(prop: dict[str, Any]) -> dict[str, Any]:
    """A parameter that is a number or a scene glass's name in the typed command (n1, n2) is a
    number in the seed's wrappers, which take indices."""
    number = next((branch for branch in prop.get("anyOf", ()) if branch.get("type") == "number"), None)
    if number is None:
        return prop
    kept = {key: value for key, value in prop.items() if key != "anyOf"}
    return {**kept, **number, "description": str(prop.get("description", "")).replace(cmd.OR_GLASS, ".")}


def get_agentic_tools() -> list[dict[str, Any]]:
    """The tool wrappers with their metadata, for any LLM framework.

    Each entry: ``name``, ``function`` (the callable), ``description`` (one line), ``parameters``
    (each parameter's JSON schema: type, description, default, bounds) and ``input_schema`` (the
    whole JSON schema), all generated from the pack's command models::

        tools = [t["function"] for t in get_agentic_tools()]                    # claudette
        tools = [{"name": t["name"], "description": t["description"],
                  "input_schema": t["input_schema"]} for t in get_agentic_tools()]  # Claude API
    """
    tools = []
    for function, model in _TOOLS:
        schema = model.model_json_schema()
        schema["properties"].pop("action", None)
        schema["required"] = [r for r in schema.get("required", []) if r != "action"]
        schema.pop("title", None)
        for name, prop in schema["properties"].items():
            prop.pop("title", None)
            schema["properties"][name] = _number_only(prop)
        tools.append(
            {
                "name": function.__name__,
                "function": function,
                "description": model.description(),
                "parameters": schema["properties"],
                "input_schema": schema,
            }
        )
    return tools
