"""How people ask for the file manager's verbs: delete, move and rename, copy, make a folder,
append, replace every occurrence, count, the current folder, and what the pack cannot do.

As in :mod:`.texts`, a spelled-out path (``notes/a.md``) is read at the pack's usual priority;
a file or folder named as people say it ("the plan", "chapter 1", "chapters") is read by the
slots ``{path:files}`` and ``{path:folders}``, known names only (the names the pack offers for
the workspace's tree, :func:`napari_talk.packs.files.naming.spoken_names`), below the viewer's own
readings of the same verbs, so a layer keeps its name. The handler resolves the name again and
asks when it fits more than one entry.
"""

from __future__ import annotations

import re
from typing import Any

from ....core.rules.rule import Rule
from .. import commands as cmd
from .texts import (
    _EXTENSION,
    CHANGE,
    IN_FILE,
    VERB_OPEN,
    WITH,
    _is_pathlike,
    _pathlike,
    _tidy,
    _tidy_paths,
    quoted,
)


def _pathlike_source(values: dict[str, Any]) -> dict[str, Any]:
    """ "move notes/a.md to drafts": the source looks like a path (a layer has no extension)."""
    values["source"] = _tidy(values["source"])
    if not _is_pathlike(values["source"]):
        raise ValueError(f"{values['source']!r} does not look like a file path")
    return values


_FOLDER_AFTER = re.compile(r" (?:folder|directory|dir)$", re.IGNORECASE)


def _placed(values: dict[str, Any]) -> dict[str, Any]:
    """ "into drafts", "to the drafts folder": the destination is a folder, said with a final /."""
    into = values.pop("into", False)
    destination = _tidy(values["destination"])
    if _FOLDER_AFTER.search(destination):
        destination, into = _FOLDER_AFTER.sub("", destination), True
    values["destination"] = destination.rstrip("/") + "/" if into else destination
    return values


def _placed_path(values: dict[str, Any]) -> dict[str, Any]:
    return _pathlike_source(_placed(values))


def _pathlike_target(values: dict[str, Any]) -> dict[str, Any]:
    values["target"] = _tidy(values["target"])
    if not _is_pathlike(values["target"]):
        raise ValueError(f"{values['target']!r} does not look like a file path")
    return values


def _no_extension(values: dict[str, Any]) -> dict[str, Any]:
    """ "make a folder drafts": a folder's name has no file extension."""
    values = _tidy_paths(values)
    if _EXTENSION.search(values["path"]):
        raise ValueError("a file, not a folder")
    return values


def _slashed_or_folder(values: dict[str, Any]) -> dict[str, Any]:
    """ "cd notes", "go into sample/notes": a folder's name, without a file extension."""
    values["folder"] = _tidy(values["folder"]).rstrip("/") or "."
    if _EXTENSION.search(values["folder"]):
        raise ValueError("a file, not a folder")
    return values


def _slashed_folder_path(values: dict[str, Any]) -> dict[str, Any]:
    """ "go into sample/notes": without the word "folder", only a path with a slash ("switch to 4D"
    is the viewer's)."""
    if "/" not in values["folder"].strip("/"):
        raise ValueError("not said to be a folder")
    return _slashed_or_folder(values)


COPY = "a copy"
ONTO = r"(?:to|at the end of|to the end of|onto|on to|in)"
DELETE = r"(?:delete|remove|trash|erase|rm|del|bin|throw away|throw out|get rid of)"
TO_TRASH = r"(?:to|in|into) the (?:trash|bin|wastebasket|recycle bin)"
A_FILE = r"(?:(?:the )?(?:file|document|folder|directory|dir) )?"
FOLDER_WORD = r"(?: (?:folder|directory|dir))?"
EVERY = r"(?:every|all|each|all the|all of the)(?: (?:occurrences?|instances?|mentions?|uses?) of)?"
EVERYWHERE = r"(?:everywhere|throughout|all over|wherever it appears)"
PLACE = {"to": False, "onto": False, "as": False, "to the": False} | {
    f"{word}{the}{folder}": True
    for word in ("to", "into", "in", "under", "inside")
    for the in ("", " the")
    for folder in ("", " folder", " directory", " dir")
    if word != "to" or folder
}
"""The word before a destination, and whether it says the destination is a folder ("into")."""
TO_PLACE = "{into:place}"
COUNTED = r"(?:words?|lines?|char(?:acter)?s?|letters)"
COUNTS = rf"{COUNTED}(?:(?:,|,? and) {COUNTED})*"
HOW_MANY = r"(?:how many|count(?: the)?|number of|give me the|show(?: me)? the|what(?:'s| is) the)"
IN_IT = r"(?: (?:are|is|does|do))?(?: there)?(?: (?:in|of|for))?(?: (?:my|our))?"
WC = r"(?:word ?count|line count|character count|stats|statistics|counts)"
GO_INTO = r"(?:go|change|switch|step|move|navigate|get)(?: (?:in)?to| into| in)"
UNSUPPORTED = {
    verb: verb
    for verb in (
        "zip", "compress", "back up", "backup", "archive", "print", "email", "mail", "send", "share",
        "upload", "publish", "convert", "export", "translate", "spellcheck", "spell check", "sort",
        "merge", "encrypt", "lock", "undelete", "restore", "empty",
    )
} | {"e-mail": "email"}  # fmt: skip
"""File requests the pack cannot carry out: said so in one line, with the nearest it can."""
UP_WORDS = dict.fromkeys(
    ("up", "back up", "up one", "up a level", "up one level", "..", "to the parent", "to the parent folder"),
    "up",
)
TOP_WORDS = dict.fromkeys(("to the top", "to the workspace", "home", "to the root", "back to the top"), "top")

OPEN_WORDS = ("open", "show", "view", "display", "load", "bring", "pull", "read", "cat")
DELETE_WORDS = ("delet", "remov", "trash", "eras", "rm", "del", "bin", "throw", "rid")
MOVE_WORDS = ("ren", "mov", "mv")
COPY_WORDS = ("cop", "cp", "dupl")
FOLDER_WORDS = ("folder", "director", "dir", "mkdir", "md")
APPEND_WORDS = ("append", "add", "tack", "attach")
CHANGE_WORDS = ("replac", "chang", "substit", "swap", "correct", "fix")
COUNT_WORDS = ("word", "line", "char", "letter", "count", "stat", "wc", "long", "big")
LIST_WORDS = ("list", "show", "open", "what")
GO_WORDS = (
    "cd", "chdir", "go", "chang", "switch", "step", "mov", "navigat", "get", "open", "enter", "up", "..",
    "top", "home", "root", "back",
)  # fmt: skip
WHERE_WORDS = ("where", "pwd", "folder", "director", "dir")
UNSUPPORTED_WORDS = (
    "zip", "compress", "back", "archive", "print", "mail", "send", "share", "upload", "publish", "convert",
    "export", "translat", "spell", "sort", "merge", "encrypt", "lock", "undelete", "restore", "empty",
)  # fmt: skip
"""Words one of which a line must hold for each verb's rules to be tried (a cheap first test)."""


VERB_RULES: tuple[Rule, ...] = (
    Rule(
        cmd.ReadFile,
        rf"{VERB_OPEN} {{path:files}}",
        r"(?:read|cat)(?: me)? {path:files}",
        free_names=False,
        post=_tidy_paths,
        priority=-15,
        requires=OPEN_WORDS,
    ),
    Rule(
        cmd.DeleteFile,
        rf"{DELETE} {A_FILE}{{path:path}}",
        post=_pathlike,
        priority=1,
        requires=DELETE_WORDS,
    ),
    Rule(
        cmd.DeleteFile,
        rf"(?:move|put|send|throw) {{path:path}} {TO_TRASH}",
        post=_pathlike,
        priority=10,  # before "move x to y"
        requires=DELETE_WORDS,
    ),
    Rule(
        cmd.DeleteFile,
        rf"{DELETE} (?:the )?(?:file|document|folder|directory) {{path:text}}",
        priority=1,
        requires=DELETE_WORDS,
    ),
    Rule(
        cmd.DeleteFile,
        rf"{DELETE} {{path:files}}",
        rf"{DELETE} {{path:folders}}{FOLDER_WORD}",
        rf"(?:move|put|send|throw) {{path:files}} {TO_TRASH}",
        rf"(?:move|put|send|throw) {{path:folders}}(?: folder)? {TO_TRASH}",
        free_names=False,
        priority=-1,
        requires=DELETE_WORDS,
    ),
    Rule(
        cmd.MoveFile,
        r"(?:rename|ren) {source:path} (?:to|as|into|->) {destination:text}",
        rf"(?:move|mv) {{source:path}} {TO_PLACE} {{destination:text}}",
        r"mv {source:path} {destination:path}",
        post=_placed_path,
        place=PLACE,
        priority=9,
        requires=MOVE_WORDS,
    ),
    Rule(
        cmd.MoveFile,
        r"(?:rename|ren) {source:files} (?:to|as|into|->) {destination:text}",
        r"(?:rename|ren) (?:the )?(?:folder|directory) {source:folders} (?:to|as|into|->) {destination:text}",
        rf"(?:move|mv) {{source:files}} {TO_PLACE} {{destination:text}}",
        rf"(?:move|mv) {{source:folders}}{FOLDER_WORD} {TO_PLACE} {{destination:text}}",
        post=_placed,
        place=PLACE,
        free_names=False,
        priority=-5,
        requires=MOVE_WORDS,
    ),
    Rule(
        cmd.CopyFile,
        rf"(?:copy|cp|duplicate) {{source:path}} {TO_PLACE} {{destination:text}}",
        r"cp {source:path} {destination:path}",
        post=_placed_path,
        place=PLACE,
        priority=1,
        requires=COPY_WORDS,
    ),
    Rule(
        cmd.CopyFile,
        rf"(?:copy|duplicate) {{source:files}} {TO_PLACE} {{destination:text}}",
        post=_placed,
        place=PLACE,
        free_names=False,
        priority=-5,
        requires=COPY_WORDS,
    ),
    Rule(
        cmd.CopyFile,
        r"(?:duplicate|copy) {source:path}",
        post=_pathlike_source,
        priority=1,
        destination="a copy",
        requires=COPY_WORDS,
    ),
    Rule(
        cmd.CopyFile,
        r"(?:duplicate|make a copy of|copy) {source:files}",
        free_names=False,
        priority=-5,
        destination="a copy",
        requires=COPY_WORDS,
    ),
    Rule(
        cmd.MakeFolder,
        r"(?:make|create|add|new|start)(?: me)?(?: an?)?(?: new)?(?: empty)? (?:folder|directory|dir)"
        r"(?: (?:called|named|for))? {path:text}",
        r"(?:mkdir|md)(?: -p)? {path:path}",
        post=_no_extension,
        priority=2,
        requires=FOLDER_WORDS,
    ),
    Rule(
        cmd.AppendFile,
        rf"(?:append|add|tack on|attach) {quoted('content')} {ONTO} {{path:path}}",
        rf"(?:append|add) to {{path:path}},? {quoted('content')}",
        r"append {content:text} to {path:path}",
        post=_pathlike,
        priority=2,
        requires=APPEND_WORDS,
    ),
    Rule(
        cmd.AppendFile,
        rf"(?:append|add|tack on) {quoted('content')} {ONTO} {{path:files}}",
        free_names=False,
        priority=-5,
        requires=APPEND_WORDS,
    ),
    Rule(
        cmd.ReplaceInFile,
        rf"in(?: (?:the )?file)? {{path:path}},? {CHANGE} {EVERY} {{search_text:text}} {WITH}"
        r" {replace_text:text}",
        rf"{CHANGE} {EVERY} {{search_text:text}} {WITH} {{replace_text:text}} {IN_FILE} {{path:path}}",
        rf"{CHANGE} {{search_text:text}} {WITH} {{replace_text:text}} {EVERYWHERE} (?:in )?{{path:path}}",
        rf"in(?: (?:the )?file)? {{path:path}},? {CHANGE} {{search_text:text}} {WITH} {{replace_text:text}}"
        rf" {EVERYWHERE}",
        post=_pathlike,
        priority=3,
        requires=CHANGE_WORDS,
    ),
    Rule(
        cmd.ReplaceInFile,
        rf"in {{path:files}},? {CHANGE} {EVERY} {{search_text:text}} {WITH} {{replace_text:text}}",
        rf"{CHANGE} {EVERY} {{search_text:text}} {WITH} {{replace_text:text}} {IN_FILE} {{path:files}}",
        free_names=False,
        priority=3,
        requires=CHANGE_WORDS,
    ),
    Rule(
        cmd.EditFile,
        rf"in {{path:files}},? {CHANGE} {{search_text:text}} {WITH} {{replace_text:text}}",
        rf"{CHANGE} {{search_text:text}} {WITH} {{replace_text:text}} {IN_FILE} {{path:files}}",
        free_names=False,
        priority=1,
        requires=CHANGE_WORDS,
    ),
    Rule(
        cmd.FileStats,
        rf"{HOW_MANY} {COUNTS}{IN_IT} {{path:path}}(?: (?:have|has|contain))?",
        rf"(?:{WC}|wc(?: -[lwcm]+)?)(?: (?:of|for|in))? {{path:path}}",
        r"how (?:long|big) is {path:path}",
        post=_tidy_paths,
        priority=2,
        requires=COUNT_WORDS,
    ),
    Rule(
        cmd.FileStats,
        rf"{HOW_MANY} {COUNTS}{IN_IT} {{path:files}}(?: (?:have|has|contain))?",
        rf"{HOW_MANY} {COUNTS}{IN_IT} {{path:folders}}{FOLDER_WORD}(?: (?:have|has|contain))?",
        rf"{WC}(?: (?:of|for|in))? {{path:files}}",
        r"how (?:long|big) is {path:files}",
        free_names=False,
        priority=2,
        requires=COUNT_WORDS,
    ),
    Rule(
        cmd.FileStats,
        rf"{HOW_MANY} {COUNTS}(?: (?:are|is) there)?"
        r"(?: (?:in|of) (?:here|this folder|the workspace|everything|all files|all my files))?",
        priority=1,
        requires=COUNT_WORDS,
    ),
    Rule(
        cmd.ListFiles,
        r"(?:list|show|open)(?: me)? {directory:folders}(?: (?:folder|directory|dir))?",
        r"what(?:'s| is) in {directory:folders}",
        free_names=False,
        priority=-15,
        requires=LIST_WORDS,
    ),
    Rule(
        cmd.ChangeFolder,
        r"(?:cd|chdir) {folder:path}",
        rf"{GO_INTO}(?: the)? (?:folder|directory|dir) {{folder:path}}",
        r"(?:open|enter)(?: the)? (?:folder|directory|dir) {folder:path}",
        post=_slashed_or_folder,
        priority=2,
        requires=GO_WORDS,
    ),
    Rule(
        cmd.ChangeFolder,
        rf"{GO_INTO}(?: the)? {{folder:path}}",
        post=_slashed_folder_path,
        priority=2,
        requires=GO_WORDS,
    ),
    Rule(
        cmd.ChangeFolder,
        rf"{GO_INTO}(?: the)? {{folder:folders}}(?: (?:folder|directory|dir))?",
        r"(?:open|enter)(?: the)? {folder:folders}(?: (?:folder|directory|dir))?",
        free_names=False,
        priority=-5,
        requires=GO_WORDS,
    ),
    Rule(
        cmd.ChangeFolder,
        r"(?:(?:cd|go|move|step|change|navigate)(?: folder)? )?{folder:up}",
        r"(?:cd|go|move|step|change folder|navigate) {folder:top}",
        r"cd(?: ~| /)?",
        up=UP_WORDS,
        top=TOP_WORDS,
        priority=2,
        requires=GO_WORDS,
    ),
    Rule(
        cmd.CurrentFolder,
        r"where am i(?: now)?",
        r"pwd",
        r"(?:which|what) (?:folder|directory|dir) am i in(?: now)?",
        r"what(?:'s| is) (?:the |my )?current (?:folder|directory|dir)",
        r"(?:which|what) (?:folder|directory) is (?:this|current)",
        priority=2,
        requires=WHERE_WORDS,
    ),
    Rule(
        cmd.CannotDoWithFiles,
        r"{verb:unsupported} {target:path}(?: (?:to|for|with|as|into|by) .+)?",
        post=_pathlike_target,
        unsupported=UNSUPPORTED,
        priority=1,
        requires=UNSUPPORTED_WORDS,
    ),
    Rule(
        cmd.CannotDoWithFiles,
        r"{verb:unsupported} {target:files}(?: (?:to|for|with|as|into|by) .+)?",
        r"{verb:unsupported} {target:folders}(?: (?:folder|directory))?(?: (?:to|for|with|as|into|by) .+)?",
        r"{verb:unsupported} (?:the trash|everything|all(?: (?:my|the))? files|the workspace|all of it)",
        unsupported=UNSUPPORTED,
        free_names=False,
        priority=-5,
        requires=UNSUPPORTED_WORDS,
    ),
)
