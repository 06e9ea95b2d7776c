"""Opening one input of a batch through the workspace gate: bounded in bytes on disk and in pixels
declared, read by descriptor (no link out of the workspace), decoded without napari's readers."""

from __future__ import annotations

import io
import logging
import math
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ..basics.result import CommandError

if TYPE_CHECKING:
    from ..safety.workspace import Workspace

MAX_INPUT_BYTES = 1 << 30
"""An input file larger than this on disk is refused unread."""
MAX_PIXEL_BYTES = 2 << 30
"""An image whose header declares more pixel data than this is refused before it is decoded."""
TIFF_SUFFIXES = (".tif", ".tiff")
IMAGE_SUFFIXES = (*TIFF_SUFFIXES, ".png", ".jpg", ".jpeg", ".bmp", ".gif")


class InputError(CommandError):
    """An input that cannot be opened: its row fails with this sentence, the batch goes on."""


def read_image(workspace: Workspace, relative: str, *, max_bytes: int = MAX_INPUT_BYTES,
               max_pixel_bytes: int = MAX_PIXEL_BYTES) -> Any:  # fmt: skip
    """The image at ``relative`` in the workspace as an array."""
    suffix = PurePosixPath(relative).suffix.lower()
    if suffix not in IMAGE_SUFFIXES:
        raise InputError(
            f"{relative} is not an image napari-talk opens in a batch ({', '.join(IMAGE_SUFFIXES)})"
        )
    data = workspace.read_bytes(relative, limit=max_bytes, what="batch inputs")
    if suffix in TIFF_SUFFIXES:
        return _tiff(relative, data, max_pixel_bytes)
    return _other(relative, data, suffix, max_pixel_bytes)


def _tiff(relative: str, data: bytes, max_pixel_bytes: int) -> Any:
    import tifffile

    logging.getLogger("tifffile").setLevel(logging.ERROR)  # its warnings on a damaged file: the row says it
    try:
        with tifffile.TiffFile(io.BytesIO(data)) as tiff:
            if not tiff.series:
                raise InputError(f"{relative} holds no image napari-talk can read (a damaged TIFF?)")
            series = tiff.series[0]
            _check_size(relative, series.shape, series.dtype.itemsize, max_pixel_bytes)
            return series.asarray()
    except InputError:
        raise
    except Exception as exc:  # tifffile's errors on a damaged file are of many kinds
        raise InputError(f"{relative} is not a TIFF napari-talk can read ({_short(exc)})") from None


def _other(relative: str, data: bytes, suffix: str, max_pixel_bytes: int) -> Any:
    from imageio import v3 as iio

    try:
        props = iio.improps(data, extension=suffix)
        _check_size(relative, props.shape, props.dtype.itemsize, max_pixel_bytes)
        return iio.imread(data, extension=suffix)
    except InputError:
        raise
    except Exception as exc:
        raise InputError(f"{relative} is not an image napari-talk can read ({_short(exc)})") from None


def _check_size(relative: str, shape: tuple[int, ...], itemsize: int, limit: int) -> None:
    declared = math.prod(shape) * itemsize
    if declared > limit:
        raise InputError(
            f"{relative} declares {declared / 2**30:.1f} GiB of pixels {tuple(shape)}, over the batch's "
            f"limit of {limit / 2**30:.1f} GiB"
        )


def _short(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:160]
