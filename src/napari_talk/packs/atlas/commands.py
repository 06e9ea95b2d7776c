"""The atlas pack's commands: the Archivist's four tools, and what a person needs to fill the catalogue."""

from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import Field

from ...core.basics.commands import Command, NonBlank, Risk, names

MAX_SIMILAR = 10
EntityName = Annotated[NonBlank, Field(max_length=200, description="Entity name, as in the catalogue.")]
ExistingEntity = Annotated[EntityName, Field(json_schema_extra=names("entities"))]
WorkspacePath = Annotated[
    NonBlank, Field(max_length=1000, description="A .jsonl file, relative to the workspace folder.")
]
ImportPath = Annotated[
    NonBlank,
    Field(
        max_length=1000, description="A .jsonl file, or a folder of them, relative to the workspace folder."
    ),
]
Text = Annotated[NonBlank, Field(max_length=1000)]


class FindSimilar(Command, action="find_similar"):
    """Find catalogue entities similar in meaning to a text or to another entity (embedding search)."""

    risk: ClassVar[Risk] = "read"
    query: NonBlank = Field(
        max_length=1000,
        description="Text to search for: an entity name, a description, or a concept.",
    )
    limit: int = Field(5, ge=1, le=MAX_SIMILAR, description="How many results (default 5, at most 10).")
    tails: ClassVar = {"count": "limit"}
    examples: ClassVar = (
        "find similar to void walker",
        "entities like a golden desert guardian",
        "find 3 entities similar to glowing green cells",
    )


class AnalyzeImage(Command, action="analyze_image"):
    """Measure an image (colours, brightness, contrast, texture, symmetry); a vision model, if set up,
    adds a suggested name, type, domain, description and mood."""

    risk: ClassVar[Risk] = "read"
    image_url: NonBlank = Field(
        max_length=2000,
        description="An http(s) URL, an image file in the workspace, or an image layer's name.",
    )
    examples: ClassVar = (
        "analyze image https://example.org/a.png",
        "analyze the GFP layer",
        "analyze pictures/moth.png",
    )


class GenerateDescription(Command, action="generate_description"):
    """Write a 2-3 sentence description of an entity in the catalogue's voice."""

    risk: ClassVar[Risk] = "read"
    name: EntityName
    domain: Text | None = Field(None, description="Domain the entity occupies, e.g. 'Starhaven Reaches'.")
    class_name: Text | None = Field(None, description="Class archetype, e.g. 'Voidwalker'.")
    visual_notes: Text | None = Field(None, description="Visual characteristics, e.g. from image analysis.")
    tails: ClassVar = {"domain": "domain", "class": "class_name"}
    examples: ClassVar = (
        "generate a description for Eigensage",
        "describe The Nullbringer",
        "describe Ashen Moth, a Wanderer in The Threshold",
    )


class FindBySref(Command, action="find_by_sref"):
    """Find the entities that share a Midjourney style reference (sref) code."""

    risk: ClassVar[Risk] = "read"
    sref_code: NonBlank = Field(
        max_length=500,
        description="The sref code(s): '123', '--sref 123' or several separated by spaces.",
    )
    examples: ClassVar = ("sref 42", "who shares sref 3050518", "--sref 7777")


class AddToCatalogue(Command, action="add_to_catalogue"):
    """Add an image layer (the selected one by default) to the catalogue as a new entity."""

    name: EntityName
    domain: NonBlank = Field("Unknown", max_length=200, description="Domain of the entity.")
    layer: Text | None = Field(None, description="Image layer to add; default: the selected image layer.")
    type: Text | None = Field(None, description="Entity type, e.g. 'Guardian'.")
    class_name: Text | None = Field(None, description="Class archetype, e.g. 'Voidwalker'.")
    entity_description: Text | None = Field(
        None, description="The entity's description; composed from the image's measurements if left out."
    )
    sref: Text | None = Field(None, description="Midjourney sref code(s) of the image.")
    prompt: Text | None = Field(None, description="The prompt the image was made with.")
    tails: ClassVar = {"domain": "domain", "type": "type", "class": "class_name"}
    examples: ClassVar = (
        "add GFP to the catalogue as Verdant Lantern in The Lattice",
        "add the current image to the atlas as Night Bloom",
    )


class OpenEntityImage(Command, action="open_entity_image"):
    """Open a catalogue entity's image as a layer."""

    name: ExistingEntity
    examples: ClassVar = ("open the image of Eigensage", "show Nucleus Prime's image")


class OpenResult(Command, action="open_result"):
    """Open the image of one of the last search's results as a layer: the first, the second, …"""

    rank: int = Field(1, ge=1, le=MAX_SIMILAR, description="Which result of the last search: 1 is the first.")
    examples: ClassVar = (
        "open the first one",
        "show me the second result",
        "open result 3",
    )


class ImportCatalogue(Command, action="import_catalogue"):
    """Import entities from a JSON Lines file (one entity per line), or from every .jsonl file in a
    folder; same names are replaced, entities stored as they are skipped."""

    risk: ClassVar[Risk] = "data"

    path: ImportPath
    examples: ClassVar = (
        "import entities.jsonl",
        "import the catalogue from backup/atlas.jsonl",
        "import every jsonl file in data/parts",
    )


class ExportCatalogue(Command, action="export_catalogue"):
    """Export every entity to a new JSON Lines file in the workspace."""

    risk: ClassVar[Risk] = "data"

    path: WorkspacePath
    examples: ClassVar = ("export the catalogue to atlas.jsonl",)


class SetEmbeddingModel(Command, action="set_embedding_model"):
    """Choose the embedding model ('offline', 'minilm', or a model of an OpenAI-compatible server);
    entities without a vector of that model are embedded, with progress."""

    risk: ClassVar[Risk] = "send"

    model: NonBlank = Field(
        max_length=200,
        description="'offline' (built in), 'minilm' (if installed), or a server's model name.",
    )
    base_url: Text | None = Field(None, description="The server's /v1 URL; default: the LLM's server.")
    examples: ClassVar = (
        "use the offline embedder",
        "set the embedding model to text-embedding-3-small",
    )


class ListEntities(Command, action="list_entities"):
    """List the catalogue's entities (by domain) and how many there are."""

    risk: ClassVar[Risk] = "read"
    domain: Text | None = Field(None, description="Only this domain.")
    examples: ClassVar = (
        "list entities",
        "what's in the catalogue",
        "list entities in The Lattice",
        "how many pictures are in the catalogue?",
    )


class LoadSampleCatalogue(Command, action="load_sample_catalogue"):
    """Add the sample catalogue (56 entities with pictures, six domains) to the catalogue."""

    examples: ClassVar = ("load the sample catalogue",)


class RemoveFromCatalogue(Command, action="remove_from_catalogue"):
    """Remove an entity from the catalogue (undo puts it back)."""

    risk: ClassVar[Risk] = "data"
    name: ExistingEntity
    examples: ClassVar = ("remove Parity from the catalogue",)


COMMANDS: tuple[type[Command], ...] = (
    FindSimilar,
    AnalyzeImage,
    GenerateDescription,
    FindBySref,
    AddToCatalogue,
    OpenEntityImage,
    OpenResult,
    ImportCatalogue,
    ExportCatalogue,
    SetEmbeddingModel,
    ListEntities,
    LoadSampleCatalogue,
    RemoveFromCatalogue,
)
