"""The chat dock: type what you want the viewer to do."""

from __future__ import annotations

from typing import TYPE_CHECKING

from qtpy.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..session import Session, Turn
from .chat_input import ChatInput
from .transcript import Transcript

if TYPE_CHECKING:
    import napari

GREETING = (
    'Type what you want: "hide nuclei", "zoom to 300%", "fit GFP then center on 100 200". "help" lists more.'
)


class ChatDock(QWidget):
    def __init__(self, napari_viewer: napari.viewer.Viewer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.viewer = napari_viewer
        self.session = Session(napari_viewer, window=self)
        self.transcript = Transcript(self)
        self.input = ChatInput(self._completion_candidates, self)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.clear_button = QPushButton("Clear", self)
        self.clear_button.setToolTip("Clear the transcript (the undo history stays)")

        footer = QHBoxLayout()
        footer.addWidget(self.status, 1)
        footer.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.transcript, 1)
        layout.addWidget(self.input)
        layout.addLayout(footer)

        self.input.submitted.connect(self.send)
        self.input.completions_shown.connect(self._show_completions)
        self.clear_button.clicked.connect(self.transcript.reset)
        self.transcript.add("reply", GREETING)
        self._update_status()

    def send(self, text: str) -> Turn:
        """Run a line as if typed, and show it (the parser road runs on the GUI thread: µs)."""
        turn = self.session.run(text)
        self.transcript.add_turn(turn)
        self._update_status()
        return turn

    def _update_status(self) -> None:
        self.status.setText(self.session.llm_status())

    def _show_completions(self, options: list[str]) -> None:
        self.status.setText("  ·  ".join(options))

    def _completion_candidates(self) -> list[str]:
        names = self.session.known_names()
        words = {
            word
            for cls in self.session.registry.commands.values()
            for example in cls.examples
            for word in example.split()[:2]
            if word.isalpha() and len(word) > 2
        }
        return [*names.get("layers", []), *names.get("panels", []), *sorted(words)]
