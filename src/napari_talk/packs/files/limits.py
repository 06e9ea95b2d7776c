"""The files pack's limits, in one place so docs/files.md can explain each."""

from __future__ import annotations

MIB = 1024 * 1024

TEXT_MAX_BYTES = 8 * MIB
"""The largest file read_file returns, write_file writes and edit_file edits."""
UNDO_MAX_FILE_BYTES = 128 * MIB
"""The largest earlier content kept so a write or an edit can be undone (a larger file is replaced
without undo, and the reply says so). What is kept counts in the history's memory budget."""
COPY_MAX_BYTES = UNDO_MAX_FILE_BYTES
"""The largest file copy_file copies (it is read whole; the same bound as what undo keeps)."""
STATS_MAX_FILES = 2000
"""Text files file_stats counts in a folder (the reply says when there were more)."""
SEARCH_FILE_MAX_BYTES = 8 * MIB
"""Larger files are skipped by search_code (and counted in meta)."""
SEARCH_DEFAULT_RESULTS = 200
SEARCH_MAX_RESULTS = 5000
REGEX_TIMEOUT_S = 10.0
"""A regular-expression search runs in a child process that is killed after this long."""
LIST_MAX_ENTRIES = 5000
SHOWN_CHARS = 10_000
"""How much of a file the dock's transcript shows; the result's data holds all of it."""
TASKS_BUDGET_BYTES = 16 * MIB
"""assign_task refuses once the task log would grow past this (withdrawals, which undo, still go)."""
TASKS_MAX_BYTES = 64 * MIB
"""The largest task log list_tasks reads (above the budget: a log grown by hand still lists)."""
