"""What a catalogue holds, whatever stores it: entities, the snapshots that put them back, what an
import did, and the checks an entity passes before any backend stores it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timezone

from ...core.basics.result import CommandError
from . import sref as srefs
from .limits import MAX_ENTITIES

FIELDS = ("name", "type", "domain", "class_name", "description", "image", "sref", "prompt", "created")
"""An entity's stored fields, in the order every backend reads and writes them."""


class CatalogueError(CommandError):
    """Something about the catalogue the person can fix (a name taken, a file not a catalogue)."""

    kind = "CatalogueError"


def name_key(name: str) -> str:
    """Names are unique regardless of case and spacing: "The  Heralds" is "the heralds"."""
    return " ".join(name.split()).casefold()


def now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class Entity:
    name: str
    type: str = ""
    domain: str = ""
    class_name: str = ""
    description: str = ""
    image: str = ""
    """A workspace-relative path or an http(s) URL."""
    sref: str = ""
    prompt: str = ""
    created: str = ""
    id: int | None = field(default=None, compare=False)

    @property
    def key(self) -> int:
        """The catalogue's id of an entity read from it."""
        if self.id is None:
            raise CatalogueError(f"{self.name} is not in the catalogue")
        return self.id

    def text(self) -> str:
        """What is embedded: the name and everything said about the entity."""
        parts = (self.name, self.type, self.class_name, self.domain, self.description, self.prompt)
        return ". ".join(p for p in parts if p)

    def record(self) -> dict[str, str]:
        """The JSONL form (no id)."""
        return {k: v for k, v in asdict(self).items() if k != "id"}


@dataclass(frozen=True)
class Snapshot:
    """An entity row with its thumbnail and vectors, to put back exactly as it was."""

    entity: Entity
    thumbnail: bytes | None
    vectors: tuple[tuple[str, int, bytes], ...]


@dataclass
class ImportReport:
    added: list[int] = field(default_factory=list)
    replaced: list[Snapshot] = field(default_factory=list)

    def extend(self, other: ImportReport) -> None:
        """Take in a later part of the same import."""
        self.added.extend(other.added)
        self.replaced.extend(other.replaced)


def tidy(entity: Entity) -> Entity:
    """The stored form: a name with single spaces, normalized sref codes, a creation time."""
    name = " ".join(entity.name.split())
    if not name:
        raise CatalogueError("an entity needs a name")
    return replace(entity, name=name, sref=srefs.normalize(entity.sref), created=entity.created or now())


def check_room(held: int, new: int) -> None:
    """Refuse a write that would take the catalogue past :data:`MAX_ENTITIES`."""
    if held + new > MAX_ENTITIES:
        raise CatalogueError(
            f"{held + new:,} entities would pass the {MAX_ENTITIES:,} one catalogue "
            "may hold; import fewer, or split the catalogue"
        )


def last_of_each_name(entities: list[Entity]) -> list[int]:
    """Indices of the entities to store, in order: of two with the same name, the later."""
    last = {name_key(e.name): index for index, e in enumerate(entities)}
    return sorted(last.values())


def unchanged(entities: Sequence[Entity], stored: dict[str, Entity]) -> set[int]:
    """Indices of ``entities`` equal, field for field once tidied, to ``stored`` (name key →
    entity); a record that gives no creation time matches whatever time was stored."""
    same: set[int] = set()
    for index, entity in enumerate(entities):
        held = stored.get(name_key(entity.name))
        if held is None:
            continue
        mine = tidy(entity)
        if all(getattr(mine, f) == getattr(held, f) for f in FIELDS if f != "created" or entity.created):
            same.add(index)
    return same
