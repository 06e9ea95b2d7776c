"""The packs as a session holds them: each pack's state, made on first use, and the narrow
:class:`Context` its handlers and hooks are given; the names and descriptions the packs offer.

The lowest layer of a session (packs < consent < dispatch < turns < :class:`Session`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast, overload

from ..basics.commands import MAX_NAME_CHARS, Command, shown_name
from ..contract.pack import Context, Pack
from ..contract.registry import Registry, default_registry
from ..grammar.parser import Parser
from ..safety.net import NetPolicy
from ..safety.risk import Consent, ConsentedNet, RiskPolicy, destination
from ..safety.workspace import Workspace, default_workspace
from .rephrasing import Rephrasing
from .settings import Settings

if TYPE_CHECKING:
    from ..basics.jobs import Jobs
    from ..basics.viewer_protocols import Layer, Viewer
    from ..basics.window import Window
    from ..llm.road import LLMRoad

S = TypeVar("S")

log = logging.getLogger(__name__)


class SessionPacks:
    """The live objects, the person's settings, and what each pack keeps of them."""

    jobs: Jobs
    """The session's slow work (made by the layer that records what jobs finish)."""

    def __init__(
        self,
        viewer: Viewer | None = None,
        *,
        registry: Registry | None = None,
        workspace: Path | str | None = None,
        window: Window | None = None,
        llm: LLMRoad | None = None,
    ) -> None:
        self.viewer = viewer
        self.registry = registry or default_registry()
        self.parser = Parser(self.registry)
        self._workspace = Workspace(workspace if workspace is not None else default_workspace())
        self.window = window
        """The window's panels (:mod:`napari_talk.core.basics.window`), when the caller has a window."""
        self.llm = llm
        """The LLM road, when a model is set up; None keeps the session offline."""
        self.net = NetPolicy()
        """Which private hosts URLs may be fetched from (the person's settings; none by default)."""
        self._settings = Settings()
        self._states: dict[str, object] = {"session": self}
        self.rephrasing = Rephrasing(self.registry)
        """The canonical stage for lines the parser does not read; silent until :meth:`prepare_packs`."""

    @property
    def settings(self) -> Settings:
        """The person's settings, as packs read them (each its own section)."""
        return self._settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        for pack in self.registry.packs:
            section = pack.settings_section
            if section and settings.section(section) != self._settings.section(section):
                self._states.pop(pack.name, None)  # made anew from the new section on next use
        self._settings = settings

    @property
    def workspace(self) -> Workspace:
        """The gate to the workspace folder; set a new folder with a path."""
        return self._workspace

    @workspace.setter
    def workspace(self, root: Path | str | Workspace) -> None:
        root = root.root if isinstance(root, Workspace) else Path(root)
        if Path(root).expanduser() != Path(self._workspace).expanduser():
            self._workspace = Workspace(root)
            self._states = {"session": self}  # what packs kept belonged to the old folder

    @overload
    def state(self, pack: Pack[S] | type[Pack[S]]) -> S: ...

    @overload
    def state(self, pack: str) -> Any: ...

    def state(self, pack: Pack[S] | type[Pack[S]] | str) -> Any:
        """The state ``pack`` keeps for this session, made on first use; typed when ``pack`` is
        the pack or its class (``session.state(AtlasPack)`` is the ``Atlas``)."""
        found = self._pack(pack)
        if found.name not in self._states:
            self._states[found.name] = found.new_state(self._workspace, self._settings)
        return self._states[found.name]

    def _pack(self, pack: Pack[S] | type[Pack[S]] | str) -> Pack[S]:
        if isinstance(pack, Pack):
            return pack
        if isinstance(pack, str):
            return cast("Pack[S]", self.registry.pack(pack))
        for registered in self.registry.packs:
            if type(registered) is pack:
                return cast("Pack[S]", registered)
        raise KeyError(f"no {pack.__name__} is registered in this session")

    def context(self, pack: Pack[S], consent: Consent | None = None) -> Context[S]:
        """What ``pack``'s handlers and hooks may touch, for a command run under ``consent``."""
        consent = consent or Consent(policy=self.policy, configured_hosts=self.configured_hosts())
        return Context(
            viewer=self.viewer,
            workspace=self._workspace,
            state=self.state(pack),
            jobs=self.jobs,
            window=self.window,
            llm=self.llm if self.llm_ready else None,
            net=ConsentedNet(self.net.allowed_hosts, consent),
            consent=consent,
            settings=self._settings,
        )

    @property
    def llm_ready(self) -> bool:
        return self.llm is not None and self.llm.settings.configured

    @property
    def policy(self) -> RiskPolicy:
        trusted = self.llm is not None and self.llm.settings.allow_destructive
        return RiskPolicy(trust_with_data=trusted)

    def configured_hosts(self) -> frozenset[str]:
        """Hosts the person set up: their model's server and the hosts allowed in the settings."""
        hosts = set(self.net.allowed_hosts)
        if self.llm is not None and (where := destination(self.llm.settings.base_url)):
            hosts.add(where)
        return frozenset(hosts)

    def known_names(self) -> dict[str, list[str]]:
        """Names the parser may resolve: layers, panels, and what each pack adds. A name longer
        than a command takes (:data:`MAX_NAME_CHARS`), made outside napari-talk, is left out: no
        command could name it, and offering it would cost every typed line its length."""
        return {
            kind: [name for name in found if len(name) <= MAX_NAME_CHARS]
            for kind, found in self._live_names().items()
        }

    def _live_names(self) -> dict[str, list[str]]:
        names: dict[str, list[str]] = {}
        for pack in self.registry.packs:
            try:
                names.update(pack.names(self.context(pack)))
            except Exception:  # a pack's live object may be gone; its names then are too
                log.debug("pack %s offered no names", pack.name, exc_info=True)
        return names

    def parse(self, text: str, context: Mapping[str, Sequence[str]] | None = None) -> list[Command]:
        return self.parser.parse(text, self.known_names() if context is None else context)

    def context_lines(self, packs: Iterable[str] | None = None) -> list[str]:
        """What each pack's live objects hold (or those of ``packs``), for a model's prompt."""
        lines: list[str] = []
        for pack in self.registry.packs:
            if packs is not None and pack.name not in packs:
                continue
            try:
                lines += pack.describe(self.context(pack))
            except Exception:
                log.debug("pack %s described nothing", pack.name, exc_info=True)
        too_long = {n for found in self._live_names().values() for n in found if len(n) > MAX_NAME_CHARS}
        for name in sorted(too_long, key=len, reverse=True):  # shown shortened, as listings show them
            lines = [line.replace(name, shown_name(name)) for line in lines]
        return lines

    def packs_in_play(self, text: str) -> list[str]:
        """The packs a model should see for this line (keeps the prompt short for local models)."""
        folded = text.casefold()
        return [pack.name for pack in self.registry.packs if pack.in_play(self.context(pack), folded)]

    def prepare_packs(
        self, tell: Callable[[str], None] | None = None, packs: Sequence[str] | None = None
    ) -> None:
        """The canonical stage's set-up, then each pack's (see :meth:`Pack.prepare`), or only those
        of ``packs``; blocking, so a GUI runs it in a thread. ``tell`` hears what a pack says of its
        set-up (:meth:`Pack.preparing`), from that thread."""
        if packs is None:
            self.rephrasing.prepare()
        for pack in self.registry.packs:
            if packs is not None and pack.name not in packs:
                continue
            try:
                ctx = self.context(pack)
                notes = pack.preparing(ctx)
                if notes is not None and tell is not None:
                    tell(notes[0])
                pack.prepare(ctx)
                if notes is not None and tell is not None:
                    tell(notes[1])
            except Exception:  # the first command will meet the problem and say it plainly
                log.debug("pack %s could not prepare", pack.name, exc_info=True)

    def layer_added(self, layer: Layer) -> list[str]:
        """Tell every pack of a layer that came into the viewer (see :meth:`Pack.layer_added`); the
        packs whose set-up the layer calls for (:meth:`Pack.prepares_for`), for
        :meth:`prepare_packs` to run in the background."""
        wanting = []
        for pack in self.registry.packs:
            try:
                ctx = self.context(pack)
                pack.layer_added(ctx, layer)
                if pack.prepares_for(ctx, layer):
                    wanting.append(pack.name)
            except Exception:  # a pack's set-up of a layer is a nicety, never an error for the person
                log.debug("pack %s could not set up layer %r", pack.name, layer, exc_info=True)
        return wanting
