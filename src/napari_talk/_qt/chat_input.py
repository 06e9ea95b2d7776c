"""The chat input line: Enter sends, Up/Down walk the history, Tab completes."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from qtpy.QtCore import QEvent, Qt, Signal
from qtpy.QtGui import QKeyEvent
from qtpy.QtWidgets import QLineEdit

from ..core.help.completion import complete


class ChatInput(QLineEdit):
    submitted = Signal(str)
    completions_shown = Signal(list)

    def __init__(self, candidates: Callable[[], Iterable[str]], parent=None) -> None:
        super().__init__(parent)
        self._candidates = candidates
        self._history: list[str] = []
        self._cursor = 0
        self._draft = ""
        self.setPlaceholderText('Type a request: "hide nuclei", "zoom to 300%", "help" …')
        self.setClearButtonEnabled(True)
        self.returnPressed.connect(self._submit)

    @property
    def history(self) -> list[str]:
        return list(self._history)

    def _submit(self) -> None:
        text = self.text().strip()
        if not text:
            return
        if not self._history or self._history[-1] != text:
            self._history.append(text)
        self._cursor = len(self._history)
        self.clear()
        self.submitted.emit(text)

    def event(self, event: QEvent | None) -> bool:
        # Tab would move the focus before keyPressEvent sees it.
        if isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Tab:
            self._complete()
            return True
        return super().event(event)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Up:
            self._walk(-1)
        elif event.key() == Qt.Key.Key_Down:
            self._walk(+1)
        else:
            super().keyPressEvent(event)

    def _walk(self, step: int) -> None:
        if not self._history:
            return
        if self._cursor == len(self._history):
            self._draft = self.text()
        self._cursor = max(0, min(len(self._history), self._cursor + step))
        text = self._draft if self._cursor == len(self._history) else self._history[self._cursor]
        self.setText(text)

    def _complete(self) -> None:
        text, options = complete(self.text(), self._candidates())
        self.setText(text)
        if len(options) > 1:
            self.completions_shown.emit(options)
