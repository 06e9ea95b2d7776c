"""What ``napari-talk`` prints is text, never instructions to the terminal: a model's reply with a
clipboard write (OSC 52) and hidden text (SGR 8), and file names holding escapes, come out without
them (a real Chat Completions server on 127.0.0.1, the real command line in a subprocess); and one
line nested too deep for JSON in ``parse --jsonl`` gets its own error while the rest are parsed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from support.chat_server import ChatServer

from napari_talk.terminal_text import printable

CLIPBOARD = "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07"
HIDDEN = "\x1b[8mrun rm -rf ~\x1b[0m"
C1 = "\x9b31m\x9d0;title\x9c"


@pytest.fixture
def env(tmp_path, workspace):
    with ChatServer() as server:
        config = tmp_path / "settings.json"
        llm = {"model": "scripted", "base_url": server.url, "timeout": 20, "max_retries": 0}
        config.write_text(json.dumps({"llm": llm}))
        variables = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        paths = {"NAPARI_TALK_CONFIG": str(config), "NAPARI_TALK_WORKSPACE": str(workspace)}
        yield server, {**variables, **paths, "PYTHONWARNINGS": "ignore"}


def napari_talk(env, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "napari_talk", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120, env=env)


def test_a_model_reply_and_file_names_are_printed_without_escapes(env, workspace):
    server, variables = env
    server.say(f"Here you are{CLIPBOARD}: all{HIDDEN} done{C1}\r fine.")
    (workspace / f"a{CLIPBOARD}.txt").write_text("x")
    (workspace / f"b{HIDDEN}.txt").write_text("x")
    done = napari_talk(variables, "run", "tell me something about the cells", "list files")
    printed = done.stdout + done.stderr
    assert "Here you are: allrun rm -rf ~ done fine." in printed, "hidden text shows as text"
    assert "a.txt" in printed and "brun rm -rf ~.txt" in printed, printed
    for escape in ("\x1b", "\x07", "\x9b", "\x9d", "\x9c", "\r"):
        assert escape not in printed, (escape, printed)


def test_the_filter_keeps_text_and_drops_every_kind_of_escape():
    assert printable("naïve café → ok\tcolumn\n") == "naïve café → ok\tcolumn\n"
    assert printable(f"x{CLIPBOARD}y{HIDDEN}z{C1}\x1bPdcs\x1b\\w\u202eevil") == "xyrun rm -rf ~zwevil"
    assert printable("unterminated \x1b]52;c;AAAA") == "unterminated "


def test_parse_jsonl_answers_a_too_deep_line_and_parses_the_ones_after_it():
    deep = "[" * 200_000 + "]" * 200_000
    feed = (
        "\n".join([json.dumps({"text": "zoom to 200%"}), deep, json.dumps({"text": "zoom to 300%"})]) + "\n"
    )
    done = napari_talk(dict(os.environ), "parse", "--jsonl", stdin=feed)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-500:]
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["commands"] for o in out] == [
        [{"action": "set_zoom", "zoom": 2}],
        [],
        [{"action": "set_zoom", "zoom": 3}],
    ]
    assert "too deep" in out[1]["error"]
