"""Delegated tasks, recorded in the workspace as an append-only JSON-lines log.

Each line is one event (``assigned`` or ``withdrawn``); a task's state is the fold of its
events. One ``write`` per event on a file opened with O_APPEND keeps concurrent writers (other
sessions, other processes) from interleaving, and a line cut short by a crash is skipped.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone
from typing import Any

from ...core.safety.risk import OverBudget
from ...core.safety.workspace import Workspace, human_size
from .limits import TASKS_BUDGET_BYTES, TASKS_MAX_BYTES

TASKS_FILE = ".napari-talk/tasks.jsonl"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class TaskLog:
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def _append(self, event: dict[str, Any], *, budget: int | None = None) -> None:
        line = (json.dumps(event, ensure_ascii=False) + "\n").encode("utf-8")
        if budget is not None:
            found = self.workspace.stat(TASKS_FILE)
            size = found.st_size if found is not None else 0
            if size + len(line) > budget:
                raise OverBudget(
                    f"the task log ({TASKS_FILE}) holds {human_size(size)}, and its budget is "
                    f"{human_size(budget)}: no task was assigned. Move the log out of the workspace "
                    "(or delete it) to start a new one; its tasks then are no longer listed"
                )
        self.workspace.append(TASKS_FILE, line)

    def assign(self, target_agent: str, task_description: str, target_file: str) -> dict[str, Any]:
        task = {
            "id": uuid.uuid4().hex[:8],
            "target_agent": target_agent,
            "task_description": task_description,
            "target_file": target_file,
            "status": "assigned",
            "created": _now(),
        }
        self._append({"event": "assigned", **task}, budget=TASKS_BUDGET_BYTES)
        return task

    def withdraw(self, task_id: str) -> None:
        self._append({"event": "withdrawn", "id": task_id, "at": _now()})

    def tasks(self, target_agent: str | None = None) -> list[dict[str, Any]]:
        """Every task in the order assigned, each with its current status."""
        if not self.workspace.exists(TASKS_FILE):
            return []
        data = self.workspace.read_bytes(TASKS_FILE, limit=TASKS_MAX_BYTES, what="the task log")
        lines = data.decode("utf-8", "replace").splitlines()
        tasks: dict[str, dict[str, Any]] = {}
        for line in lines:
            try:
                event = json.loads(line)
                kind, task_id = event.pop("event"), event["id"]
            except (ValueError, KeyError, AttributeError, TypeError, RecursionError):
                continue
            if kind == "assigned":
                tasks[task_id] = event
            elif kind == "withdrawn" and task_id in tasks:
                tasks[task_id]["status"] = "withdrawn"
        found = list(tasks.values())
        return [t for t in found if target_agent is None or t.get("target_agent") == target_agent]
