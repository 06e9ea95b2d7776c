"""How people ask for the files pack's commands, as grammar rules (see :mod:`napari_talk.core.rules.rule`).

Verbs that only mean files ("read", "write", "replace ... in", "search", "list files") come at
priority 1, after the viewer's specific phrasings. Verbs the viewer shares ("open", "show",
"view") read as a file only when the word after them looks like a text file's path
(``notes/plan.md``), and at a priority below the viewer's generic ``show <layer>``, so a known
layer or panel keeps its reading. Content to save with "save"/"put" must be quoted, so "save the
labels as a tiff" is not a file write.

The file manager's verbs (delete, move, copy, ...) and names as people say them ("the plan")
are read by the rules of :mod:`.verbs`.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from ....core.grammar.questions import asked_about
from ....core.rules.rule import Rule
from .. import commands as cmd

NOT_TEXT = frozenset(
    {"tif", "tiff", "png", "jpg", "jpeg", "gif", "bmp", "webp", "czi", "nd2", "lif", "lsm", "ims", "oib",
     "oif", "zarr", "n5", "h5", "hdf5", "npy", "npz", "mrc", "dv", "stk", "vsi", "svs", "ome", "mp4", "avi",
     "mov", "gltf", "glb", "obj", "stl", "ply", "fbx", "pdf", "zip", "gz"}
)  # fmt: skip
"""Extensions "open x" should leave to napari (images, volumes, meshes): not text to read."""

_EXTENSION = re.compile(r"\.([A-Za-z0-9_-]{1,10})$")
WORKSPACE_WORDS = frozenset({"workspace", "the workspace", "files", "all files", "everything", "."})
ROLE_WORDS = {"architect": "architect", "narrator": "narrator", "editor": "editor"}
SENSITIVE = dict.fromkeys(("case sensitive", "case-sensitive", "exact case", "matching case"), True)
REGEX_WORDS = dict.fromkeys(("regex", "regexp", "regular expression", "pattern"), True)
RECURSIVE = dict.fromkeys(
    (
        "recursively",
        "recursive",
        "and subfolders",
        "and all subfolders",
        "including subfolders",
        "with subfolders",
        "in all subfolders",
        "and subdirectories",
        "including subdirectories",
        "all the way down",
    ),
    True,
)


def quoted(field: str) -> str:
    """A slot that matches only quoted text ('...' or "..."), quotes dropped."""
    return f"(?:'{{{field}:text}}'|\"{{{field}:text}}\")"


IN_FOLDER = (
    r"(?:in|under|inside|within|through|across|of|from) (?:the )?(?:(?:folder|directory|dir) )?"
    r"{directory:path}(?: (?:folder|directory|dir|subfolder))?"
)
ROLE = r"(?:the )?{target_agent:role}(?: (?:service|agent))?"


def _tidy(path: str) -> str:
    return path.rstrip(",;:")


def _is_pathlike(path: str) -> bool:
    return "/" in path or "\\" in path or _EXTENSION.search(path) is not None


def _relative(path: str) -> bool:
    windows = PureWindowsPath(path)
    return not (PurePosixPath(path).is_absolute() or windows.drive or windows.root)


def _tidy_paths(values: dict[str, Any]) -> dict[str, Any]:
    for field in ("path", "target_file", "directory"):
        if isinstance(values.get(field), str):
            values[field] = _tidy(values[field])
    if values.get("directory", "").casefold() in WORKSPACE_WORDS:
        del values["directory"]
    return values


def _pathlike(values: dict[str, Any]) -> dict[str, Any]:
    """Only when the path looks like one ("a.md", "notes/x"): the verb alone says too little."""
    values = _tidy_paths(values)
    path = values.get("path", values.get("target_file", ""))
    if not _is_pathlike(path):
        raise ValueError(f"{path!r} does not look like a file path")
    return values


def _text_file(values: dict[str, Any]) -> dict[str, Any]:
    """A relative path to a text file: "open notes/plan.md", not "open cells.tif" or "open my email"."""
    values = _tidy_paths(values)
    path = values["path"]
    extension = _EXTENSION.search(path)
    if not _relative(path) or extension is None or extension.group(1).casefold() in NOT_TEXT:
        raise ValueError(f"{path!r} is not a workspace text file")
    return values


def _has_extension(values: dict[str, Any]) -> dict[str, Any]:
    values = _tidy_paths(values)
    if _EXTENSION.search(values["path"]) is None:
        raise ValueError("a folder, not a file")
    return values


_HERE = frozenset({"here", "in here", ".", "./", "this folder", "this directory", "the current folder"})
"""Words for the folder the person is in: "what files are in here?" lists it, not a folder "here"."""


def _folder(values: dict[str, Any]) -> dict[str, Any]:
    values = _tidy_paths(values)
    if values.get("directory", "").casefold() in _HERE:
        values = {k: v for k, v in values.items() if k != "directory"}
    if _EXTENSION.search(values.get("directory", "")):
        raise ValueError("a file, not a folder")
    return values


def _slashed_folder(values: dict[str, Any]) -> dict[str, Any]:
    values = _folder(values)
    if "directory" in values and not values["directory"].endswith("/"):
        raise ValueError("not said to be a folder")
    return values


def _file_in_task(values: dict[str, Any]) -> dict[str, Any]:
    """ "have the editor proofread ch01.md": the file is the task's last path-like word."""
    words = values["task_description"].split()
    last = _tidy(words[-1].strip("'\"")) if words else ""
    if not _is_pathlike(last):
        raise ValueError("no file named at the end of the task")
    values["target_file"] = last
    return values


VERB_OPEN = r"(?:open|show|view|display|load|bring up|pull up)(?: up)?(?: me)?(?: (?:the )?file)?"
CONTENTS = r"(?:show|display|view|open|give|get|print|list)(?: me)? (?:the )?(?:contents?|text) of"
TO_FILE = r"(?:to|in|into|as|at)(?: (?:the )?file)?"
IN_FILE = r"(?:in|inside|within)(?: (?:the )?file)?"
CHANGE = (
    r"(?:replace|change|substitute|swap|correct|fix)"
    r"(?: the (?:typo|misspelling|misspelt word|spelling|word|phrase|string))?"
)
"""A verb of changing text, and what the person calls the text ("fix the typo teh -> the")."""
WITH = r"(?:with|by|to|into|->|=>)"
CASE = r"(?:,? {case_sensitive:sensitive})?"
WHERE = f"(?: {IN_FOLDER})?"
OCCURRENCES = r"(?:mentions|occurrences|uses|references|instances)"
FILES = r"(?:files|documents|docs|folders|directories|entries|files and folders)"
DEEP = r"(?:,? {recursive:deep})?"
AGENT = r"(?:the )?{target_agent:word}(?: (?:service|agent))?"
AT_FILE = r"(?:in|on|for|at|to|about) {target_file:path}"
ASK = r"(?:ask|tell|have|get|let)"

RULES: tuple[Rule, ...] = (
    Rule(
        cmd.ReadFile,
        r"(?:read|cat)(?: (?:me|out|through|aloud))?"
        r"(?: (?:the )?(?:file|contents? of|text of)(?: (?:the )?file)?)? {path:path}",
        r"what does {path:path} say|what(?:'s| is) (?:in|inside) (?:the )?file {path:path}",
        post=_tidy_paths,
        priority=1,
    ),
    Rule(cmd.ReadFile, rf"{CONTENTS}(?: (?:the )?file)? {{path:path}}", post=_has_extension, priority=1),
    Rule(cmd.ReadFile, r"(?:less|more|head|tail|type) {path:path}", post=_pathlike, priority=1),
    Rule(
        cmd.ReadFile,
        rf"{VERB_OPEN} {{path:path}}",
        r"(?:(?:show|tell|give) me )?what(?:'s| is) (?:in|inside|written in) {path:path}",
        post=_text_file,
        priority=-20,
    ),
    Rule(
        cmd.WriteFile,
        rf"(?:write|save|put|store|place) {quoted('content')} {TO_FILE} {{path:path}}",
        r"write {content:text} (?:to|in|into)(?: (?:the )?file)? {path:path}",
        r"(?:create|make|write|start)(?: a)?(?: new)?(?: (?:text )?file)?(?: (?:called|named))? {path:path}"
        r" (?:with|containing|saying|that says)(?: (?:the )?(?:text|content|words?))? {content:text}",
        r"(?:overwrite|fill|set) {path:path} (?:with|to) {content:text}",
        r"(?:replace|set) the (?:contents?|text) of {path:path} (?:with|to) {content:text}",
        post=_pathlike,
        priority=1,
    ),
    Rule(
        cmd.WriteFile,
        r"(?:create|make|touch|add)(?: an?)?(?: new)?(?: empty)? (?:text )?file(?: (?:called|named))?"
        r" {path:path}",
        r"touch {path:path}",
        post=_pathlike,
        priority=1,
        content="",
    ),
    Rule(
        cmd.EditFile,
        rf"in(?: (?:the )?file)? {{path:path}},? (?:{CHANGE}|edit) {{search_text:text}} {WITH}"
        r" {replace_text:text}",
        rf"{CHANGE} {{search_text:text}} {WITH} {{replace_text:text}} {IN_FILE} {{path:path}}",
        rf"(?:edit|fix|update|correct) {{path:path}}:?,? {CHANGE} {{search_text:text}} {WITH}"
        r" {replace_text:text}",
        post=_pathlike,
        priority=1,
    ),
    Rule(
        cmd.SearchCode,
        r"(?:{case_sensitive:sensitive} )?(?:search|grep)"
        r"(?: (?:through |in )?(?:the )?(?:workspace|files|code|text))?"
        rf"(?: for)?(?: (?:the )?{{regex:rx}})? {{query:text}}{WHERE}{CASE}",
        rf"(?:find|look for|locate|look up)(?: (?:the )?{{regex:rx}})? {quoted('query')}{WHERE}{CASE}",
        rf"(?:which|what) files (?:mention|contain|have|reference|include|use|say) {{query:text}}{WHERE}",
        rf"(?:find|show|list|search for)(?: me)?(?: all)?(?: the)? {OCCURRENCES} of {{query:text}}{WHERE}",
        rf"where (?:is|are|do (?:i|we) (?:mention|use)) {quoted('query')}"
        rf"(?: (?:mentioned|used|referenced|written))?{WHERE}",
        sensitive=SENSITIVE,
        rx=REGEX_WORDS,
        post=_tidy_paths,
        priority=1,
    ),
    Rule(
        cmd.SearchCode,
        rf"(?:{{case_sensitive:sensitive}} )?(?:search|grep|find|look)(?: for)? /{{query:text}}/{WHERE}",
        sensitive=SENSITIVE,
        post=_tidy_paths,
        priority=2,
        regex=True,
    ),
    Rule(
        cmd.ListFiles,
        r"(?:list|show|display|get|give me|print|enumerate)(?: me)?"
        rf"(?: (?:all|the|all the|all of the|every|my|all my|all of my|our|all our))? {FILES}{WHERE}{DEEP}",
        rf"(?:list|show me) everything {IN_FOLDER}{DEEP}",
        rf"(?:what|which) files (?:are there|do (?:i|we) have|exist|are (?:there )?{IN_FOLDER}){DEEP}",
        r"what(?:'s| is) in (?:the )?{directory:path} (?:folder|directory|dir)",
        r"ls(?: -[a-z]+)?(?: {directory:path})?|dir(?: {directory:path})?",
        rf"{CONTENTS}(?: (?:the )?(?:folder|directory))? {{directory:path}}{DEEP}",
        deep=RECURSIVE,
        post=_folder,
        priority=1,
    ),
    asked_about(
        cmd.ListFiles, "files", "documents", holder=r"(?:the |this |my )?(?:workspace|folder|directory)"
    ),
    Rule(cmd.ListFiles, r"what(?:'s| is) in {directory:path}", post=_slashed_folder, priority=1),
    Rule(cmd.ListFiles, r"tree(?: {directory:path})?", post=_folder, priority=1, recursive=True),
    Rule(
        cmd.ListFiles,
        r"(?:list|ls|what(?:'s| is) in)(?: the| my)? {directory:folders}"
        r"(?: (?:folder|directory|dir))?",
        post=_folder,
        priority=1,
        requires=("list", "ls", "what"),
        free_names=False,  # a folder the workspace has: "list layers" is not a folder's
    ),
    Rule(
        cmd.AssignTask,
        rf"(?:assign|delegate|give) {AGENT} (?:to|with|the task(?: of)?(?: to)?) {{task_description:text}}"
        rf" {AT_FILE}",
        rf"(?:assign|delegate|give|hand)(?: the task)? {quoted('task_description')} to {AGENT} {AT_FILE}",
        rf"{ASK} {ROLE} (?:to )?{{task_description:text}} {AT_FILE}",
        role=ROLE_WORDS,
        post=_pathlike,
        priority=1,
    ),
    Rule(
        cmd.AssignTask,
        rf"(?:assign|delegate) {AGENT} (?:to|with) {{task_description:text}}",
        rf"{ASK} {ROLE} (?:to )?{{task_description:text}}",
        role=ROLE_WORDS,
        post=_file_in_task,
        priority=0,
    ),
    Rule(
        cmd.ListTasks,
        r"(?:list|show|display|get|view)(?: me)?(?: (?:all|the|all the|my))?"
        r"(?: (?:open|pending|assigned|recorded|delegated|current))? tasks"
        rf"(?: (?:for|of|assigned to|given to) {ROLE})?",
        r"(?:what|which) tasks (?:are there|have been (?:assigned|delegated)|are (?:open|pending|assigned))",
        rf"(?:what|which) tasks (?:does|has) {ROLE} (?:have|got|been (?:given|assigned))",
        rf"what (?:is|are) {ROLE}(?:'s)? (?:working on|doing|assigned|tasks)",
        rf"(?:has|have|is|are|was|were) (?:anything|something|any tasks?|any work|work) (?:been )?"
        rf"(?:assigned|given|delegated|handed) to {ROLE}",
        rf"what(?:'s| has| have)(?: been)? (?:assigned|given|delegated|handed) to {ROLE}",
        rf"tasks(?: (?:for|of) {ROLE})?|{ROLE}(?:'s)? tasks",
        role=ROLE_WORDS,
        priority=1,
    ),
    asked_about(cmd.ListTasks, "tasks", "assignments", of=ROLE, role=ROLE_WORDS),
)
