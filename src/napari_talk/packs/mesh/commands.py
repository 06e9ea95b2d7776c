"""The mesh pack's commands (the CONJURE toolset's), plus what a person needs around them.

Segments are numbered from 1 by decreasing area; ``segment_id`` is text on the wire, as in the
seed ("2", or "CURRENTLY_SELECTED"), and "ALL" means the whole model.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Field, StringConstraints, field_validator

from ...core.basics.commands import Command, Risk

PRIMITIVES = ("Sphere", "Cube", "Cone", "Cylinder", "Disk", "Torus", "Head", "Body")
PrimitiveType = Literal["Sphere", "Cube", "Cone", "Cylinder", "Disk", "Torus", "Head", "Body"]
SELECTED = "CURRENTLY_SELECTED"
ALL = "ALL"
_SELECTED_WORDS = {"currently selected", "selected", "current", "selection", "currently_selected"}
_ALL_WORDS = {"all", "everything", "whole", "whole model", "model", "all segments", "entire model"}


def _segment_ref(value: Any) -> Any:
    """Numbers as text ("2"), and the spellings of "the selected one" and "all" as the constants."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        text = value.strip()
        folded = " ".join(text.casefold().replace("_", " ").split())
        if folded in _SELECTED_WORDS or text == SELECTED:
            return SELECTED
        if folded in _ALL_WORDS:
            return ALL
        if text.isascii() and text.isdigit():  # not "²", which isdigit() accepts
            return str(int(text))
    return value


SegmentRef = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, pattern=r"\S"), BeforeValidator(_segment_ref)
]
"""A segment number as text, CURRENTLY_SELECTED or ALL; other text is refused when the command runs,
with the segments there are (the form is not a pattern in the schema: generated JSON must validate)."""


class SpawnPrimitive(Command, action="spawn_primitive"):
    """Create a new model from a primitive, replacing the current one; the view turns 3-D and frames it."""

    primitive_type: PrimitiveType = Field(
        description="Sphere, Cube, Cone, Cylinder, Disk, Torus, Head (with nose and ears) or Body "
        "(a humanoid)."
    )
    examples: ClassVar = ("spawn sphere", "spawn a torus", "make me a cube", "spawn a human body")

    @field_validator("primitive_type", mode="before")
    @classmethod
    def _any_case(cls, value: Any) -> Any:
        if isinstance(value, str):
            return next((p for p in PRIMITIVES if p.casefold() == value.strip().casefold()), value)
        return value


class RequestSegmentation(Command, action="request_segmentation"):
    """Split the model into meaningful parts (by creases and thickness) and colour them."""

    examples: ClassVar = ("segment it", "split the model into parts", "run segmentation")


class SelectSegment(Command, action="select_segment"):
    """Select a segment of the model (clicking the surface in the viewer does the same)."""

    segment_id: Annotated[int, Field(ge=1)] | SegmentRef = Field(
        description='The segment\'s number, from 1 (the largest), or its name ("head", "left arm").'
    )
    examples: ClassVar = ("select segment 3", "pick part 2")


class IsolateSegment(Command, action="isolate_segment"):
    """Show a segment as its own layer, centred, with the rest of the model dimmed."""

    segment_id: SegmentRef = Field(
        default=SELECTED,
        description='A segment number, a part\'s name ("head"), or "CURRENTLY_SELECTED" for the selected '
        "segment.",
    )
    examples: ClassVar = ("isolate segment", "isolate part 2")


class ShowWholeModel(Command, action="show_whole_model"):
    """End an isolation: remove the isolated segment's layer and show the whole model again."""

    examples: ClassVar = ("show the whole model", "unisolate")


class ApplyMaterial(Command, action="apply_material"):
    """Give a segment the library material that best fits a description ("a dark, rusty metal")."""

    material_description: str = Field(
        min_length=1,
        max_length=200,
        description='What it should look like: "worn leather", "glowing blue crystals", "shiny gold".',
    )
    segment_id: SegmentRef = Field(
        default=SELECTED,
        description='A segment number, a part\'s name ("left arm", "legs" for both), "CURRENTLY_SELECTED" '
        '(the selected segment) or "ALL" (the whole model).',
    )
    examples: ClassVar = (
        "apply dark rusty metal to segment 2",
        "make segment 3 shiny gold",
        "make it worn leather",
        "make the whole model chrome",
    )


class GenerateConcepts(Command, action="generate_concepts"):
    """Ask ComfyUI for three concept images of the current view, from the generative prompt."""

    examples: ClassVar = ("generate some concepts", "show me concept art")


class SelectConcept(Command, action="select_concept"):
    """Turn one of the three concepts into the new model (ComfyUI's multi-view and mesh workflows)."""

    option_id: Literal[1, 2, 3] = Field(description="The concept's number: 1, 2 or 3.")
    examples: ClassVar = ("select option 3", "I'll take concept 2", "go with the first one")


class CancelGeneration(Command, action="cancel_generation"):
    """Stop a ComfyUI job that is still running; nothing it would have made is applied."""

    examples: ClassVar = ("cancel the generation",)


class ImportModel(Command, action="import_model"):
    """Load a model file from the workspace as the model, cleaned (welded, duplicate and degenerate
    faces dropped) and checked against the size limits first."""

    path: str = Field(
        min_length=1,
        description="A .stl, .ply, .off, .obj, .glb or .gltf file (one file), relative to the workspace.",
    )
    examples: ClassVar = ("import meshes/chair.glb", "load model.obj")


class ExportFinalModel(Command, action="export_final_model"):
    """Write the model as .glb (one primitive per segment, with its material), renders and metadata."""

    examples: ClassVar = ("export the model", "export it as glb")


class DescribeModel(Command, action="describe_model"):
    """Tell what the model is: its source, segments, materials, selection and concepts."""

    risk: ClassVar[Risk] = "read"
    examples: ClassVar = ("describe the model", "list the parts", "how many triangles")


COMMANDS: tuple[type[Command], ...] = (
    SpawnPrimitive,
    RequestSegmentation,
    SelectSegment,
    IsolateSegment,
    ShowWholeModel,
    ApplyMaterial,
    GenerateConcepts,
    SelectConcept,
    CancelGeneration,
    ImportModel,
    ExportFinalModel,
    DescribeModel,
)
