"""Images from http(s) URLs and from bytes: bounded in time, in size and in pixels.

A download stops at ``max_bytes`` (the announced length is checked first, then what really
arrives) and at ``timeout`` seconds overall, not only per read. Decoding refuses pictures of more
than ``MAX_PIXELS`` pixels (decompression bombs) and anything that is not an image.
"""

from __future__ import annotations

import io
from pathlib import Path
from urllib.parse import urlparse

import numpy as np

from ...core.safety.net import Download, NetError, NetPolicy

MAX_BYTES = 20 * 1024 * 1024
TIMEOUT = 10.0
MAX_PIXELS = 25_000_000
"""More pixels than this is refused from the header, before decoding (a 0.3 MB PNG can hold 64 M)."""
MAX_DECODED_BYTES = 512 * 1024 * 1024
"""What the decoded pixels of one file may take in memory, checked from the header's shape and
value type before anything is decoded (a 1.6 MB compressed TIFF can declare gigabytes)."""
ANALYSIS_PIXELS = 4_000_000
"""Pictures are measured on a copy shrunk to about this many pixels."""
CHUNK = 64 * 1024
USER_AGENT = "napari-talk-atlas/1"


class ImageError(Exception):
    """An image that cannot be had: one line saying why."""


def is_url(text: str) -> bool:
    return urlparse(text.strip()).scheme.lower() in ("http", "https")


def download(url: str, net: NetPolicy) -> Download:
    """The body of ``url`` within :data:`TIMEOUT` and :data:`MAX_BYTES` (as they are at call
    time), through the session's network policy; an :class:`ImageError` saying why not."""
    try:
        return net.fetch(url.strip(), timeout=TIMEOUT, max_bytes=MAX_BYTES, accept="image/*")
    except NetError as exc:
        raise ImageError(str(exc)) from None


def decode(data: bytes, source: str, *, shrink_to: int | None = None) -> np.ndarray:
    """Pixels of an encoded image: (h, w) or (h, w, c). PNG, JPEG, GIF, WebP, BMP... by Pillow;
    TIFF and NumPy files as microscopes write them. The pixel count is read from the header and
    checked before anything is decoded; ``shrink_to`` bounds the pixels kept (for measuring)."""
    suffix = Path(urlparse(source).path if is_url(source) else source).suffix.lower()
    if suffix == ".npy":
        return _shrunk(_numpy(data, source), shrink_to)
    if suffix in (".tif", ".tiff"):
        return _shrunk(_tiff(data, source), shrink_to)
    return _pillow(data, source, shrink_to)


def _checked(shape: tuple[int, ...], source: str, itemsize: int = 1) -> None:
    """Refuse from the header: a picture of more than MAX_PIXELS (its last two axes of a stack, its
    first two of a colour picture), or one whose values would take more than MAX_DECODED_BYTES."""
    dims = [int(n) for n in shape]
    plane = max(dims[-2] * dims[-1], dims[0] * dims[1]) if len(dims) >= 2 else int(np.prod(dims))
    size = "×".join(str(n) for n in dims)
    if plane > MAX_PIXELS:
        raise ImageError(f"{source} is {size}, more than the {MAX_PIXELS:,} pixels a picture may have here")
    needed = float(np.prod(dims, dtype=np.float64)) * max(int(itemsize), 1)
    if needed > MAX_DECODED_BYTES:
        raise ImageError(
            f"{source} declares {size} values ({needed / 2**20:,.0f} MiB decoded), more than the "
            f"{MAX_DECODED_BYTES / 2**20:,.0f} MiB one image may take here"
        )


def _numpy(data: bytes, source: str) -> np.ndarray:
    stream = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(stream)
        else:
            shape, _, dtype = np.lib.format.read_array_header_2_0(stream)
        _checked(tuple(shape), source, np.dtype(dtype).itemsize)
        return np.load(io.BytesIO(data), allow_pickle=False)
    except ImageError:
        raise
    except (OSError, ValueError) as exc:
        raise ImageError(f"{source} is not a NumPy array file: {exc}") from None


def _tiff(data: bytes, source: str) -> np.ndarray:
    import tifffile

    try:
        with tifffile.TiffFile(io.BytesIO(data)) as tiff:
            if not tiff.series:
                raise ImageError(f"{source} holds no image")
            series = tiff.series[0]
            _checked(tuple(series.shape), source, np.dtype(series.dtype).itemsize)
            return series.asarray()
    except ImageError:
        raise
    except Exception as exc:  # tifffile raises many kinds for a broken file
        raise ImageError(f"{source} is not a readable TIFF: {exc}") from None


def _pillow(data: bytes, source: str, shrink_to: int | None) -> np.ndarray:
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        with Image.open(io.BytesIO(data)) as picture:  # reads the header only
            _checked((picture.height, picture.width), source)
            if shrink_to is not None and picture.width * picture.height > shrink_to:
                scale = (shrink_to / (picture.width * picture.height)) ** 0.5
                size = (max(1, int(picture.width * scale)), max(1, int(picture.height * scale)))
                picture.draft(picture.mode, size)  # JPEG decodes at a fraction of the size
                picture.thumbnail(size)
            if picture.mode in ("P", "PA", "CMYK", "YCbCr", "LAB", "HSV", "1"):
                picture = picture.convert("RGBA" if "A" in picture.mode else "RGB")
            return np.asarray(picture)
    except ImageError:
        raise
    except Image.DecompressionBombError:
        raise ImageError(
            f"{source} has far more than the {MAX_PIXELS:,} pixels a picture may have here"
        ) from None
    except UnidentifiedImageError:
        raise ImageError(f"{source} is not an image (or not in a format this can read)") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise ImageError(f"{source} could not be decoded as an image: {exc}") from None


def _shrunk(pixels: np.ndarray, shrink_to: int | None) -> np.ndarray:
    if shrink_to is None or pixels.ndim < 2 or pixels.shape[0] * pixels.shape[1] <= shrink_to:
        return pixels
    step = int(np.ceil((pixels.shape[0] * pixels.shape[1] / shrink_to) ** 0.5))
    return pixels[::step, ::step]
