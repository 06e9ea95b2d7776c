"""The fenced code blocks of the Markdown docs, with what each fence says about running it.

A fence's info string is its language, then optionally what the runner should know::

    ```python                       runs
    ```python continues             runs after the runnable blocks before it in the same file
    ```sh skip: needs an OpenAI key  a runnable block that cannot run here, and why
    ```python no-run: an excerpt     not meant to run (an illustration, a fragment), and why
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

PYTHON = frozenset({"python", "py"})
SHELL = frozenset({"sh", "bash", "shell", "console"})
NOT_CODE = frozenset({"text", "json", "jsonl", "yaml", "toml", "xml", "ini", "diff"})

_OPENING = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
_NOT_A_FENCE = re.compile(r"^ {0,3}`{3,}[^`]*`")
_OPT_OUT = re.compile(r"^(?P<kind>no-run|skip)\s*:\s*(?P<reason>\S.*)$")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int
    """The line of the opening fence, counted from 1."""
    language: str
    code: str
    continues: bool = False
    opt_out: str = ""
    """``no-run`` or ``skip``; empty for a block that runs."""
    reason: str = ""
    problem: str = ""
    """What is wrong with the fence itself (no language, an opt-out without a reason)."""

    @property
    def runs(self) -> bool:
        return self.language in PYTHON | SHELL and not self.opt_out and not self.problem

    def where(self, root: Path) -> str:
        return f"{self.path.relative_to(root)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """Every fenced block of one Markdown file, in order."""
    found: list[Block] = []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        opening = _OPENING.match(lines[i])
        if not opening:
            if _NOT_A_FENCE.match(lines[i]):
                problem = "a backtick in the info string makes this line no fence (CommonMark)"
                found.append(Block(path, i + 1, "", "", problem=problem))
            i += 1
            continue
        fence, indent = opening["fence"], len(opening["indent"])
        closing = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not closing.match(lines[j]):
            body.append(lines[j][indent:] if lines[j][:indent].isspace() else lines[j])
            j += 1
        found.append(_block(path, i + 1, opening["info"].strip(), "\n".join(body) + "\n"))
        i = j + 1
    return found


def _block(path: Path, line: int, info: str, code: str) -> Block:
    language, _, rest = info.partition(" ")
    language, rest = language.lower(), rest.strip()
    continues = rest == "continues" or rest.startswith("continues ")
    if continues:
        rest = rest.removeprefix("continues").strip()
    if not language:
        return Block(path, line, "", code, problem="the fence names no language (use `text` for output)")
    if not rest:
        return Block(path, line, language, code, continues)
    opt_out = _OPT_OUT.match(rest)
    if not opt_out:
        problem = f"the fence says {rest!r}: write `no-run: <why>` or `skip: <why>`"
        return Block(path, line, language, code, continues, problem=problem)
    return Block(path, line, language, code, continues, opt_out["kind"], opt_out["reason"].strip())


def expected_outputs(code: str) -> list[list[str]]:
    """What the block's print lines say they print: the trailing comment of a ``print(...)`` line,
    its output lines separated by `` / `` (``print(turn.message)  # nuclei hidden. / zoom set to 2.``)."""
    expected = []
    for line in code.splitlines():
        match = re.match(r"^\s*print\(.*\)\s+#\s?(?P<said>.+)$", line)
        if match:
            expected.append([part.strip() for part in match["said"].split(" / ")])
    return expected


def console_commands(code: str) -> tuple[str, list[str]]:
    """A ``console`` block as the script it runs (its ``$ `` lines) and the output lines it shows."""
    commands, shown = [], []
    for line in code.splitlines():
        if line.startswith("$ "):
            commands.append(line[2:])
        elif line.strip():
            shown.append(line.strip())
    return "\n".join(commands) + "\n", shown
