"""The files pack's commands (the TextCraft tools): a sandboxed workspace folder, and delegation to roles.

Every path is relative to the current folder (the workspace root until someone changes folder),
or names an entry as people say it ("the plan", "chapter 1"); the sandbox
(``napari_talk.core.safety.workspace``) refuses anything else when the command runs, so a refusal
is a security error, not a validation error.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import Field

from ...core.basics.commands import Command, Risk
from .limits import SEARCH_DEFAULT_RESULTS, SEARCH_MAX_RESULTS

FilePath = Annotated[
    str,
    Field(
        min_length=1,
        max_length=4096,
        description="File path relative to the workspace folder, e.g. manuscripts/ch01.md.",
    ),
]
Folder = Annotated[
    str,
    Field(
        min_length=1,
        max_length=4096,
        description='Folder relative to the workspace folder; "." is the workspace itself.',
    ),
]


class ReadFile(Command, action="read_file"):
    """Read a UTF-8 text file of the workspace and return its content."""

    risk: ClassVar[Risk] = "read"
    path: FilePath
    examples: ClassVar = ("read notes/plan.md", "show me the contents of a.txt")


class WriteFile(Command, action="write_file"):
    """Write the full content of a file, replacing it if it exists and creating missing folders.

    The write is atomic: the file holds the old content or the new, never a mix.
    """

    risk: ClassVar[Risk] = "data"
    path: FilePath
    content: str = Field(description="The full text content (UTF-8).")
    examples: ClassVar = ("write 'text' to notes/a.txt", "save 'hello' to a.txt")


class EditFile(Command, action="edit_file"):
    """Replace the first occurrence of a text in a file; meta says how many occurrences there were."""

    risk: ClassVar[Risk] = "data"
    path: FilePath
    search_text: str = Field(min_length=1, description="The exact text to find (case-sensitive).")
    replace_text: str = Field(description="The text to put in place of its first occurrence.")
    examples: ClassVar = ("in a.md replace 'x' with 'y'", "replace 'teh' with 'the' in notes/a.md")


class ListFiles(Command, action="list_files"):
    """List a workspace folder: name, path, size, modification time and kind of each entry."""

    risk: ClassVar[Risk] = "read"
    directory: Folder = "."
    recursive: bool = Field(default=False, description="Also list the contents of every subfolder.")
    examples: ClassVar = ("list files", "list files in manuscripts", "list all files recursively")


class SearchCode(Command, action="search_code"):
    """Search the workspace's text files for a string or a regular expression, line by line."""

    risk: ClassVar[Risk] = "read"
    query: str = Field(min_length=1, max_length=1000, description="The text (or regular expression) to find.")
    directory: Folder = "."
    regex: bool = Field(default=False, description="Read the query as a Python regular expression.")
    case_sensitive: bool = Field(default=False, description="Match letter case exactly.")
    max_results: int = Field(
        default=SEARCH_DEFAULT_RESULTS,
        ge=1,
        le=SEARCH_MAX_RESULTS,
        description="At most this many matching lines; meta says when there were more.",
    )
    tails: ClassVar = {"count": "max_results"}
    examples: ClassVar = ("search 'castle'", "find 'dragon' in chapters", "grep regex 'ch[0-9]+' in notes")


class AssignTask(Command, action="assign_task"):
    """Delegate a task on a file to an agent role (architect, narrator or editor); it is recorded."""

    target_agent: str = Field(
        min_length=1, max_length=100, description="The role: architect, narrator or editor."
    )
    task_description: str = Field(
        min_length=1, max_length=4000, description='What to do, e.g. "Write the fight scene".'
    )
    target_file: FilePath
    examples: ClassVar = (
        "assign the architect to outline chapter 2 in plan.md",
        "ask the narrator to write the fight scene in manuscripts/ch03.md",
    )


class ListTasks(Command, action="list_tasks"):
    """List the tasks delegated to agent roles, with their status."""

    risk: ClassVar[Risk] = "read"
    target_agent: str | None = Field(default=None, description="Only this role's tasks; all when left out.")
    examples: ClassVar = ("list tasks", "what tasks does the editor have?")


class DeleteFile(Command, action="delete_file"):
    """Move a file or folder to the workspace's trash (.trash), after asking; undo puts it back."""

    risk: ClassVar[Risk] = "data"
    path: FilePath
    examples: ClassVar = (
        "delete notes/old.md",
        "delete the file old draft",
        "move drafts/old.md to the trash",
    )


class MoveFile(Command, action="move_file"):
    """Move or rename a file or folder within the workspace; a file already at the destination is
    replaced only after asking (it goes to the trash, and undo brings both back)."""

    risk: ClassVar[Risk] = "data"
    source: FilePath
    destination: FilePath = Field(
        min_length=1,
        max_length=4096,
        description="The new path, a new name (kept in the same folder), or a folder to move into.",
    )
    examples: ClassVar = (
        "rename notes/a.md to b.md",
        "move notes/plan.md to chapters",
        "mv a.md drafts/a.md",
    )


class CopyFile(Command, action="copy_file"):
    """Copy a file within the workspace; a file already at the destination is replaced only after asking."""

    risk: ClassVar[Risk] = "data"
    source: FilePath
    destination: FilePath = Field(
        min_length=1,
        max_length=4096,
        description="The copy's path, a new name (beside the original), or a folder to copy into.",
    )
    examples: ClassVar = ("copy notes/plan.md to plan-old.md", "duplicate ch01.md", "cp a.md drafts")


class MakeFolder(Command, action="make_folder"):
    """Make a folder (and the folders above it that are missing)."""

    risk: ClassVar[Risk] = "view"
    path: Folder
    examples: ClassVar = ("make a folder drafts", "mkdir notes/old", "create a new folder called ideas")


class AppendFile(Command, action="append_file"):
    """Add text at the end of a file, on a line of its own (the file is made when missing)."""

    risk: ClassVar[Risk] = "data"
    path: FilePath
    content: str = Field(min_length=1, max_length=1_000_000, description="The text to add (UTF-8).")
    examples: ClassVar = ("append 'The end.' to ch02.md", "add 'buy ink' to notes/plan.md")


class ReplaceInFile(Command, action="replace_in_file"):
    """Replace every occurrence of a text in a file (case-sensitive); says how many there were."""

    risk: ClassVar[Risk] = "data"
    path: FilePath
    search_text: str = Field(min_length=1, description="The exact text to find (case-sensitive).")
    replace_text: str = Field(description="The text to put in place of every occurrence.")
    examples: ClassVar = ("in a.md change every teh to the", "replace all 'teh' with 'the' in notes/a.md")


class FileStats(Command, action="file_stats"):
    """Count the lines, words and characters of a text file, or of every text file in a folder."""

    risk: ClassVar[Risk] = "read"
    path: FilePath = "."
    examples: ClassVar = ("how many words in ch01.md", "count the words in chapters/", "wc notes/plan.md")


class ChangeFolder(Command, action="change_folder"):
    """Make a folder the current one: the paths typed after it start there ("up" is its parent)."""

    risk: ClassVar[Risk] = "read"
    folder: Folder
    examples: ClassVar = ("go into sample/notes", "cd chapters", "go up")


class CurrentFolder(Command, action="current_folder"):
    """Say which folder is the current one (where typed paths start)."""

    risk: ClassVar[Risk] = "read"
    examples: ClassVar = ("where am I", "pwd", "which folder am I in?")


class CannotDoWithFiles(Command, action="cannot_do_with_files"):
    """Say plainly that a request on files is not something the files pack can do, and the nearest
    thing it can (zip, print, e-mail, convert, ...)."""

    risk: ClassVar[Risk] = "read"
    verb: str = Field(min_length=1, max_length=100, description="What was asked, e.g. zip.")
    target: str = Field(default="", max_length=4096, description="The file or folder it was asked of.")
    examples: ClassVar = ("zip chapters/", "print ch01.md", "email notes/plan.md to my editor")


COMMANDS: tuple[type[Command], ...] = (
    ReadFile,
    WriteFile,
    EditFile,
    ListFiles,
    SearchCode,
    AssignTask,
    ListTasks,
    DeleteFile,
    MoveFile,
    CopyFile,
    MakeFolder,
    AppendFile,
    ReplaceInFile,
    FileStats,
    ChangeFolder,
    CurrentFolder,
    CannotDoWithFiles,
)
