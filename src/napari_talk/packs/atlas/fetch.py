"""Images from http(s) URLs and from bytes: bounded in time, in size and in pixels.

A download stops at ``max_bytes`` (the announced length is checked first, then what really
arrives) and at ``timeout`` seconds overall, not only per read. Decoding refuses pictures of more
than ``MAX_PIXELS`` pixels (decompression bombs) and anything that is not an image.
"""

from __future__ import annotations

import io
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import numpy as np

MAX_BYTES = 20 * 1024 * 1024
TIMEOUT = 10.0
MAX_PIXELS = 64_000_000
CHUNK = 64 * 1024
USER_AGENT = "napari-talk-atlas/1"


class ImageError(Exception):
    """An image that cannot be had: one line saying why."""


@dataclass(frozen=True)
class Download:
    url: str
    data: bytes
    content_type: str


def is_url(text: str) -> bool:
    return urlparse(text.strip()).scheme.lower() in ("http", "https")


def download(url: str, *, timeout: float | None = None, max_bytes: int | None = None) -> Download:
    """The body of ``url`` (http or https only), or an :class:`ImageError` saying why not.

    The limits default to :data:`TIMEOUT` and :data:`MAX_BYTES` as they are at call time.
    """
    timeout = TIMEOUT if timeout is None else timeout
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    parsed = urlparse(url.strip())
    if parsed.scheme.lower() not in ("http", "https") or not parsed.hostname:
        raise ImageError(f"{url!r} is not an http(s) URL")
    deadline = time.monotonic() + timeout
    request = urllib.request.Request(url.strip(), headers={"User-Agent": USER_AGENT, "Accept": "image/*"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            announced = response.headers.get("Content-Length")
            if announced and announced.isdigit() and int(announced) > max_bytes:
                raise ImageError(f"{url} is {_size(int(announced))}, over the {_size(max_bytes)} limit")
            chunks, total = [], 0
            while True:
                if time.monotonic() > deadline:
                    raise ImageError(f"{url} took longer than {timeout:g} s to download")
                chunk = response.read(CHUNK)
                if not chunk:
                    break
                total += len(chunk)
                if total > max_bytes:
                    raise ImageError(f"{url} is larger than the {_size(max_bytes)} limit")
                chunks.append(chunk)
            content_type = response.headers.get_content_type()
    except ImageError:
        raise
    except urllib.error.HTTPError as exc:
        raise ImageError(f"{url} answered {exc.code} {exc.reason}") from None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, TimeoutError) or "timed out" in str(reason):
            raise ImageError(f"{url} did not answer within {timeout:g} s") from None
        raise ImageError(f"cannot reach {url}: {reason}") from None
    except TimeoutError:
        raise ImageError(f"{url} did not answer within {timeout:g} s") from None
    except (OSError, ValueError) as exc:
        raise ImageError(f"cannot download {url}: {exc}") from None
    return Download(url, b"".join(chunks), content_type)


def decode(data: bytes, source: str) -> np.ndarray:
    """Pixels of an encoded image (PNG, JPEG, GIF, WebP, BMP, TIFF, ...): (h, w) or (h, w, c)."""
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        with Image.open(io.BytesIO(data)) as picture:
            if picture.width * picture.height > MAX_PIXELS:
                raise ImageError(f"{source} has {picture.width}×{picture.height} pixels, too many to analyze")
            if picture.mode in ("P", "PA", "CMYK", "YCbCr", "LAB", "HSV", "1"):
                picture = picture.convert("RGBA" if "A" in picture.mode else "RGB")
            return np.asarray(picture)
    except ImageError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError) as exc:
        if isinstance(exc, Image.DecompressionBombError):
            raise ImageError(f"{source} has too many pixels to analyze") from None
        raise ImageError(f"{source} is not an image (or not in a format this can read)") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise ImageError(f"{source} could not be decoded as an image: {exc}") from None


def read_file(path: Path, source: str, max_bytes: int = MAX_BYTES * 10) -> np.ndarray:
    """Pixels of an image file; TIFF and NumPy files as microscopes write them, others by Pillow."""
    if not path.is_file():
        raise ImageError(f"{source} is not a file")
    if path.stat().st_size > max_bytes:
        raise ImageError(f"{source} is {_size(path.stat().st_size)}, over the {_size(max_bytes)} limit")
    suffix = path.suffix.lower()
    if suffix == ".npy":
        try:
            return np.load(path, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise ImageError(f"{source} is not a NumPy array file: {exc}") from None
    if suffix in (".tif", ".tiff"):
        try:
            import tifffile

            return tifffile.imread(path)
        except ImportError:
            pass
        except Exception as exc:  # tifffile raises many kinds for a broken file
            raise ImageError(f"{source} is not a readable TIFF: {exc}") from None
    return decode(path.read_bytes(), source)


def _size(count: int) -> str:
    return f"{count / 1024 / 1024:.1f} MB" if count >= 1024 * 1024 else f"{count / 1024:.0f} kB"
