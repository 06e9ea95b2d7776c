"""A process that ends while the ray kernels load in the background waits for them: numba
compiling as the interpreter shuts down crashed napari as it quit (a segmentation fault)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_a_process_ending_while_the_kernels_load_waits_for_them_and_exits_cleanly():
    script = textwrap.dedent(
        """
        import atexit, sys, threading, time

        def last_word():
            loaded = sys.modules["napari_talk.packs.rays.engine"].kernels_loaded()
            print("kernels loaded at the very end:", loaded, flush=True)

        # registered before napari-talk's wait for native work, so it runs after it (last in, first out)
        atexit.register(last_word)

        from napari_talk.core.basics import native_work
        from napari_talk.packs.rays.kernels import load_kernels

        threading.Thread(target=load_kernels, daemon=True, name="napari-talk-packs").start()
        deadline = time.monotonic() + 60
        while not native_work.running() and time.monotonic() < deadline:
            time.sleep(0.001)
        print("leaving while the kernels load:", native_work.running() > 0, flush=True)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "leaving while the kernels load: True" in done.stdout
    assert "kernels loaded at the very end: True" in done.stdout
