"""The rays pack's commands: queries on a traced 2-D optics scene, Fresnel numbers, and what a
napari user needs around them (load a scene, retrace after editing a glass, display options).

The eight queries carry seed 001's names and parameters; their agent wrappers add ``_xml``.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from ...commands import Command, NonBlank, Risk

GlassName = Annotated[
    NonBlank,
    Field(description="Name of a glass in the scene: exact, case-insensitive, or a unique part of it."),
]
EdgeLabel = Annotated[
    NonBlank,
    Field(
        description="An edge of the glass: its index ('0', '1', ...) or its label (N, NE, ... when labelled)."
    ),
]
Angle = Annotated[float, Field(ge=0, le=90)]
Dop = Annotated[float, Field(ge=0, le=1)]


class _Query(Command):
    risk: ClassVar[Risk] = "read"


class FindRaysInsideGlass(_Query):
    """Find the ray segments whose midpoint lies inside a glass."""

    action: Literal["find_rays_inside_glass"] = "find_rays_inside_glass"
    glass_name: GlassName
    examples: ClassVar = ("rays inside Prism", "which rays are inside Slab 1")


class FindRaysCrossingEdge(_Query):
    """Find the ray segments that cross or touch one edge of a glass."""

    action: Literal["find_rays_crossing_edge"] = "find_rays_crossing_edge"
    glass_name: GlassName
    edge_label: EdgeLabel
    examples: ClassVar = ("rays crossing edge N of Prism", "which rays hit edge 0 of Slab 1")


class FindRaysByAngleToEdge(_Query):
    """Find ray segments near an edge whose angle to its normal is in a window (0° head-on, 90°
    grazing); near means the midpoint is within twice the edge's length of it."""

    action: Literal["find_rays_by_angle_to_edge"] = "find_rays_by_angle_to_edge"
    glass_name: GlassName
    edge_label: EdgeLabel
    min_angle: Angle = Field(default=0, description="Smallest angle to the edge's normal, degrees (0..90).")
    max_angle: Angle = Field(default=90, description="Largest angle to the edge's normal, degrees (0..90).")
    examples: ClassVar = (
        "rays at 0 to 45 degrees to edge W of Slab 1",
        "rays at less than 30 degrees to edge N of Prism",
    )

    @model_validator(mode="after")
    def _ordered(self) -> FindRaysByAngleToEdge:
        if self.min_angle > self.max_angle:
            raise ValueError("min_angle must not exceed max_angle")
        return self


class FindRaysByPolarization(_Query):
    """Find the ray segments whose degree of polarization |p − s| / (p + s) is in a window."""

    action: Literal["find_rays_by_polarization"] = "find_rays_by_polarization"
    min_dop: Dop = Field(default=0, description="Smallest degree of polarization (0 = unpolarized).")
    max_dop: Dop = Field(default=1, description="Largest degree of polarization (1 = fully polarized).")
    examples: ClassVar = ("rays with polarization between 0.2 and 0.6", "rays with DoP above 0.5")

    @model_validator(mode="after")
    def _ordered(self) -> FindRaysByPolarization:
        if self.min_dop > self.max_dop:
            raise ValueError("min_dop must not exceed max_dop")
        return self


class RankPathsByEnergy(_Query):
    """Rank the optical paths (source to last segment) by the brightness they end with."""

    action: Literal["rank_paths_by_energy"] = "rank_paths_by_energy"
    top_n: int = Field(default=10, ge=1, le=10_000, description="How many paths to list, brightest first.")
    examples: ClassVar = ("top 5 paths by energy", "rank the paths by energy")


class CheckEnergyConservation(_Query):
    """Check that no interaction creates energy: children plus what was truncated equal the parent."""

    action: Literal["check_energy_conservation"] = "check_energy_conservation"
    examples: ClassVar = ("is energy conserved?", "check energy conservation")


class FresnelTransmittances(_Query):
    """Fresnel reflectances and transmittances (s and p) at an interface, with the critical and
    Brewster angles."""

    action: Literal["fresnel_transmittances"] = "fresnel_transmittances"
    n1: float = Field(gt=0, description="Refractive index of the medium the light comes from.")
    n2: float = Field(gt=0, description="Refractive index of the medium the light goes into.")
    theta_i_deg: Angle = Field(description="Angle of incidence from the normal, degrees (0..90).")
    examples: ClassVar = ("fresnel from 1 to 1.5 at 45 degrees", "fresnel 1.5 1 30")


class DescribeGlassEdges(_Query):
    """List a glass's edges: index, label, length, end points and midpoint."""

    action: Literal["describe_glass_edges"] = "describe_glass_edges"
    glass_name: GlassName
    examples: ClassVar = ("describe the edges of Prism", "edges of Slab 1")


class TraceScene(Command):
    """Trace the ray scene again, with the glasses as they now are in the viewer (after moving or
    reshaping one); undo goes back to the previous trace."""

    action: Literal["trace_scene"] = "trace_scene"
    examples: ClassVar = ("retrace", "trace the rays again")


class LoadScene(Command):
    """Load a ray-optics scene JSON file (version 5) from the workspace, trace it and show it."""

    action: Literal["load_scene"] = "load_scene"
    path: NonBlank = Field(description="Path of the .json scene file, relative to the workspace.")
    examples: ClassVar = ("load scene scenes/prism.json",)


class LoadSampleScene(Command):
    """Load one of the pack's sample scenes, trace it and show it."""

    action: Literal["load_sample_scene"] = "load_sample_scene"
    name: Literal["prism demo", "slab"] = Field(
        description="'prism demo': a point source and a prism; 'slab': one ray through a glass slab."
    )
    examples: ClassVar = ("load the prism demo", "open the slab sample")


class ClearRaySelection(Command):
    """Remove the highlight a ray query left in the viewer."""

    action: Literal["clear_ray_selection"] = "clear_ray_selection"
    examples: ClassVar = ("clear the ray selection", "remove the highlights")


class ColorRays(Command):
    """Colour the rays by brightness alone, or by degree of polarization (yellow → magenta); their
    opacity always follows brightness."""

    action: Literal["color_rays"] = "color_rays"
    by: Literal["brightness", "polarization"] = Field(description="What the colour shows.")
    examples: ClassVar = ("color rays by polarization", "colour the rays by brightness")


COMMANDS: tuple[type[Command], ...] = (
    FindRaysInsideGlass,
    FindRaysCrossingEdge,
    FindRaysByAngleToEdge,
    FindRaysByPolarization,
    RankPathsByEnergy,
    CheckEnergyConservation,
    FresnelTransmittances,
    DescribeGlassEdges,
    TraceScene,
    LoadScene,
    LoadSampleScene,
    ClearRaySelection,
    ColorRays,
)
