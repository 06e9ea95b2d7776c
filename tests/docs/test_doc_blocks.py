"""Every fenced ``python`` and shell block in README.md and docs/*.md runs as a reader would run it.

A reader starts from a fresh folder, with napari-talk installed (the checkout's .venv on PATH, so
``napari-talk`` is the installed command), a clone of the repository at hand and nothing set up
that the text does not say: so each block runs in a subprocess, in a new temporary folder that
links the checkout's top-level folders (``sample_data/``, ``scripts/``: a block reads the checkout
as from its root and writes only into the temporary folder), with HOME in that folder (fresh
settings and workspace) and no napari-talk or API-key variables. A block that makes a viewer gets
the display the tests run under (Xvfb).

A block not meant to run says so in its fence with the reason (``no-run: <why>`` for an
illustration, ``skip: <why>`` for what needs a key, a server or minutes); this test skips it with
that reason and fails on any other block that fails. ``continues`` runs a block after the runnable
ones before it in the same file. A ``print(...)`` line's trailing comment is the output it promises
(`` / `` between lines), and it is checked.

Why a runner of our own (tests/support/fences.py, about 100 lines) rather than a plugin from the
package index: pytest-markdown-docs and phmdoctest run only Python fences; pytest-codeblocks runs
shell too but takes its skip marks from HTML comments beside the fence, which a reader of the
rendered page never sees; sybil would need a parser of our own for the fence convention anyway.
Here the convention lives in the fence, where the reader sees it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.fences import NOT_CODE, PYTHON, SHELL, Block, blocks, console_commands, expected_outputs

ROOT = Path(__file__).parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCKS = [block for doc in DOCS for block in blocks(doc)]
CODE = [block for block in BLOCKS if block.language in PYTHON | SHELL]
TIMEOUT = 180


def test_every_fence_says_what_it_holds():
    """A fence names its language, and an opt-out its reason: nothing is skipped silently."""
    wrong = [f"{b.where(ROOT)}: {b.problem}" for b in BLOCKS if b.problem]
    wrong += [
        f"{b.where(ROOT)}: unknown language {b.language!r} (runnable: {sorted(PYTHON | SHELL)}; "
        f"not code: {sorted(NOT_CODE)})"
        for b in BLOCKS
        if b.language and b.language not in PYTHON | SHELL | NOT_CODE
    ]
    assert not wrong, "\n".join(wrong)


def test_the_docs_have_blocks_that_run():
    """The runner finds the blocks (a change of the fence syntax must not make it run nothing)."""
    running = [b for b in CODE if b.runs]
    assert any(b.path.name == "README.md" for b in running)
    assert {b.language for b in running} >= {"python", "sh"}


@pytest.mark.parametrize("block", CODE, ids=[b.where(ROOT) for b in CODE])
def test_the_block_runs_as_written(block: Block, tmp_path: Path):
    if block.problem:
        pytest.fail(block.problem)
    if block.opt_out:
        pytest.skip(f"{block.where(ROOT)} {block.opt_out}: {block.reason}")
    folder = _readers_folder(tmp_path)
    env = _readers_environment(tmp_path)
    if block.language in PYTHON:
        script = tmp_path / "block.py"
        script.write_text(_with_what_it_continues(block))
        command, shown = [sys.executable, str(script)], []
    else:
        code, shown = console_commands(block.code) if block.language == "console" else (block.code, [])
        command = ["bash", "-e", "-o", "pipefail", "-c", code]
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    said = f"{block.where(ROOT)} exited {done.returncode}\nstdout:\n{done.stdout[-3000:]}\nstderr:\n"
    assert done.returncode == 0, said + done.stderr[-3000:]
    printed = [line.strip() for line in done.stdout.splitlines()]
    for expected in [*expected_outputs(block.code), *([shown] if shown else [])]:
        assert _in_order(expected, printed), f"{block.where(ROOT)} promises {expected}, printed {printed}"


def _readers_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    for entry in ROOT.iterdir():
        if entry.is_dir() and not entry.name.startswith("."):
            (folder / entry.name).symlink_to(entry, target_is_directory=True)
    return folder


def _readers_environment(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    unset = ("NAPARI_TALK_", "OPENAI_", "ANTHROPIC_", "XDG_", "PYTEST_", "VIRTUAL_ENV")
    env = {k: v for k, v in os.environ.items() if not k.startswith(unset)}
    env["HOME"] = str(home)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return env


def _with_what_it_continues(block: Block) -> str:
    """The block's code, after every runnable python block before it in its file if it continues."""
    if not block.continues:
        return block.code
    before = [b for b in BLOCKS if b.path == block.path and b.line < block.line and b.runs]
    before = [b for b in before if b.language in PYTHON]
    assert before, f"{block.where(ROOT)} continues, but no runnable python block comes before it"
    return "\n".join(b.code for b in [*before, block])


def _in_order(expected: list[str], printed: list[str]) -> bool:
    """Whether the expected lines appear among the printed ones, in that order, one after another;
    an expected line ending in an ellipsis (``…`` or ``...``) stands for every line that starts so."""
    for start in range(len(printed) - len(expected) + 1):
        if all(_same(want, got) for want, got in zip(expected, printed[start:], strict=False)):
            return True
    return False


def _same(expected: str, printed: str) -> bool:
    for ellipsis in ("…", "..."):
        if expected.endswith(ellipsis):
            return printed.startswith(expected.removesuffix(ellipsis).rstrip())
    return printed == expected
