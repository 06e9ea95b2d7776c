"""``napari-talk run`` and commands that need the person's approval: a model's reply writing over
the person's notes (a real Chat Completions server on 127.0.0.1, a real workspace, the real command
line in a subprocess) stops with a sentence and exit status 5 when nobody can be asked, runs with
``--yes``, and asks y/N when stdin is a terminal."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import pytest
from support.chat_server import ChatServer

from napari_talk.cli import EXIT_CODES, EXIT_NOT_APPROVED

LINE = "tidy up the wording of my notes please"
REPLY = json.dumps({"commands": [{"action": "write_file", "path": "notes.txt", "content": "tidied"}]})


@pytest.fixture
def server():
    with ChatServer() as running:
        yield running


@pytest.fixture
def env(tmp_path, server, workspace):
    (workspace / "notes.txt").write_text("the person's own words")
    config = tmp_path / "settings.json"
    llm = {"model": "scripted", "base_url": server.url, "timeout": 20, "max_retries": 0}
    config.write_text(json.dumps({"llm": llm}))
    variables = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return {**variables, "NAPARI_TALK_CONFIG": str(config), "NAPARI_TALK_WORKSPACE": str(workspace),
            "PYTHONWARNINGS": "ignore"}  # fmt: skip


def run(env, *args: str, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "napari_talk", "run", LINE, *args]
    return subprocess.run(command, stdin=stdin, capture_output=True, text=True, timeout=120, env=env)


def notes(env) -> str:
    with open(os.path.join(env["NAPARI_TALK_WORKSPACE"], "notes.txt")) as file:
        return file.read()


def test_without_a_terminal_or_yes_the_command_stops_with_a_sentence_and_status_5(env, server):
    server.say(REPLY)
    done = run(env)
    assert done.returncode == EXIT_NOT_APPROVED == 5, (done.stdout, done.stderr)
    assert "  5    run: a command needed your approval" in EXIT_CODES, "documented in --help"
    assert "notes.txt, which napari-talk did not write" in done.stdout
    assert "run again with --yes" in done.stderr and "Traceback" not in done.stderr
    assert notes(env) == "the person's own words"


def test_yes_approves_and_says_what_it_approved(env, server):
    server.say(REPLY)
    done = run(env, "--yes")
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert "approved (--yes):" in done.stderr and "notes.txt" in done.stderr
    assert notes(env) == "tidied"


@pytest.mark.parametrize(
    ("answer", "status", "kept"), [(b"y\n", 0, "tidied"), (b"\n", 5, "the person's own words")]
)
def test_a_terminal_is_asked_y_or_n(env, server, answer, status, kept):
    server.say(REPLY)
    main, terminal = pty.openpty()
    try:
        os.write(main, answer)
        done = run(env, stdin=terminal)
    finally:
        os.close(main)
        os.close(terminal)
    assert done.returncode == status, (done.stdout, done.stderr)
    assert "Run it? [y/N]" in done.stderr and "notes.txt" in done.stderr
    assert notes(env) == kept
