"""Atomic writes: a killed writer, or two writers at once, leave one whole content, never a mix."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from napari_talk.core.running.session import Session

SIZE = 8 * 1024 * 1024  # the largest text write_file accepts: 8 chunks
OLD = b"o" * (SIZE // 2)

CHILD = rf"""
import os, sys, time
from napari_talk.core.safety import workspace as gate
from napari_talk.core.running.session import Session

workspace, mode = sys.argv[1], sys.argv[2]
session = Session(workspace=workspace)
contents = ["A" * {SIZE}, "B" * {SIZE}]

def stall(*args):
    print("MID", flush=True)
    time.sleep(60)

if mode == "after-first-chunk":
    real_write = os.write
    def write(fd, data):
        written = real_write(fd, data)
        stall()
        return written
    gate.os.write = write
elif mode == "before-rename":
    gate.os.fsync = stall

for index in range(10**6):
    result = session.execute({{"action": "write_file", "path": "big.txt", "content": contents[index % 2]}})
    assert result.ok, result.message
    if index == 0:
        print("WROTE", flush=True)
"""


def start_writer(workspace: Path, mode: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(workspace), mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def kill(child: subprocess.Popen) -> None:
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL


def wait_for(child: subprocess.Popen, word: str) -> None:
    line = child.stdout.readline().strip()
    assert line == word, (line, child.stderr.read() if child.poll() is not None else "")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
@pytest.mark.parametrize("mode", ["after-first-chunk", "before-rename"])
def test_a_writer_killed_mid_write_leaves_the_old_content(workspace, mode):
    target = workspace / "big.txt"
    target.write_bytes(OLD)
    child = start_writer(workspace, mode)
    wait_for(child, "MID")
    temporaries = [p for p in workspace.iterdir() if p.name.endswith(".tmp")]
    assert len(temporaries) == 1 and temporaries[0].stat().st_size > 0  # the new bytes were on their way
    kill(child)
    assert target.read_bytes() == OLD


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_a_writer_killed_at_random_moments_leaves_old_or_new_whole(workspace):
    target = workspace / "big.txt"
    target.write_bytes(OLD)
    whole = {OLD, b"A" * SIZE, b"B" * SIZE}
    rng = random.Random(7)
    for _ in range(6):
        child = start_writer(workspace, "loop")
        wait_for(child, "WROTE")
        threading.Event().wait(rng.uniform(0, 0.08))
        kill(child)
        assert target.read_bytes() in whole


def test_two_threads_writing_one_file_leave_one_whole_content(workspace):
    session = Session(workspace=workspace)
    contents = ["first " * 200_000, "second " * 200_000]
    (workspace / "shared.txt").write_text(contents[0])
    seen: list[str] = []
    done = threading.Event()

    def writer(content: str) -> None:
        for _ in range(15):
            result = session.execute({"action": "write_file", "path": "shared.txt", "content": content})
            assert result.ok, result.message

    def reader() -> None:
        while not done.is_set():
            seen.append((workspace / "shared.txt").read_text())

    threads = [threading.Thread(target=writer, args=(c,)) for c in contents]
    watcher = threading.Thread(target=reader)
    watcher.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    watcher.join()
    assert (workspace / "shared.txt").read_text() in contents
    assert seen and all(text in contents for text in seen)
    assert not [p for p in workspace.iterdir() if p.name.endswith(".tmp")]


def test_concurrent_edits_of_one_file_lose_no_update(workspace):
    session = Session(workspace=workspace)
    (workspace / "doc.md").write_text("alpha beta\n" * 100)
    edit = {"action": "edit_file", "path": "doc.md", "search_text": "alpha", "replace_text": "ALPHA"}

    def edits() -> None:
        for _ in range(25):
            assert session.execute(edit).ok

    threads = [threading.Thread(target=edits) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    final = (workspace / "doc.md").read_text()
    assert final.count("ALPHA") == 75 and final.count("alpha") == 25
