"""ComfyUI workflow templates (API format) shipped with the pack, and filling them in.

A template is a ComfyUI "Save (API)" export whose inputs may hold placeholders: a value that is
exactly ``"{{name}}"`` is replaced by the value of any type (a seed stays a number), one that
contains it has it replaced as text. Nodes titled ``input:<name>`` and ``output:<name>`` (their
``_meta.title``) mark where images go in and what the pack downloads.

A person can replace any template with their own (other models, other nodes) by saving it as
``mesh/workflows/<name>.json`` in the workspace.
"""

from __future__ import annotations

import copy
import json
import re
from importlib import resources
from typing import TYPE_CHECKING, Any

TEMPLATES = ("concepts", "mv2mv", "mv23d")
"""concepts: view + prompt → 3 images; mv2mv: concept + renders → left/back/right views;
mv23d: front/left/back/right views → a mesh."""
OVERRIDE_FOLDER = "mesh/workflows"
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")

if TYPE_CHECKING:
    from ...core.safety.workspace import Workspace


class WorkflowError(ValueError):
    pass


WORKFLOW_MAX_BYTES = 4 * 1024 * 1024


def load(name: str, workspace: Workspace | None = None) -> tuple[dict[str, Any], str]:
    """The workflow and where it came from (the workspace's own version wins)."""
    if name not in TEMPLATES:
        raise WorkflowError(f"no workflow template named {name!r}")
    own = f"{OVERRIDE_FOLDER}/{name}.json"
    if workspace is not None and workspace.exists(own):
        text = workspace.read_text(own, limit=WORKFLOW_MAX_BYTES, what="workflow files")
        return _checked(_parse(text, own), own), own
    text = resources.files(__package__).joinpath(f"workflows/{name}.json").read_text("utf-8")
    return _checked(_parse(text, name), name), f"built-in {name}"


def _parse(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise WorkflowError(f"the workflow {where} is not valid JSON: {exc}") from None


def _checked(workflow: Any, where: str) -> dict[str, Any]:
    if not isinstance(workflow, dict) or not workflow:
        raise WorkflowError(f"the workflow {where} is not a ComfyUI API-format object of nodes")
    for node_id, node in workflow.items():
        if not isinstance(node, dict) or "class_type" not in node or not isinstance(node.get("inputs"), dict):
            raise WorkflowError(
                f"node {node_id!r} of {where} has no class_type/inputs: save workflows with ComfyUI's "
                "'Save (API)' (API format)"
            )
    return workflow


def placeholders(workflow: dict[str, Any]) -> set[str]:
    return set(_PLACEHOLDER.findall(json.dumps(workflow)))


def fill(workflow: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """A copy with every placeholder replaced; a placeholder without a value is an error."""
    missing = placeholders(workflow) - set(values)
    if missing:
        raise WorkflowError(f"the workflow needs values for {', '.join(sorted(missing))}")

    def replace(value: Any) -> Any:
        if isinstance(value, str):
            whole = _PLACEHOLDER.fullmatch(value)
            if whole:
                return values[whole.group(1)]
            return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), value)
        if isinstance(value, list):
            return [replace(v) for v in value]
        if isinstance(value, dict):
            return {k: replace(v) for k, v in value.items()}
        return value

    return replace(copy.deepcopy(workflow))


def titled(workflow: dict[str, Any], title: str) -> list[str]:
    """Ids of the nodes whose title is ``title`` (e.g. "output:concepts")."""
    return [
        node_id
        for node_id, node in workflow.items()
        if str((node.get("_meta") or {}).get("title", "")).strip().casefold() == title.casefold()
    ]
