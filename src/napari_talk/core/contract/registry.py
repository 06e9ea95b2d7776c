"""The registry: packs join it, and from their command models it derives everything else.

Validation (``ALLOWED_ADAPTER``, one discriminated union), the per-command JSON schemas the LLM
and agents get, the parser's rule list, and the help text all come from the registered models.

A pack joins only if its contract holds (as a plugin manifest is validated when it loads): every
command has a description, a known risk, help examples, and a grammar rule or a stated reason why
none (``no_rule = "agents pass scene files, nobody types one"`` on the class); every rule reads
one of the pack's own commands; and every command has a handler. That last part is checked here
when the pack's handler table is at hand, else when it is first loaded (see
:meth:`~napari_talk.core.contract.pack.Pack.checked_handlers`: importing handler modules here
would cost the GUI thread a third of a second per pack as the dock opens).
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import Field, TypeAdapter

from ..errors import ContractError as ContractError
from .pack import part_of

if TYPE_CHECKING:
    from ..basics.commands import Command
    from ..rules.rule import Rule
    from .pack import Handler, Pack

log = logging.getLogger(__name__)


def check_contract(pack: Pack, *, handlers: bool = False) -> None:
    """Raise :class:`ContractError` naming the first missing part of ``pack``'s contract; with
    ``handlers``, load its handler table and check that too."""
    from ..safety.risk import RISKS

    own = set(pack.commands)
    for rule in pack.rules:
        if rule.command not in own:
            raise ContractError(
                f"pack {pack.name!r}: a rule reads {rule.action!r}, which is not one of its commands"
            )
    ruled = {rule.command for rule in pack.rules}
    for command in pack.commands:
        where = part_of(pack, command)
        if not command.description():
            raise ContractError(f"{where} has no description: give its class a docstring")
        if getattr(command, "risk", None) not in RISKS:
            raise ContractError(f"{where} has no risk: set risk to one of {', '.join(RISKS)}")
        if not command.examples:
            raise ContractError(f'{where} has no help examples: set examples = ("...",)')
        reason = getattr(command, "no_rule", "")
        if command not in ruled and not (isinstance(reason, str) and reason.strip()):
            raise ContractError(
                f'{where} has no grammar rule: add a Rule for it, or say why none (no_rule = "...")'
            )
    if handlers:
        pack.checked_handlers()


PACK_ENTRY_POINT_GROUP = "napari_talk.packs"
NAMED_FIELDS = ("new_name", "name", "path")
"""The fields in which any command names the thing it acts on (a pack adds its own: ``named_fields``)."""


class Registry:
    def __init__(self, packs: Iterable[Pack] = ()) -> None:
        self._packs: dict[str, Pack] = {}
        self._lock = threading.Lock()
        self._derived: dict[str, Any] = {}
        for pack in packs:
            self.register(pack)

    def register(self, pack: Pack) -> Callable[[], None]:
        """Join ``pack`` once its contract holds (:func:`check_contract`, its handlers too when
        they are at hand); returns the function that takes it out again."""
        with self._lock:
            if pack.name in self._packs:
                raise ValueError(f"a pack named {pack.name!r} is already registered")
            taken = {cls.action_name(): p.name for p in self._packs.values() for cls in p.commands}
            clashes = [c.action_name() for c in pack.commands if c.action_name() in taken]
            if clashes:
                raise ValueError(f"pack {pack.name!r} redefines commands {clashes}")
            check_contract(pack, handlers=pack.handlers_at_hand)
            self._packs[pack.name] = pack
            self._derived.clear()

        def unregister() -> None:
            with self._lock:
                if self._packs.get(pack.name) is pack:
                    del self._packs[pack.name]
                    self._derived.clear()

        return unregister

    @property
    def packs(self) -> tuple[Pack, ...]:
        return tuple(self._packs.values())

    def _derive(self, key: str, build: Callable[[], Any]) -> Any:
        value = self._derived.get(key)
        if value is None:
            value = self._derived[key] = build()
        return value

    @property
    def commands(self) -> dict[str, type[Command]]:
        return self._derive("commands", lambda: {c.action_name(): c for p in self.packs for c in p.commands})

    @property
    def adapter(self) -> TypeAdapter:
        """One discriminated union over every registered command."""

        def build() -> TypeAdapter:
            models = tuple(self.commands.values())
            union: Any = models[0] if len(models) == 1 else Union[models]  # noqa: UP007
            return TypeAdapter(Annotated[union, Field(discriminator="action")])

        return self._derive("adapter", build)

    def validate(self, data: Any) -> Command:
        """Validate a wire object (a dict) into its command; raises pydantic's ValidationError."""
        return self.adapter.validate_python(data)

    @property
    def rules(self) -> tuple[Rule, ...]:
        """Every pack's grammar, the most specific rules first."""

        def build() -> tuple[Rule, ...]:
            ordered = [rule for pack in self.packs for rule in pack.rules]
            return tuple(sorted(ordered, key=lambda rule: -rule.priority))

        return self._derive("rules", build)

    @property
    def context_defaults(self) -> dict[str, tuple[str, ...]]:
        return self._derive(
            "context_defaults",
            lambda: {k: v for p in self.packs for k, v in p.context_defaults.items()},
        )

    @property
    def context_stand_ins(self) -> dict[str, str]:
        return self._derive(
            "context_stand_ins",
            lambda: {k: v for p in self.packs for k, v in p.context_stand_ins.items()},
        )

    @property
    def nouns(self) -> dict[str, str]:
        """The plain noun each pack's kinds of name are read as ("glasses": "glass")."""
        return self._derive("nouns", lambda: {k: v for p in self.packs for k, v in p.nouns.items()})

    @property
    def slot_fillers(self) -> dict[str, str]:
        """A slot kind, and the kind of name that fills it too (see :attr:`Pack.slot_fillers`)."""
        return self._derive(
            "slot_fillers", lambda: {k: v for p in self.packs for k, v in p.slot_fillers.items()}
        )

    @property
    def data_words(self) -> tuple[str, ...]:
        """The words that point at the packs' live objects in a question ("the scene")."""
        return self._derive("data_words", lambda: tuple(w for p in self.packs for w in p.data_words))

    def named_fields(self, action: str) -> tuple[str, ...]:
        """Where a command names the thing it acts on, the first filled one counting: the fields
        every pack's commands use that way (:data:`NAMED_FIELDS`), then its own pack's."""
        return (*NAMED_FIELDS, *self.pack_of(action).named_fields)

    def pack(self, name: str) -> Pack:
        try:
            return self._packs[name]
        except KeyError:
            raise KeyError(f"no pack {name!r}; packs are: {', '.join(self._packs)}") from None

    def pack_of(self, action: str) -> Pack:
        owners = self._derive("owners", lambda: {c.action_name(): p for p in self.packs for c in p.commands})
        return owners[action]

    def handler(self, command: Command) -> tuple[Pack, Handler | None]:
        pack = self.pack_of(command.action)
        return pack, pack.handler(type(command))

    def schema(self, action: str) -> dict[str, Any]:
        """The JSON schema of one command's parameters (``action`` left out: it is the tool name)."""
        return copy.deepcopy(self.schemas()[action])

    def schemas(self) -> dict[str, dict[str, Any]]:
        return self._derive("schemas", lambda: {a: self._schema(a) for a in self.commands})

    def _schema(self, action: str) -> dict[str, Any]:
        schema = self.commands[action].model_json_schema()
        schema["properties"].pop("action", None)
        schema["required"] = [r for r in schema.get("required", []) if r != "action"]
        schema.pop("title", None)
        schema.pop("description", None)  # the command's description travels beside its schema
        return schema


def installed_packs() -> list[Pack]:
    """Every pack advertised under the ``napari_talk.packs`` entry-point group: the bundled ones
    (declared in napari-talk's own pyproject, in the order they are listed) and any other
    distribution's. The core imports no pack by name; a pack that fails to load is left out."""
    from importlib.metadata import entry_points

    packs = []
    for entry in entry_points(group=PACK_ENTRY_POINT_GROUP):
        try:
            packs.append(entry.load())
        except Exception:
            log.warning("pack %s (%s) could not be loaded", entry.name, entry.value, exc_info=True)
    return sorted(packs, key=lambda pack: (pack.order, pack.name))


@lru_cache(maxsize=1)
def default_registry() -> Registry:
    return Registry(installed_packs())


def __getattr__(name: str) -> Any:
    if name == "ALLOWED_ADAPTER":
        return default_registry().adapter
    raise AttributeError(name)
