"""Progress on a terminal, for the command line's slow work (a download, a job of ``run``).

tqdm's bar when tqdm is installed and stderr is a terminal; else a plain line: rewritten in place
on a terminal, and on a pipe or in a log one line per tenth of the way, so a log stays short.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


class ProgressLine:
    def __init__(self, label: str, stream: TextIO | None = None, unit: str = "B") -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.unit = unit
        self._bar: Any = None
        self._shown = ""
        self._tenth = -1
        self._last = 0.0
        self._terminal = self.stream.isatty()
        self._tqdm_missing = False

    def count(self, done: int, total: int) -> None:
        """``done`` of ``total`` units (bytes: shown in MB)."""
        if self._terminal and self._tqdm(total) is not None:
            self._bar.n = done
            self._bar.refresh()
            return
        if self.unit == "B":
            text = f"{done / 1e6:.1f} of {total / 1e6:.1f} MB"
        else:
            text = f"{done} of {total}"
        self.status(text, done / total if total else None)

    def status(self, text: str, fraction: float | None = None) -> None:
        """A job's ``Progress.report``: what it does now, and how far it is when it knows."""
        line = f"{self.label}: {text}" + (f" ({fraction:.0%})" if fraction is not None else "")
        if self._terminal:
            now = time.monotonic()
            if now - self._last < 0.1 and fraction != 1.0:
                return
            self._last = now
            padding = " " * max(len(self._shown) - len(line), 0)
            self.stream.write(f"\r{line}{padding}")
            self.stream.flush()
            self._shown = line
            return
        tenth = int(fraction * 10) if fraction is not None else -1
        if fraction is not None and tenth == self._tenth:
            return
        if fraction is None and line == self._shown:
            return
        self._tenth, self._shown = tenth, line
        print(line, file=self.stream, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self._terminal and self._shown:
            self.stream.write("\n")
            self.stream.flush()
        self._shown = ""

    def _tqdm(self, total: int) -> Any:
        if self._bar is None:
            if self._tqdm_missing:
                return None
            try:
                from tqdm import tqdm
            except ImportError:
                self._tqdm_missing = True
                return None
            self._bar = tqdm(
                total=total,
                desc=self.label,
                unit=self.unit,
                unit_scale=True,
                unit_divisor=1024,
                file=self.stream,
            )
        elif self._bar.total != total:
            self._bar.total = total
        return self._bar
