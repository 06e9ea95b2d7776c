"""The settings dialog: the language model (with a connection test), the workspace folder, the
private hosts URLs may be fetched from, and each field of a pack's section that asks to be shown
here (its ``json_schema_extra`` gives a ``placeholder``: the atlas's catalogue database). A pack's
other fields are kept as they are: napari's Preferences page shows them."""

from __future__ import annotations

import threading
from typing import Any, get_args

from pydantic import BaseModel, ValidationError
from qtpy.QtCore import QObject, Signal
from qtpy.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from ..core.chat.client import LLMError
from ..core.chat.settings import SCHEMA_FORMS, LLMSettings, Mode
from ..core.llm.probe import Abilities, probe
from ..core.running.settings import NetworkSettings, Settings, WorkspaceSettings, pack_sections

PRESETS = {
    "OpenAI": "https://api.openai.com/v1",
    "Ollama": "http://localhost:11434/v1",
    "vLLM": "http://localhost:8000/v1",
    "llama.cpp server": "http://localhost:8080/v1",
    "LM Studio": "http://localhost:1234/v1",
}


class _Probe(QObject):
    done = Signal(object)
    """An :class:`Abilities`, or the error's text."""


class SettingsDialog(QDialog):
    def __init__(self, current: Settings, session_key: str | None = None, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("napari-talk settings")
        settings = current.llm
        self.workspace = QLineEdit(current.workspace.root)
        self.workspace.setPlaceholderText(str(WorkspaceSettings().path()))
        self.allowed_hosts = QLineEdit(current.network.allowed_hosts)
        self.allowed_hosts.setPlaceholderText("none: only public hosts (e.g. localhost, 192.168.1.20)")
        self.allowed_hosts.setToolTip(NetworkSettings.model_fields["allowed_hosts"].description)
        self._current = current
        self._pack_fields = _pack_fields(current)
        self.model = QLineEdit(settings.model)
        self.model.setPlaceholderText("gpt-4o-mini, llama3.1, qwen2.5:7b … (empty: no LLM)")
        self.preset = QComboBox()
        self.preset.addItems(["(choose a server)", *PRESETS])
        self.base_url = QLineEdit(settings.base_url)
        self.key_env = QLineEdit(settings.api_key_env)
        self.session_key = QLineEdit(session_key or "")
        self.session_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.session_key.setPlaceholderText("optional: used for this session only, never saved")
        self.mode = QComboBox()
        self.mode.addItems(list(get_args(Mode)))
        self.mode.setCurrentText(settings.mode)
        self.mode.setToolTip(LLMSettings.model_fields["mode"].description)
        self.schema_form = QComboBox()
        self.schema_form.addItems(list(SCHEMA_FORMS))
        self.schema_form.setCurrentText(settings.schema_form)
        self.schema_form.setToolTip(LLMSettings.model_fields["schema_form"].description)
        self.timeout = QDoubleSpinBox()
        self.timeout.setRange(1, 600)
        self.timeout.setSuffix(" s")
        self.timeout.setValue(settings.timeout)
        self.allow_destructive = QCheckBox("run destructive commands without asking")
        self.allow_destructive.setChecked(settings.allow_destructive)
        self.test_button = QPushButton("Test connection")
        self.test_result = QLabel()
        self.test_result.setWordWrap(True)
        self._retries = settings.max_retries
        self._shortlist = settings.shortlist

        form = QFormLayout()
        form.addRow("Model", self.model)
        form.addRow("Server", self.preset)
        form.addRow("Base URL", self.base_url)
        form.addRow("Key variable", self.key_env)
        form.addRow("Key (session)", self.session_key)
        form.addRow("Mode", self.mode)
        form.addRow("Schema form", self.schema_form)
        form.addRow("Timeout", self.timeout)
        form.addRow("", self.allow_destructive)
        form.addRow("Workspace folder", self.workspace)
        form.addRow("Allowed hosts", self.allowed_hosts)
        for (section, key), edit in self._pack_fields.items():
            form.addRow(pack_sections()[section][0].model_fields[key].title or key, edit)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.test_button)
        layout.addWidget(self.test_result)
        layout.addWidget(buttons)

        self.preset.currentTextChanged.connect(self._apply_preset)
        self.test_button.clicked.connect(self.test_connection)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self._probe = _Probe()
        self._probe.done.connect(self._show_test_result)

    def field(self, section: str, key: str) -> QLineEdit:
        """The line edit of one pack's field (``field("atlas", "database")``)."""
        return self._pack_fields[(section, key)]

    def accept(self) -> None:
        """A pack's field its model refuses (a database that is not a postgresql:// URL) is said
        at once; the dialog stays open."""
        try:
            self._pack_sections()
        except ValidationError as exc:
            self.test_result.setText(str(exc.errors()[0]["msg"]).removeprefix("Value error, "))
            return
        super().accept()

    def settings(self) -> Settings:
        return self._current.model_copy(
            update={
                "llm": self.llm_settings(),
                "workspace": WorkspaceSettings(root=self.workspace.text().strip()),
                "network": NetworkSettings(allowed_hosts=self.allowed_hosts.text().strip()),
                **self._pack_sections(),
            }
        )

    def _pack_sections(self) -> dict[str, BaseModel]:
        """The sections with a field shown here, as typed (each validated by its pack's model)."""
        typed: dict[str, dict[str, Any]] = {}
        for (section, key), edit in self._pack_fields.items():
            typed.setdefault(section, {})[key] = edit.text()
        return {
            section: pack_sections()[section][0].model_validate(
                {**self._current.section(section).model_dump(), **values}
            )
            for section, values in typed.items()
        }

    def llm_settings(self) -> LLMSettings:
        return LLMSettings(
            model=self.model.text().strip(),
            base_url=self.base_url.text().strip(),
            api_key_env=self.key_env.text().strip() or "OPENAI_API_KEY",
            mode=self.mode.currentText(),
            schema_form=self.schema_form.currentText(),
            shortlist=self._shortlist,
            timeout=self.timeout.value(),
            max_retries=self._retries,
            allow_destructive=self.allow_destructive.isChecked(),
        )

    def typed_key(self) -> str | None:
        return self.session_key.text() or None

    def _apply_preset(self, name: str) -> None:
        if name in PRESETS:
            self.base_url.setText(PRESETS[name])

    def test_connection(self) -> None:
        """Find out, off the GUI thread, what the server honours; then choose the mode that suits it."""
        self.test_button.setEnabled(False)
        self.test_result.setText("testing…")
        settings, key = self.llm_settings(), self.typed_key()

        def run() -> None:
            try:
                self._probe.done.emit(probe(settings, key))
            except LLMError as exc:
                self._probe.done.emit(f"✗ {exc}")

        threading.Thread(target=run, daemon=True).start()

    def _show_test_result(self, found: Abilities | str) -> None:
        self.test_button.setEnabled(True)
        if isinstance(found, str):
            self.test_result.setText(found)
            return
        local = self.llm_settings().local
        mode, form = found.best(local)
        self.mode.setCurrentText(mode)
        if form is not None:
            self.schema_form.setCurrentText(form)
        self.test_result.setText(found.summary(local) + " (chosen above; OK keeps it)")


def _pack_fields(current: Settings) -> dict[tuple[str, str], QLineEdit]:
    """A line edit for each pack's text field that asks to be shown in the dialog."""
    edits = {}
    for section, (model, _) in pack_sections().items():
        for key, spec in model.model_fields.items():
            extra = spec.json_schema_extra
            placeholder = extra.get("placeholder") if isinstance(extra, dict) else None
            if isinstance(placeholder, str):
                edit = QLineEdit(str(getattr(current.section(section), key)))
                edit.setPlaceholderText(placeholder)
                edit.setToolTip(spec.description or "")
                edits[(section, key)] = edit
    return edits
