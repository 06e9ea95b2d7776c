"""The rays pack's commands: queries on a traced 2-D optics scene, Fresnel numbers, and what a
napari user needs around them (load a scene, retrace after editing a glass, display options).

The eight queries carry seed 001's names and parameters; their agent wrappers add ``_xml``.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from ...core.commands import Command, NonBlank, Risk, names

GlassName = Annotated[
    NonBlank,
    Field(
        description="Name of a glass in the scene: exact, case-insensitive, or a unique part of it.",
        json_schema_extra=names("glasses"),
    ),
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


class FindRaysInsideGlass(_Query, action="find_rays_inside_glass"):
    """Find the ray segments whose midpoint lies inside a glass."""

    glass_name: GlassName
    examples: ClassVar = ("rays inside Prism", "which rays are inside Slab 1")


class FindRaysCrossingEdge(_Query, action="find_rays_crossing_edge"):
    """Find the ray segments that cross or touch one edge of a glass."""

    glass_name: GlassName
    edge_label: EdgeLabel
    examples: ClassVar = ("rays crossing edge N of Prism", "which rays hit edge 0 of Slab 1")


class FindRaysByAngleToEdge(_Query, action="find_rays_by_angle_to_edge"):
    """Find ray segments near an edge whose angle to its normal is in a window (0° head-on, 90°
    grazing); near means the midpoint is within twice the edge's length of it."""

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


class FindRaysByPolarization(_Query, action="find_rays_by_polarization"):
    """Find the ray segments whose degree of polarization |p − s| / (p + s) is in a window."""

    min_dop: Dop = Field(default=0, description="Smallest degree of polarization (0 = unpolarized).")
    max_dop: Dop = Field(default=1, description="Largest degree of polarization (1 = fully polarized).")
    examples: ClassVar = ("rays with polarization between 0.2 and 0.6", "rays with DoP above 0.5")

    @model_validator(mode="after")
    def _ordered(self) -> FindRaysByPolarization:
        if self.min_dop > self.max_dop:
            raise ValueError("min_dop must not exceed max_dop")
        return self


class RankPathsByEnergy(_Query, action="rank_paths_by_energy"):
    """Rank the optical paths (source to last segment) by the brightness they end with."""

    top_n: int = Field(default=10, ge=1, le=10_000, description="How many paths to list, brightest first.")
    examples: ClassVar = ("top 5 paths by energy", "rank the paths by energy")


class CheckEnergyConservation(_Query, action="check_energy_conservation"):
    """Check that no interaction creates energy: children plus what was truncated equal the parent."""

    examples: ClassVar = ("is energy conserved?", "check energy conservation")


class FresnelTransmittances(_Query, action="fresnel_transmittances"):
    """Fresnel reflectances and transmittances (s and p) at an interface, with the critical and
    Brewster angles."""

    n1: float = Field(gt=0, description="Refractive index of the medium the light comes from.")
    n2: float = Field(gt=0, description="Refractive index of the medium the light goes into.")
    theta_i_deg: Angle = Field(description="Angle of incidence from the normal, degrees (0..90).")
    examples: ClassVar = ("fresnel from 1 to 1.5 at 45 degrees", "fresnel 1.5 1 30")


class DescribeGlassEdges(_Query, action="describe_glass_edges"):
    """List a glass's edges: index, label, length, end points and midpoint."""

    glass_name: GlassName
    examples: ClassVar = ("describe the edges of Prism", "edges of Slab 1")


class TraceScene(Command, action="trace_scene"):
    """Trace the ray scene again, with the glasses as they now are in the viewer (after moving or
    reshaping one); undo goes back to the previous trace."""

    examples: ClassVar = ("retrace", "trace the rays again")


class LoadScene(Command, action="load_scene"):
    """Load a ray-optics scene JSON file (version 5) from the workspace, trace it and show it."""

    path: NonBlank = Field(description="Path of the .json scene file, relative to the workspace.")
    examples: ClassVar = ("load scene scenes/prism.json",)


class LoadSampleScene(Command, action="load_sample_scene"):
    """Load one of the pack's sample scenes, trace it and show it."""

    name: Literal["prism demo", "slab"] = Field(
        description="'prism demo': a point source and a prism; 'slab': one ray through a glass slab."
    )
    examples: ClassVar = ("load the prism demo", "open the slab sample")


class ClearRaySelection(Command, action="clear_ray_selection"):
    """Remove the highlight a ray query left in the viewer."""

    examples: ClassVar = ("clear the ray selection", "remove the highlights")


class ColorRays(Command, action="color_rays"):
    """Colour the rays by brightness alone, or by degree of polarization (yellow → magenta); their
    opacity always follows brightness."""

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
