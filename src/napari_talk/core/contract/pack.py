"""The pack contract: one domain's commands, grammar, state and handlers, joined to the registry.

A pack subclasses :class:`Pack`, typed by its state (``Pack[RaysState]``), and overrides the hooks
it needs. Its handlers are bound to their command classes in a :class:`Handlers` table (the action
name is written once, in the command's class line) and receive a narrow :class:`Context`: the
viewer, the workspace gate, the pack's own state, the session's jobs, and little else. Undo is a
Result's ``undo`` (:class:`~napari_talk.core.running.history.Changes`); only the session records it.
Consent is the Context's ``consent``: a handler that finds, at the act, that it would replace
something of the person's calls ``ctx.consent.require(effect)`` before changing anything.

Handler modules are imported on first use, so ``import napari_talk`` stays fast and a session
(made on the GUI thread as the dock opens) imports none: a third of a second per pack that the
dock spends in a thread instead. So every command's handler is checked when the table is first
loaded (:meth:`Pack.checked_handlers`), before any command of the pack runs: at ``register()``
for a pack whose table is already at hand, on first use (the dock's warm-up, or the first
command) for one that imports it. A test loads every installed pack's table, so a missing
handler fails there, not in front of the person.

It imports no registry, help or LLM road (the Context's ``llm`` is typed by the small
:class:`LanguageModel` protocol); the types it names live on the floors below it (``basics/``,
``chat/``, ``safety/``, and ``rules/`` for the grammar's ``Rule``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from ..errors import ContractError

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..basics.commands import Command
    from ..basics.jobs import Job, Jobs
    from ..basics.result import Result
    from ..basics.viewer_protocols import Layer, Viewer
    from ..basics.window import Window
    from ..chat.client import ChatClient
    from ..chat.settings import LLMSettings
    from ..rules.rule import Rule
    from ..safety.net import NetPolicy
    from ..safety.risk import Consent, Effect, Risk
    from ..safety.workspace import Workspace

S = TypeVar("S")
C = TypeVar("C", bound="Command")


class LanguageModel(Protocol):
    """What a handler may use of the person's configured model: its settings and its client."""

    @property
    def settings(self) -> LLMSettings: ...

    def client(self) -> ChatClient: ...


class Sections(Protocol):
    """What a pack reads of the person's settings: one section by name (its own, or a core one
    such as ``"llm"``); :class:`~napari_talk.core.running.settings.Settings` is one."""

    def section(self, name: str) -> Any: ...


@dataclass(frozen=True)
class Context(Generic[S]):
    """What a handler may touch. ``viewer`` is None without one (scripts, agents, tests)."""

    viewer: Viewer | None
    workspace: Workspace
    state: S
    jobs: Jobs
    settings: Sections
    """The person's settings; a pack reads its own section as ``ctx.settings.section(pack_name)``."""
    window: Window | None = None
    """The window's panels, when the session has a window (the dock, ``napari-talk run``)."""
    llm: LanguageModel | None = None
    """The person's configured language model, when one is set up."""
    net: NetPolicy = field(default_factory=lambda: _no_private_hosts())
    """Downloads of URLs someone chose, fenced as the person's settings say and judged by
    ``consent`` (a host the person did not configure, asked for by a model, waits for them)."""
    consent: Consent = field(default_factory=lambda: _person())
    """Who asked for the command running now, and what the person agreed to."""


def _no_private_hosts() -> NetPolicy:
    from ..safety.net import NetPolicy

    return NetPolicy()


def _person() -> Consent:
    from ..safety.risk import Consent

    return Consent()


Handler = Callable[[Any, Context[Any]], "Result | Job"]


class Handlers(Generic[S]):
    """A pack's handlers, each bound to its command class::

    handlers = Handlers[RaysState]()

    @handlers.on(FindRaysInsideGlass)
    def inside(command: FindRaysInsideGlass, ctx: Context[RaysState]) -> Result: ...
    """

    def __init__(self) -> None:
        self._bound: dict[type[Command], Handler] = {}

    def on(self, command_class: type[C]) -> Callable[[Callable[[C, Context[S]], Result | Job]], Any]:
        def bind(handler: Callable[[C, Context[S]], Result | Job]) -> Any:
            if command_class in self._bound:
                raise ValueError(f"{command_class.action_name()} has a handler already")
            self._bound[command_class] = handler
            return handler

        return bind

    def get(self, command_class: type[Command]) -> Handler | None:
        return self._bound.get(command_class)

    def __contains__(self, command_class: type[Command]) -> bool:
        return command_class in self._bound


def resolve(dotted: str) -> Any:
    """What a dotted name stands for: ``"package.module:NAME"`` is NAME in that module (imported
    now, once), ``"package.module"`` the module itself. The one place a pack's declared parts are
    looked up, so a pack names its handlers without importing them."""
    module, _, attribute = dotted.partition(":")
    found: Any = import_module(module)
    for part in filter(None, attribute.split(".")):
        found = getattr(found, part)
    return found


def part_of(pack: Pack[Any], command: type[Command]) -> str:
    """Where a contract error is: ``pack 'rays': command 'trace' (Trace)``."""
    return f"pack {pack.name!r}: command {command.action_name()!r} ({command.__name__})"


class Pack(Generic[S]):
    """A pack: what it contributes is declared as data (``Pack("ping", (Ping,), handlers=table)``,
    or ``handlers="my_pack.handlers:HANDLERS"`` to import the table on first use); a pack with state
    or live objects is a subclass that overrides the hooks it needs."""

    _checked: Handlers[S] | None = None

    def __init__(
        self,
        name: str,
        commands: tuple[type[Command], ...],
        rules: tuple[Rule, ...] = (),
        *,
        handlers: Handlers[S] | str | None = None,
        handler_modules: tuple[str, ...] = (),
        settings: type[BaseModel] | None = None,
        settings_title: str = "",
        named_fields: tuple[str, ...] = (),
        nouns: Mapping[str, str] | None = None,
        slot_fillers: Mapping[str, str] | None = None,
        data_words: tuple[str, ...] = (),
        recorded: bool = True,
        cli: str | None = None,
        context_defaults: Mapping[str, tuple[str, ...]] | None = None,
        context_stand_ins: Mapping[str, str] | None = None,
        order: int = 100,
    ) -> None:
        self.name = name
        self.commands = commands
        self.rules = rules
        self._handlers: Handlers[S] | str = handlers if handlers is not None else Handlers[S]()
        """The handler table, or where it lives (``"module:NAME"``), imported on first use."""
        self.handler_modules = handler_modules
        """Modules that bind more handlers to that table, imported with it."""
        self.settings = settings
        """The model of the pack's section of the person's settings (saved, and shown in the
        settings dialog and napari's Preferences, under ``settings_title``); None: it has none."""
        self.settings_title = settings_title or name.capitalize()
        self.named_fields = named_fields
        """Fields of its commands that name the thing acted on (beyond ``name``, ``new_name`` and
        ``path``, which every pack's do): a pronoun after the command stands for that thing."""
        self.nouns: Mapping[str, str] = nouns or {}
        """The plain noun each of its kinds of name is read as when a line is matched against the
        rules' canonical phrasings ({"glasses": "glass"}: "turn Prism" reads as "turn glass")."""
        self.slot_fillers: Mapping[str, str] = slot_fillers or {}
        """A kind of slot that a name of another kind fills too, in a canonical phrasing (a scene
        object's words are filled by its name: {"scene_object_words": "scene_objects"})."""
        self.data_words = data_words
        """Words that point at its live objects after "the", "its" or "their" ("the scene", "its
        glasses"): a question saying one asks about what is in play, which only a command answers."""
        self.recorded = recorded
        """Whether its commands go into a session's recipe (the session pack's help and undo do not)."""
        self.cli = cli
        """Where the function that adds its subcommands to ``napari-talk`` lives
        (``"module:add_commands"``, called with argparse's subparsers); None: it adds none."""
        self.order = order
        """Where the pack comes in the help and the docs (the bundled ones first)."""
        self.context_defaults: Mapping[str, tuple[str, ...]] = context_defaults or {}
        """Names the grammar may assume when the caller's context has none of that kind."""
        self.context_stand_ins: Mapping[str, str] = context_stand_ins or {}
        """A kind of name another kind stands in for when the context has none of it: a ray
        scene's objects are at least its glasses ({"scene_objects": "glasses"})."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}: {len(self.commands)} commands>"

    def handlers(self) -> Handlers[S]:
        """The pack's handler table, imported on first use when it was declared by name (so
        ``import napari_talk`` stays fast), with the modules that bind more handlers to it."""
        if isinstance(self._handlers, str):
            try:
                table = resolve(self._handlers)
                for module in self.handler_modules:
                    resolve(module)
            except (ImportError, AttributeError) as exc:
                raise ContractError(
                    f"pack {self.name!r}: its handlers ({self._handlers}) cannot be loaded: {exc}"
                ) from exc
            if not isinstance(table, Handlers):
                raise ContractError(f"pack {self.name!r}: {self._handlers} is not a Handlers table")
            self._handlers = table
        return self._handlers

    @property
    def handlers_at_hand(self) -> bool:
        """Whether the handler table costs nothing to check: given to the constructor, or loaded."""
        declared = not isinstance(self._handlers, str) and type(self).handlers is Pack.handlers
        return self._checked is not None or declared

    def checked_handlers(self) -> Handlers[S]:
        """The handler table, checked whole when first loaded: :class:`ContractError` names the
        first command without a handler."""
        if self._checked is None:
            table = self.handlers()
            for command in self.commands:
                if command not in table:
                    bind = f"@handlers.on({command.__name__})"
                    raise ContractError(f"{part_of(self, command)} has no handler: bind one with {bind}")
            self._checked = table
        return self._checked

    def handler(self, command_class: type[Command]) -> Handler | None:
        return self.checked_handlers().get(command_class)

    spelling_kinds: frozenset[str] = frozenset()
    """Kinds of :meth:`names` that are ways of saying a thing (a file's stem, its title) for the
    parser, not names a model's reply must repeat: a model may name the file by its path, so the
    LLM road's grounding does not hold its reply to them."""

    settings_section: str | None = None
    """The section of the settings the pack's state is made from: when it changes, the session
    makes the state anew (the atlas's catalogue database)."""

    def new_state(self, workspace: Workspace, settings: Sections) -> S:
        """The pack's state for a new session (``None`` for packs that keep none)."""
        return None  # type: ignore[return-value]

    def risk(self, command: Command, ctx: Context[S]) -> Risk:
        """What this command, with these parameters, would cost now; by default its class's risk."""
        return type(command).risk

    def effects(self, command: Command, ctx: Context[S]) -> tuple[Effect, ...]:
        """What this command would do, now, that the person may have to agree to (see
        :mod:`napari_talk.core.safety.risk`); by default its :meth:`risk` in words. A pack that knows
        better says exactly what (the file it would replace), or nothing here and checks at the act
        (``ctx.consent.require``)."""
        from ..safety.risk import usual_effects

        return usual_effects(self.risk(command, ctx))

    def names(self, ctx: Context[S]) -> dict[str, list[str]]:
        """The names this pack's live objects offer the parser (``{"glasses": [...]}``)."""
        return {}

    def describe(self, ctx: Context[S]) -> list[str]:
        """Lines telling a language model what this pack's live objects hold right now."""
        return [
            f"{kind.capitalize()}: {', '.join(names)}" for kind, names in self.names(ctx).items() if names
        ]

    def live(self, ctx: Context[S]) -> bool:
        """Whether the pack has live objects a model might be asked about (a scene, a model)."""
        return False

    def prepare(self, ctx: Context[S]) -> None:
        """Slow set-up worth doing before the first line, off the GUI thread (loading a model):
        a GUI runs it once in the background; without it, the first command pays instead."""

    def preparing(self, ctx: Context[S]) -> tuple[str, str] | None:
        """What the person reads while :meth:`prepare` runs and once it is done, when it takes long
        enough to be worth a word; None (the default) when there is nothing to say, or nothing left
        to prepare. Asked just before :meth:`prepare`, in its thread: cheap."""
        return None

    def layer_added(self, ctx: Context[S], layer: Layer) -> None:
        """A layer came into the viewer (File > Open Sample among others): set up what a sample's
        layer data cannot, such as the camera the pack draws with. Runs on the GUI thread: cheap."""

    def prepares_for(self, ctx: Context[S], layer: Layer) -> bool:
        """Whether a layer that came into the viewer makes :meth:`prepare` worth running (again)
        now, in the background: a sample whose first command would otherwise wait for a model.
        Runs on the GUI thread: cheap."""
        return False

    def in_play(self, ctx: Context[S], folded_text: str) -> bool:
        """Whether a language model should see this pack's tools for a line: always for packs
        with ungated rules; else when the line has one of its words or its live objects exist."""
        if not self.rules or any(not rule.requires for rule in self.rules):
            return True
        return any(rule.may_match(folded_text) for rule in self.rules) or self.live(ctx)

    def format_for_agent(self, command: Command, result: Result) -> str | None:
        """The pack's own text for agents (XML for the rays pack); None means the Result as JSON."""
        return None

    def judged_as(self, command: Command, ctx: Context[S]) -> Command | None:
        """The command ``command`` would run again, when it runs another (a redo): consent judges
        that one, as the person already asked for it once; None (the default): itself."""
        return None

    def model_prompt(self, ctx: Context[S], prompt: str) -> None:
        """A model's reply refined the prompt it keeps for generative tools (its reply's
        ``user_prompt``): a pack that generates from a prompt keeps it in its state."""
