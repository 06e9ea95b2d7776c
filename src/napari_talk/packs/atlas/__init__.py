"""The atlas pack: a catalogue of images and entities with embedding search (the Archivist tools).

Domain modules (no napari, no Qt): ``catalogue`` (SQLite, parameterized), ``embeddings`` (offline
hashed, a local MiniLM, an OpenAI-compatible server) with ``lexicon``, ``analysis``
(scikit-image measurements), ``describe`` (the catalogue's voice, with or without a model),
``fetch`` (bounded downloads and decoding), ``sref``, ``jsonl``, ``samples`` and ``store`` (a
session's catalogue file and embedder). ``handlers/`` joins them to a session and a viewer, by job.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.contract.pack import Context, Pack, Sections
from .commands import COMMANDS
from .grammar import RULES
from .settings import AtlasSettings

if TYPE_CHECKING:
    from ...core.basics.viewer_protocols import Layer
    from ...core.safety.workspace import Workspace
    from .store import Atlas


class AtlasPack(Pack["Atlas"]):
    settings_section = "atlas"

    def new_state(self, workspace: Workspace, settings: Sections) -> Atlas:
        from .store import Atlas  # numpy and SQLite: not at the pack's import

        return Atlas(workspace, settings.section("atlas"))

    def names(self, ctx: Context[Atlas]) -> dict[str, list[str]]:
        from .handlers import known_names

        return known_names(ctx)

    def describe(self, ctx: Context[Atlas]) -> list[str]:
        from .handlers import describe_context

        return describe_context(ctx)

    def live(self, ctx: Context[Atlas]) -> bool:
        """A model sees the atlas tools once a catalogue exists (or when the line is about it)."""
        return ctx.state.exists()

    def prepare(self, ctx: Context[Atlas]) -> None:
        """Load the catalogue's local sentence model (seconds: torch, or building its ONNX graph
        the first time; its files downloaded first when missing) before the first search, which
        waits for a download under way here and shows its progress; with the sample's layer open
        on an empty catalogue, its pictures and vectors too (see :mod:`.warm_up`)."""
        from .warm_up import warm_up

        warm_up(ctx)

    def prepares_for(self, ctx: Context[Atlas], layer: Layer) -> bool:
        """The Atlas sample's layer: its first search takes the sample up, model and all."""
        from .layers import role
        from .samples import SAMPLE_ROLE

        return role(layer) == SAMPLE_ROLE


PACK = AtlasPack(
    "atlas",
    COMMANDS,
    RULES,
    handlers=f"{__name__}.handlers:HANDLERS",
    settings=AtlasSettings,
    settings_title="Atlas",
    named_fields=("layer", "image_url", "query"),
    nouns={"entities": "entity"},
    data_words=("catalog", "catalogue", "entity", "entities"),
    cli=f"{__name__}.cli:add_atlas_command",
    order=5,
)
