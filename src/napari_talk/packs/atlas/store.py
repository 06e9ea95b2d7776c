"""A session's atlas: its catalogue file in the workspace, its image folder, and its embedder.

The catalogue is opened on first use (``<workspace>/atlas/catalogue.sqlite``). It records which
embedding model its vectors come from, so that travels with the file; *where* that model runs and
which key goes there are the person's settings, never the file's: a catalogue from someone else
cannot send anything to a server of its choosing.
"""

from __future__ import annotations

import re
import threading
import time
import unicodedata
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ...core.chat.settings import OPENAI_BASE_URL, LLMSettings
from ...core.sentences import minilm_files
from .catalogue import Catalogue
from .catalogue_store import CatalogueStore, checked
from .embeddings import (
    LOCAL_MODELS,
    MINILM,
    MINILM_INT8,
    OFFLINE,
    Embedder,
    EmbeddingError,
    Remembered,
    RemoteConfig,
    WeightsMissing,
    default_model,
    make_embedder,
    needs_download,
)
from .pg_connection import shown
from .postgres import PostgresCatalogue
from .settings import AtlasSettings

if TYPE_CHECKING:
    from ...core.safety.workspace import PinnedFile, Workspace

CATALOGUE_FILE = "atlas/catalogue.sqlite"
IMAGES_DIR = "atlas/images"
MODEL_KEY = "embedding_model"
MODEL_ALIASES = {
    **dict.fromkeys(("offline", "built-in", "builtin", "hashed", "hash", "default"), OFFLINE),
    **dict.fromkeys(("minilm", "local", "all-minilm-l6-v2", "sentence-transformers"), "minilm"),
    **dict.fromkeys(("minilm-int8", "minilm int8", "int8", "quantized", "quantized minilm"), MINILM_INT8),
}
RETRY_AFTER = 120.0
"""Seconds a failed download of the sentence model is not tried again (searches meanwhile match words
at once instead of waiting on a network that is away); `napari-talk atlas download-model` tries now."""


class Atlas:
    def __init__(self, workspace: Workspace, settings: AtlasSettings | None = None) -> None:
        self.workspace = workspace
        self.config = (settings or AtlasSettings()).resolved()
        """The person's atlas settings, ``$NAPARI_TALK_ATLAS_DATABASE`` applied."""
        self._catalogue: CatalogueStore | None = None
        self._pinned: PinnedFile | None = None
        self.remote: RemoteConfig | None = None
        """Where the person chose to run the catalogue's model in this session."""
        self._embedders: dict[tuple, Embedder] = {}
        self._lock = threading.Lock()
        self._names: list[str] = []
        """The entity names as last read, for the parser (which never waits for the catalogue)."""
        self._reading_names: threading.Thread | None = None
        self._download_failed: tuple[str, float] | None = None
        self.standing_in: str | None = None
        """Why the last embedder handed out matches words where the catalogue's model is MiniLM."""
        self.warming = threading.RLock()
        """Held while the background warm-up embeds, or a command takes the sample up: whichever
        comes second waits and then uses (or skips) the first one's work (see :mod:`.warm_up`)."""
        self.last_results: list[str] = []
        """The names the last search or listing showed, in order: what "open the first one" opens."""

    def exists(self) -> bool:
        return (
            self._catalogue is not None or bool(self.config.database) or self.workspace.exists(CATALOGUE_FILE)
        )

    @property
    def where(self) -> str:
        """Where the catalogue lives, as it may be shown (a database URL without its password)."""
        url = self.config.database
        return shown(url) if url else CATALOGUE_FILE

    @property
    def catalogue(self) -> CatalogueStore:
        """The catalogue, opened on first use: on the PostgreSQL database of the person's
        ``atlas.database`` setting, else in the workspace's SQLite file."""
        with self._lock:
            if self._catalogue is None and self.config.database:
                self._catalogue = checked(PostgresCatalogue(self.config.database))
                if self._catalogue.setting(MODEL_KEY) is None:
                    self._catalogue.set_setting(MODEL_KEY, default_model())
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
                self._catalogue, self._pinned = checked(catalogue), pinned
                if self._catalogue.setting(MODEL_KEY) is None:
                    self._catalogue.set_setting(MODEL_KEY, default_model())
            return self._catalogue

    def names_now(self) -> list[str]:
        """The entity names, at once: the catalogue's if it has them ready, else the last known
        while a worker thread reads them (a file opened for the first time, another process's
        write, a query that a hostile file makes slow: none of them holds up a typed line)."""
        catalogue = self._catalogue
        ready = catalogue.names_if_known() if catalogue is not None else None
        if ready is not None:
            self._names = ready
        elif self.exists():
            self._read_names_later()
        return self._names

    def _read_names_later(self) -> None:
        with self._lock:
            if self._reading_names is not None and self._reading_names.is_alive():
                return
            self._reading_names = threading.Thread(target=self._read_names, name="atlas names", daemon=True)
            self._reading_names.start()

    def _read_names(self) -> None:
        try:
            self._names = self.catalogue.names()
        except Exception:  # the next command says what is wrong with the file; the parser goes on
            self._names = []

    def warmed(self) -> None:
        """Wait for a warm-up under way (slow work only: never on the GUI thread), so its work is
        used rather than done a second time beside it."""
        with self.warming:
            pass

    def close(self) -> None:
        with self._lock:
            if self._catalogue is not None:
                self._catalogue.close()
                self._catalogue = None
            if self._pinned is not None:
                self._pinned.release()
                self._pinned = None

    # -- the embedding model --------------------------------------------------------------------

    def model(self, llm: LLMSettings | None = None) -> tuple[str, RemoteConfig | None]:
        """The catalogue's model, and where it runs: the server the person chose for it in this
        session, else the person's LLM server, else OpenAI (settings stored in the file, as
        earlier versions wrote them, are ignored)."""
        model = self.catalogue.setting(MODEL_KEY) or OFFLINE
        if model in LOCAL_MODELS:
            return model, None
        if self.remote is not None and self.remote.model == model:
            return model, self.remote
        return self.choose(model, None, llm)

    def embedder(
        self,
        model: str | None = None,
        remote: RemoteConfig | None = None,
        llm: LLMSettings | None = None,
        download: minilm_files.Watch | None = None,
    ) -> Embedder:
        """The embedder of ``model`` (default: the catalogue's), made once; raises EmbeddingError
        (:class:`WeightsMissing` when MiniLM's files are not here). With ``download`` (slow work,
        off the GUI thread) MiniLM's files are downloaded first when they are missing."""
        if model is None:
            model, remote = self.model(llm)
            if remote is not None and remote is not self.remote and llm is None:
                raise EmbeddingError(
                    f"this catalogue's vectors come from {model!r}, a model on a server, and no server "
                    f'is chosen for it: say "set the embedding model to {model}" (with the server\'s '
                    'URL), set up a language model, or "use the offline embedder"'
                )
        key = (model, remote)
        if download is not None and key not in self._embedders and needs_download(model):
            self.download_sentence_model(download)
        with self._lock:
            if key not in self._embedders:
                made = make_embedder(model, remote)
                self._embedders[key] = Remembered(made) if model in (MINILM, MINILM_INT8) else made
            return self._embedders[key]

    def download_sentence_model(self, watch: minilm_files.Watch) -> None:
        """MiniLM's files into the user's cache from the configured location; raises WeightsMissing
        with the reason when they cannot be had (remembered for :data:`RETRY_AFTER` seconds)."""
        failed = self._download_failed
        if failed is not None and time.monotonic() - failed[1] < RETRY_AFTER:
            raise WeightsMissing(failed[0])
        try:
            minilm_files.fetch(minilm_files.location(self.config.model_url), watch)
        except minilm_files.Stopped as exc:
            raise WeightsMissing(str(exc)) from None
        except minilm_files.ModelFilesError as exc:
            self._download_failed = (str(exc), time.monotonic())
            raise WeightsMissing(str(exc)) from None
        self._download_failed = None

    def words_instead(self, why: str) -> Embedder:
        """The offline embedder, standing in for a MiniLM that cannot be had (``why``: the reply
        says it)."""
        embedder = self.embedder(OFFLINE)
        self.standing_in = why
        return embedder

    @staticmethod
    def choose(
        model: str, base_url: str | None = None, llm: LLMSettings | None = None
    ) -> tuple[str, RemoteConfig | None]:
        """What a model name means: ``offline``, ``minilm``, or a model on a server. The person's
        API key goes only to the server it is configured for (the LLM's, or OpenAI's by default);
        any other server gets none."""
        model = MODEL_ALIASES.get(model.strip().casefold(), model.strip())
        if model in LOCAL_MODELS:
            return model, None
        home = llm.base_url if llm is not None else OPENAI_BASE_URL
        key_env = llm.api_key_env if llm is not None else "OPENAI_API_KEY"
        url = base_url or home
        return model, RemoteConfig(model, url, key_env, send_key=_same_server(url, home))

    def use(self, model: str, remote: RemoteConfig | None) -> None:
        """Make ``model`` the catalogue's embedding model; ``remote`` is where it runs, for this
        session only (the file records the model, not the server)."""
        self.catalogue.set_setting(MODEL_KEY, model)
        self.remote = remote

    def settings(self) -> tuple[str | None, RemoteConfig | None]:
        return self.catalogue.setting(MODEL_KEY), self.remote

    def restore_settings(self, saved: tuple[str | None, RemoteConfig | None]) -> None:
        model, self.remote = saved
        if model is not None:
            self.catalogue.set_setting(MODEL_KEY, model)

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


def _same_server(url: str, home: str) -> bool:
    a, b = urlsplit(url), urlsplit(home)
    return (a.scheme, a.hostname, a.port) == (b.scheme, b.hostname, b.port)
