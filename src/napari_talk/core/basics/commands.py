"""The base of every typed command.

A command is a pydantic model tagged by ``action``. Its docstring is the description the LLM,
the help text and the docs show; its fields carry ``Field(description=...)``. ``risk`` labels what
running it does, so cross-cutting wrappers (confirmation, read-only filters, MCP hints) need no
per-command code.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, StringConstraints

from ..safety.risk import Risk

NonBlank = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, pattern=r"\S")]
"""Text that must say something: surrounding spaces dropped; the schema says so too (``pattern``)."""

NAMES_KEY = "x-names"

MAX_NAME_CHARS = 500
"""The longest name a command takes (a layer, a glass, an entity). A longer one already in the
viewer is not offered to the parser or a model, and listings shorten it (:func:`shown_name`)."""
SHOWN_NAME_CHARS = 60


def shown_name(name: str) -> str:
    """``name`` as a listing shows it: whole up to :data:`MAX_NAME_CHARS`; a longer one by its
    start, an ellipsis and its length."""
    if len(name) <= MAX_NAME_CHARS:
        return name
    return f"{name[:SHOWN_NAME_CHARS]}… ({len(name):,} characters)"


def names(kind: str) -> dict[str, Any]:
    """``Field(json_schema_extra=names("layers"))``: the parameter names a live object of ``kind``
    (a key of :meth:`napari_talk.core.running.session.Session.known_names`), so a model whose reply is
    constrained to a schema is offered the live names as an enum."""
    return {NAMES_KEY: kind}


class Command(BaseModel):
    """``class Hide(Command, action="hide")``: the action name is written once, in the class line,
    and becomes the ``action: Literal["hide"]`` tag of the discriminated union."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    action: str
    risk: ClassVar[Risk] = "view"
    """What running it can cost the person (see :mod:`napari_talk.core.safety.risk`); a pack may raise it for
    one command's parameters and the state it meets (:meth:`napari_talk.core.contract.pack.Pack.risk`)."""
    examples: ClassVar[tuple[str, ...]] = ()
    joined_as: ClassVar[str | None] = None
    """The words a further name joined to this request is read with, when not this request again:
    "show only GFP and nuclei" and "hide all but GFP and nuclei" show nuclei beside GFP (``"show"``),
    they do not solo nuclei."""
    tails: ClassVar[Mapping[str, str]] = {}
    """Options said after the request, by kind, and the field each fills: ``{"count": "max_results"}``
    reads "... and only show the first 5 hits" (see :mod:`napari_talk.core.grammar.tails`)."""

    def __init_subclass__(cls, *, action: str | None = None, **kwargs: Any) -> None:
        if action is not None:
            own = inspect.get_annotations(cls)
            cls.__annotations__ = {"action": Literal[action], **own}
            cls.action = action  # the field's default, read by pydantic
        super().__init_subclass__(**kwargs)

    @classmethod
    def action_name(cls) -> str:
        return cls.model_fields["action"].default

    @classmethod
    def description(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "").split("\n\n")[0].replace("\n", " ")

    def to_wire(self) -> dict[str, Any]:
        """The JSON object of the wire format: what was said (set), not the defaults, so it stays
        short and "0 to 45 degrees" keeps its 0."""
        params = self.model_dump(exclude={"action"}, exclude_unset=True)
        return {"action": self.action, **{k: _tidy(v) for k, v in params.items()}}

    def summary(self) -> str:
        """``set_zoom zoom=3``: the command in one short line for people."""
        params = " ".join(
            f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}"
            for k, v in self.to_wire().items()
            if k != "action"
        )
        return f"{self.action} {params}".strip()


def _tidy(value: Any) -> Any:
    """Whole floats read as the integers people typed (120.0 → 120)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, list):
        return [_tidy(v) for v in value]
    return value
