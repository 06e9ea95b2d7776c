"""A session's atlas: its catalogue file in the workspace, its image folder, and its embedder.

The catalogue is opened on first use (``<workspace>/atlas/catalogue.sqlite``) and its settings
(which embedding model, which server) live inside it, so they travel with the file.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from typing import TYPE_CHECKING

from ...core.llm.settings import OPENAI_BASE_URL
from .catalogue import Catalogue
from .embeddings import OFFLINE, Embedder, RemoteConfig, default_model, make_embedder

if TYPE_CHECKING:
    from ...core.workspace import PinnedFile, Workspace

CATALOGUE_FILE = "atlas/catalogue.sqlite"
IMAGES_DIR = "atlas/images"
MODEL_KEY, URL_KEY, KEY_ENV_KEY = "embedding_model", "embedding_base_url", "embedding_api_key_env"
MODEL_ALIASES = {
    **dict.fromkeys(("offline", "built-in", "builtin", "hashed", "hash", "default"), OFFLINE),
    **dict.fromkeys(("minilm", "local", "all-minilm-l6-v2", "sentence-transformers"), "minilm"),
}


class Atlas:
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._catalogue: Catalogue | None = None
        self._pinned: PinnedFile | None = None
        self._embedders: dict[tuple, Embedder] = {}
        self._lock = threading.Lock()

    def exists(self) -> bool:
        return self._catalogue is not None or self.workspace.exists(CATALOGUE_FILE)

    @property
    def catalogue(self) -> Catalogue:
        with self._lock:
            if self._catalogue is None:
                pinned = self.workspace.sqlite_path(CATALOGUE_FILE)
                try:
                    catalogue = Catalogue(pinned.path)
                except BaseException:
                    pinned.release()
                    raise
                try:
                    pinned.verify()
                except BaseException:
                    catalogue.close()
                    pinned.release()
                    raise
                self._catalogue, self._pinned = catalogue, pinned
                if self._catalogue.setting(MODEL_KEY) is None:
                    self._catalogue.set_setting(MODEL_KEY, default_model())
            return self._catalogue

    def close(self) -> None:
        with self._lock:
            if self._catalogue is not None:
                self._catalogue.close()
                self._catalogue = None
            if self._pinned is not None:
                self._pinned.release()
                self._pinned = None

    # -- the embedding model --------------------------------------------------------------------

    def model(self) -> tuple[str, RemoteConfig | None]:
        catalogue = self.catalogue
        model = catalogue.setting(MODEL_KEY) or OFFLINE
        if model in (OFFLINE, "minilm"):
            return model, None
        remote = RemoteConfig(
            model=model,
            base_url=catalogue.setting(URL_KEY) or OPENAI_BASE_URL,
            api_key_env=catalogue.setting(KEY_ENV_KEY) or "OPENAI_API_KEY",
        )
        return model, remote

    def embedder(self, model: str | None = None, remote: RemoteConfig | None = None) -> Embedder:
        """The embedder of ``model`` (default: the catalogue's), made once; raises EmbeddingError."""
        if model is None:
            model, remote = self.model()
        key = (model, remote)
        with self._lock:
            if key not in self._embedders:
                self._embedders[key] = make_embedder(model, remote)
            return self._embedders[key]

    def choose(
        self, model: str, base_url: str | None = None, api_key_env: str | None = None
    ) -> tuple[str, RemoteConfig | None]:
        """What a typed model name means: ``offline``, ``minilm``, or a model on a server."""
        model = MODEL_ALIASES.get(model.strip().casefold(), model.strip())
        if model in (OFFLINE, "minilm"):
            return model, None
        return model, RemoteConfig(model, base_url or OPENAI_BASE_URL, api_key_env or "OPENAI_API_KEY")

    def use(self, model: str, remote: RemoteConfig | None) -> None:
        """Make ``model`` the catalogue's embedding model."""
        catalogue = self.catalogue
        catalogue.set_setting(MODEL_KEY, model)
        if remote is not None:
            catalogue.set_setting(URL_KEY, remote.base_url)
            catalogue.set_setting(KEY_ENV_KEY, remote.api_key_env)

    def settings(self) -> dict[str, str]:
        keys = (MODEL_KEY, URL_KEY, KEY_ENV_KEY)
        return {k: v for k in keys if (v := self.catalogue.setting(k)) is not None}

    def restore_settings(self, saved: dict[str, str]) -> None:
        for key, value in saved.items():
            self.catalogue.set_setting(key, value)

    # -- images ---------------------------------------------------------------------------------

    def new_image_path(self, name: str, suffix: str, folder: str = IMAGES_DIR) -> str:
        """A free workspace-relative file name for an entity's image under the atlas folder."""
        stem = slug(name)
        candidate = f"{folder}/{stem}{suffix}"
        number = 2
        while self.workspace.exists(candidate):
            candidate = f"{folder}/{stem}-{number}{suffix}"
            number += 1
        return candidate


def slug(name: str) -> str:
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-")[:60] or "entity"
