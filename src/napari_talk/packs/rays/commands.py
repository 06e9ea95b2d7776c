"""The rays pack's commands: queries on a traced 2-D optics scene, Fresnel numbers, editing the
scene by typing, and what a napari user needs around them (load and save a scene, retrace after
editing a glass, display options).

The eight queries carry ray_tracing_shapely's names and parameters; their agent wrappers add ``_xml``.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from ...core.basics.commands import Command, NonBlank, Risk, names

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
ObjectName = Annotated[
    NonBlank,
    Field(
        description="Name of an object of the scene as describe_scene lists it (a glass, 'Point source 1', "
        "'Mirror 2'...): exact, case-insensitive, or a unique part of it.",
        json_schema_extra=names("scene_objects"),
    ),
]
Finite = Annotated[float, Field(allow_inf_nan=False)]
ScenePoint = Annotated[
    list[Finite],
    Field(min_length=2, max_length=2, description="[x, y] in scene coordinates (y up)."),
]
Index = Annotated[float, Field(gt=0, le=10, allow_inf_nan=False, description="Refractive index (> 0).")]
OR_GLASS = ", or a glass of the scene."
"""The end of the description of an index that may be a scene glass's name."""
SceneMedium = Annotated[
    NonBlank,
    Field(
        description="A glass of the ray scene whose refractive index it is, by name as describe_scene "
        "lists it (exact, case-insensitive, or a unique part of it).",
        json_schema_extra=names("scene_objects"),
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


class MoreRays(Command, action="more_rays"):
    """Trace the scene again with more rays from every light source (or fewer); undo goes back."""

    factor: Annotated[float, Field(gt=0, le=100, allow_inf_nan=False)] = Field(
        default=2, description="How many times as many rays: 2 doubles them, 0.5 halves them."
    )
    examples: ClassVar = ("more rays", "fewer rays", "three times as many rays")


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

    n1: Annotated[float, Field(gt=0)] | SceneMedium = Field(
        description="Refractive index of the medium the light comes from" + OR_GLASS
    )
    n2: Annotated[float, Field(gt=0)] | SceneMedium = Field(
        description="Refractive index of the medium the light goes into" + OR_GLASS
    )
    theta_i_deg: Angle = Field(description="Angle of incidence from the normal, degrees (0..90).")
    examples: ClassVar = ("fresnel from 1 to 1.5 at 45 degrees", "fresnel 1.5 1 30")


class DescribeGlassEdges(_Query, action="describe_glass_edges"):
    """List a glass's edges: index, label, length, end points and midpoint."""

    glass_name: GlassName
    examples: ClassVar = ("describe the edges of Prism", "edges of Slab 1")


class OpticsAngle(_Query, action="optics_angle"):
    """The critical angle (total internal reflection beyond it) or Brewster's angle (p-polarized
    light is not reflected) between two media, in degrees from the normal."""

    kind: Literal["critical", "brewster"] = Field(description="Which angle: 'critical' or 'brewster'.")
    n1: Index | SceneMedium = Field(
        description="Refractive index of the medium the light comes from" + OR_GLASS
    )
    n2: Index | SceneMedium = Field(
        description="Refractive index of the medium the light goes into" + OR_GLASS
    )
    examples: ClassVar = ("what is the critical angle from glass 1.5 to air", "brewster angle from 1 to 1.33")


class DescribeScene(_Query, action="describe_scene"):
    """List every object of the ray scene: name, kind, position, size, refractive index; and the
    light sources."""

    examples: ClassVar = ("describe the scene", "what is in the scene")


class CountRays(_Query, action="count_rays"):
    """How many rays the scene's light sources emit (each source's count), and how many segments
    the trace has after reflections and refractions."""

    examples: ClassVar = ("how many rays are there?", "count the rays")


class DescribeSceneObject(_Query, action="describe_scene_object"):
    """One object of the ray scene: its kind, position and size, and its refractive index (a glass)
    or its rays (a light source); ``what`` narrows the answer to one of them."""

    name: ObjectName
    what: Literal["all", "index", "position", "size"] = Field(
        default="all", description="What is asked: 'index', 'position', 'size', or 'all' of it."
    )
    examples: ClassVar = ("what is the refractive index of Main Prism", "refractive index of the prism")


class DetectorReadings(_Query, action="detector_readings"):
    """The irradiance along a detector of the scene (ray-optics' Detector), as a table and a plot."""

    name: ObjectName | None = Field(
        default=None, description="The detector; may be left out when the scene has only one."
    )
    table: bool = Field(default=False, description="Also list every bin's reading as a table.")
    examples: ClassVar = ("show the detector readings", "detector readings as a table")


class _Edit(Command):
    """An edit of the scene: undoable, followed by a new trace."""

    risk: ClassVar[Risk] = "view"


class AddLightSource(_Edit, action="add_light_source"):
    """Add a light source to the ray scene and trace again."""

    kind: Literal["beam", "point", "single_ray", "angle"] = Field(
        description="'beam' (parallel rays), 'point' (all directions), 'single_ray' or 'angle'."
    )
    at: ScenePoint = Field(description="Where: a point source's position, a beam's centre, a ray's start.")
    direction_deg: Finite = Field(
        default=0, description="Direction the light goes, degrees counter-clockwise from +x (beam, ray)."
    )
    width: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = Field(
        default=None, description="Width of a beam, in scene units (default 20)."
    )
    brightness: Annotated[float, Field(gt=0, le=1000, allow_inf_nan=False)] | None = Field(
        default=None, description="Brightness as ray-optics gives it (default 0.5; a single ray's 1)."
    )
    examples: ClassVar = ("add a point source at 10, 10", "add a beam at 0, 50 pointing at 30 degrees")


class AddSceneElement(_Edit, action="add_scene_element"):
    """Add a flat mirror, a detector or an ideal lens to the ray scene, as a line between two
    points (or centred on one, with a length and a tilt), and trace again."""

    kind: Literal["mirror", "detector", "lens"] = Field(
        description="'mirror' (flat, reflects on both sides), 'detector' (measures the light crossing it), "
        "'lens' (an ideal thin lens)."
    )
    start: ScenePoint = Field(description="One end, [x, y]; its centre when no end is given.")
    end: ScenePoint | None = Field(default=None, description="The other end, [x, y].")
    length: Annotated[float, Field(gt=0, allow_inf_nan=False)] = Field(
        default=100, description="Its length when only its centre is given, in scene units."
    )
    angle_deg: Finite = Field(
        default=90, description="Its tilt when only its centre is given, degrees counter-clockwise from +x."
    )
    focal_length: Finite | None = Field(
        default=None, description="A lens's focal length (> 0 converging, < 0 diverging; default 100)."
    )
    examples: ClassVar = ("add a mirror from 100, 100 to 200, 200", "add a detector at 400, 250")


class MoveSceneObject(_Edit, action="move_scene_object"):
    """Move an object of the ray scene, to a position (its centre) or by an offset, and trace again."""

    name: ObjectName
    to: ScenePoint | None = Field(default=None, description="Where its centre goes, [x, y].")
    by: ScenePoint | None = Field(default=None, description="How far it moves, [dx, dy] (y up).")
    examples: ClassVar = ("move Main Prism up by 20", "move the prism to 300, 200")

    @model_validator(mode="after")
    def _one_place(self) -> MoveSceneObject:
        if (self.to is None) == (self.by is None):
            raise ValueError("give exactly one of 'to' (a position) and 'by' (an offset)")
        return self


class RotateSceneObject(_Edit, action="rotate_scene_object"):
    """Turn an object of the ray scene about its centre (counter-clockwise) and trace again."""

    name: ObjectName
    degrees: Annotated[float, Field(ge=-3600, le=3600, allow_inf_nan=False)] = Field(
        description="Angle, degrees counter-clockwise (negative: clockwise)."
    )
    examples: ClassVar = ("rotate the prism 15 degrees", "turn Mirror 1 by -30 degrees")


class SetRefractiveIndex(_Edit, action="set_refractive_index"):
    """Set the refractive index of a glass of the ray scene and trace again."""

    name: ObjectName
    index: Index
    examples: ClassVar = ("make Main Prism n = 1.7", "set n of Slab 1 to 1.33")


class RemoveSceneObject(_Edit, action="remove_scene_object"):
    """Remove an object from the ray scene and trace again."""

    name: ObjectName
    examples: ClassVar = ("remove Point source 1 from the scene", "delete Mirror 2 from the scene")


class SaveScene(Command, action="save_scene"):
    """Save the ray scene as a ray-optics scene file (JSON, version 5) in the workspace; ray-optics
    opens it with the same objects. Undo puts back the file that was there, or removes the new one."""

    path: NonBlank = Field(description="Path of the .json file to write, relative to the workspace.")
    examples: ClassVar = ("save the scene as scenes/new.json",)


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
    OpticsAngle,
    DescribeScene,
    CountRays,
    DescribeSceneObject,
    DetectorReadings,
    AddLightSource,
    AddSceneElement,
    MoveSceneObject,
    RotateSceneObject,
    SetRefractiveIndex,
    RemoveSceneObject,
    MoreRays,
    SaveScene,
    TraceScene,
    LoadScene,
    LoadSampleScene,
    ClearRaySelection,
    ColorRays,
)
