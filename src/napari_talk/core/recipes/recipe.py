"""The recipe file: one line per command as it could be typed, the command's JSON under it.

    # napari-talk recipe: contrast
    # input: {layer1} = "cells" (from data/cells.tif), {stem} = "cells"
    auto contrast {layer1}
    #> {"action": "auto_contrast", "name": "{layer1}"}

A ``#`` line is a comment, so ``napari-talk run --script`` replays a recipe as it is; ``#>`` holds
the JSON of the line above (what it meant when it was recorded). A line that no phrasing reads back
to its command is the JSON itself, which the runner runs as a command. ``{layer1}``, ``{layer2}``,
... stand for the input's layers in the order napari lists them, ``{stem}`` for its file name
without extension; a sweep adds its own names (``{index}``).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from .phrase import phrase

if TYPE_CHECKING:
    from ..basics.commands import Command
    from ..contract.registry import Registry
    from ..grammar.parser import Parser
    from ..running.recipe_log import Done, InputLayers

RECIPES_FOLDER = "recipes"
SUFFIX = ".recipe"
JSON_MARK = "#> "
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
LAYER_PLACEHOLDER = re.compile(r"\{layer(\d+)\}")
NAME_RE = re.compile(r"[\w][\w .-]{0,79}")


@dataclass(frozen=True)
class Step:
    line: str
    wire: dict[str, Any] | None = None
    """The recorded command, placeholders in it (None for a line written by hand)."""

    @property
    def is_json(self) -> bool:
        return self.line.lstrip().startswith("{")


@dataclass
class Recipe:
    name: str
    steps: list[Step] = field(default_factory=list)
    header: list[str] = field(default_factory=list)

    def render(self) -> str:
        out = [f"# napari-talk recipe: {self.name}", *(f"# {h}" for h in self.header)]
        for step in self.steps:
            out.append(step.line)
            if step.wire is not None and not step.is_json:
                out.append(JSON_MARK + json.dumps(step.wire, ensure_ascii=False))
        return "\n".join(out) + "\n"

    @property
    def layers_needed(self) -> int:
        """How many of the input's layers the recipe names ({layer2}: two)."""
        return max((int(n) for s in self.steps for n in LAYER_PLACEHOLDER.findall(s.line)), default=0)

    def placeholders(self) -> set[str]:
        return {name for step in self.steps for name in PLACEHOLDER.findall(step.line)}


def parse_recipe(text: str, name: str = "recipe") -> Recipe:
    """A recipe file, or any file of lines (``--script``), as steps."""
    recipe = Recipe(name)
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith(JSON_MARK.rstrip()) and recipe.steps:
            try:
                wire = json.loads(line[len(JSON_MARK.rstrip()) :])
            except (ValueError, RecursionError):  # a note for readers that cannot be read: the line runs
                continue
            last = recipe.steps[-1]
            recipe.steps[-1] = Step(last.line, wire if isinstance(wire, dict) else None)
        elif line.startswith("# napari-talk recipe:"):
            recipe.name = line.split(":", 1)[1].strip() or name
        elif line.startswith("#"):
            recipe.header.append(line[1:].strip())
        elif line.strip():
            recipe.steps.append(Step(line.strip()))
    return recipe


def bind(line: str, values: Mapping[str, str]) -> str:
    """The line with each placeholder it names in ``values`` filled in; others left as they are."""
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), line)


def values_for(
    layer_names: Sequence[str], stem: str, extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    values = {f"layer{i}": name for i, name in enumerate(layer_names, 1)}
    return {**values, "stem": stem, **(extra or {})}


def check_name(name: str) -> str:
    """A recipe's name as a file name in the workspace's recipes folder."""
    name = name.strip().strip("\"'")
    if name.endswith(SUFFIX):
        name = name[: -len(SUFFIX)]
    if not NAME_RE.fullmatch(name) or name.startswith("."):
        raise ValueError(f"{name!r} cannot name a recipe: use letters, digits, spaces, dots and dashes")
    return name


def recipe_path(name: str) -> str:
    return f"{RECIPES_FOLDER}/{check_name(name)}{SUFFIX}"


def record(
    name: str,
    done: Sequence[Done],
    inputs: InputLayers | None,
    registry: Registry,
    parser: Parser,
    names: Mapping[str, Sequence[str]],
) -> Recipe:
    """A recipe of ``done`` (a session's kept commands) with the input's layers as placeholders."""
    layers = inputs.names if inputs else ()
    stem = PurePath(inputs.source).stem if inputs and inputs.source else (layers[0] if layers else "")
    holders = {layer: f"{{layer{i}}}" for i, layer in enumerate(layers, 1)}
    recipe = Recipe(check_name(name))
    shown = ", ".join(f'{holder} = "{layer}"' for layer, holder in holders.items())
    source = f" (from {inputs.source})" if inputs and inputs.source else ""
    recipe.header = [
        f"recorded {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"input: {shown or 'no layers'}{source}" + (f', {{stem}} = "{stem}"' if stem else ""),
        "each line runs as if typed; the #> line under it is the command it meant, as JSON",
    ]
    for item in done:
        recipe.steps.append(_step(item.command, item.typed, holders, stem, registry, parser, names))
    return recipe


def _step(
    command: Command,
    typed: str,
    holders: Mapping[str, str],
    stem: str,
    registry: Registry,
    parser: Parser,
    names: Mapping[str, Sequence[str]],
) -> Step:
    wire = command.to_wire()
    layer_fields = _layer_fields(type(command))
    templated = {
        key: _templated(value, holders if key in layer_fields else {}, stem) for key, value in wire.items()
    }
    changed = {key for key in wire if templated[key] != wire[key]}
    if typed and [c.to_wire() for c in parser.parse(typed, names)] == [wire]:
        line = _templated_line(typed, {k: wire[k] for k in changed}, holders, stem)
        if line is not None:
            return Step(line, templated)
    phrased = phrase(command, registry, parser, names)
    if phrased is not None:
        replaced = {}
        for slot, value in zip(phrased.phrasing.slots, phrased.values, strict=True):
            if slot.field in changed and isinstance(wire[slot.field], list):
                replaced[slot.field] = _names_templated(value, holders)
            elif slot.field in changed:
                replaced[slot.field] = _templated(value, holders, stem)
        return Step(phrased.line(replaced), templated)
    return Step(json.dumps(templated, ensure_ascii=False), templated)


def _layer_fields(command: type[Command]) -> set[str]:
    """The command's fields that name layers (marked in its schema): only their values become
    {layer1}..., so a colormap that shares a layer's name stays a colormap."""
    from ..basics.commands import NAMES_KEY

    def names_layers(spec: Any) -> bool:
        if isinstance(spec, dict):
            return spec.get(NAMES_KEY) == "layers" or any(names_layers(v) for v in spec.values())
        if isinstance(spec, list):
            return any(names_layers(v) for v in spec)
        return False

    properties = command.model_json_schema().get("properties", {})
    return {name for name, spec in properties.items() if names_layers(spec)}


def _templated(value: Any, holders: Mapping[str, str], stem: str) -> Any:
    """A layer name of the input as its placeholder; the input's stem in a file path as {stem}."""
    if isinstance(value, list):
        return [_templated(v, holders, stem) for v in value]
    if not isinstance(value, str):
        return value
    if value in holders:
        return holders[value]
    if stem and stem in value and ("/" in value or "." in value):
        return value.replace(stem, "{stem}")
    return value


def _names_templated(text: str, holders: Mapping[str, str]) -> str:
    """A list of names typed in one slot ("a, b") with each input layer's name as its placeholder."""
    for layer, holder in holders.items():
        text = re.sub(rf"(?<![\w{{]){re.escape(layer)}(?![\w}}])", holder, text)
    return text


def _templated_line(
    typed: str, changed: Mapping[str, Any], holders: Mapping[str, str], stem: str
) -> str | None:
    """The typed line with the values that became placeholders replaced, when each appears exactly
    as often as the command holds it (else the replacement could hit another word: None)."""
    line = typed
    for value in changed.values():
        for text in value if isinstance(value, list) else [value]:
            if not isinstance(text, str):
                continue
            new = _templated(text, holders, stem)
            alone = re.compile(rf"(?<![\w{{]){re.escape(text)}(?![\w}}])")
            if len(alone.findall(line)) != 1 or new == text:
                return None
            line = alone.sub(new.replace("\\", "\\\\"), line)
    return line
