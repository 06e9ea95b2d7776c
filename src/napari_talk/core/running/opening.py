"""One way to open a session for any door (the dock, ``napari-talk run``, the MCP server): the
person's settings applied, and the packs told of every layer that is or comes into the viewer."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..safety.net import NetPolicy
from .session import Session

if TYPE_CHECKING:
    from ..basics.viewer_protocols import Viewer
    from ..basics.window import Window
    from ..contract.registry import Registry
    from ..llm.road import LLMRoad
    from .settings import Settings


def open_session(
    viewer: Viewer | None = None,
    *,
    registry: Registry | None = None,
    window: Window | None = None,
    settings: Settings | None = None,
    llm: LLMRoad | None = None,
    names_changed: Callable[[], object] | None = None,
    packs_wanted: Callable[[list[str]], object] | None = None,
) -> Session:
    """A session on ``viewer``, under ``settings`` (the workspace folder, the hosts allowed, each
    pack's section; the defaults when None). Its packs hear of each layer (a sample's rays drawn
    +y up); ``names_changed()`` is called when a layer comes, goes or is renamed, and
    ``packs_wanted(names)`` with the packs whose set-up a new layer calls for."""
    session = Session(
        viewer,
        registry=registry,
        window=window,
        workspace=settings.workspace.path() if settings is not None else None,
        llm=llm,
    )
    if settings is not None:
        session.net = NetPolicy.from_setting(settings.network.allowed_hosts)
        session.settings = settings
    layers = getattr(viewer, "layers", None)
    if layers is not None:
        session.layer_watch = LayerWatch(session, names_changed, packs_wanted)
        session.layer_watch.watch(layers)
    return session


class LayerWatch:
    """Tells a session's packs of the layers there now and of each that comes (see
    :func:`open_session`). The viewer's events hold its methods weakly, as they hold any method:
    the session keeps it, so it lasts as long as the session does."""

    def __init__(
        self,
        session: Session,
        names_changed: Callable[[], object] | None = None,
        packs_wanted: Callable[[list[str]], object] | None = None,
    ) -> None:
        self.session = session
        self._names_changed = names_changed
        self._packs_wanted = packs_wanted

    def watch(self, layers: Any) -> None:
        layers.events.inserted.connect(self.inserted)
        layers.events.removed.connect(self.renamed)
        for layer in layers:
            layer.events.name.connect(self.renamed)
            self.session.layer_added(layer)  # a sample opened before the session was

    def renamed(self, *_: object) -> None:
        if self._names_changed is not None:
            self._names_changed()

    def inserted(self, event: Any) -> None:
        event.value.events.name.connect(self.renamed)
        wanting = self.session.layer_added(event.value)
        self.renamed()
        if wanting and self._packs_wanted is not None:
            self._packs_wanted(wanting)
