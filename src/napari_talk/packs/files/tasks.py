"""Delegated tasks, recorded in the workspace as an append-only JSON-lines log.

Each line is one event (``assigned`` or ``withdrawn``); a task's state is the fold of its
events. One ``write`` per event on a file opened with O_APPEND keeps concurrent writers (other
sessions, other processes) from interleaving, and a line cut short by a crash is skipped.
"""

from __future__ import annotations

import json
import os
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ...workspace import resolve

TASKS_FILE = ".napari-talk/tasks.jsonl"
_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class TaskLog:
    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def path(self) -> Path:
        return resolve(self.root, TASKS_FILE)

    def _append(self, event: dict[str, Any]) -> None:
        path = self.path
        path.parent.mkdir(parents=True, exist_ok=True)
        line = (json.dumps(event, ensure_ascii=False) + "\n").encode("utf-8")
        fd = os.open(path, _FLAGS, 0o644)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)

    def assign(self, target_agent: str, task_description: str, target_file: str) -> dict[str, Any]:
        task = {
            "id": uuid.uuid4().hex[:8],
            "target_agent": target_agent,
            "task_description": task_description,
            "target_file": target_file,
            "status": "assigned",
            "created": _now(),
        }
        self._append({"event": "assigned", **task})
        return task

    def withdraw(self, task_id: str) -> None:
        self._append({"event": "withdrawn", "id": task_id, "at": _now()})

    def tasks(self, target_agent: str | None = None) -> list[dict[str, Any]]:
        """Every task in the order assigned, each with its current status."""
        try:
            lines = self.path.read_bytes().decode("utf-8", "replace").splitlines()
        except FileNotFoundError:
            return []
        tasks: dict[str, dict[str, Any]] = {}
        for line in lines:
            try:
                event = json.loads(line)
                kind, task_id = event.pop("event"), event["id"]
            except (ValueError, KeyError, AttributeError, TypeError):
                continue
            if kind == "assigned":
                tasks[task_id] = event
            elif kind == "withdrawn" and task_id in tasks:
                tasks[task_id]["status"] = "withdrawn"
        found = list(tasks.values())
        return [t for t in found if target_agent is None or t.get("target_agent") == target_agent]
