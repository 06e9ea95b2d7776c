"""Inputs for recipe batches: small generated TIFFs, and hostile ones."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np


def small_tiffs(folder: Path, count: int, size: int = 16) -> list[Path]:
    """``count`` different small 16-bit images, img00.tif, img01.tif, ..."""
    import tifffile

    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for n in range(count):
        data = (np.random.default_rng(n).random((size, size)) * 100 * (n + 1)).astype("uint16")
        path = folder / f"img{n:02d}.tif"
        tifffile.imwrite(path, data)
        made.append(path)
    return made


def huge_tiff(path: Path, width: int = 200_000, height: int = 200_000) -> Path:
    """A few hundred bytes whose header declares ``width`` × ``height`` 16-bit pixels (80 GB)."""
    entries = [
        (256, 4, 1, width),  # ImageWidth, LONG
        (257, 4, 1, height),  # ImageLength
        (258, 3, 1, 16),  # BitsPerSample, SHORT
        (259, 3, 1, 1),  # Compression: none
        (262, 3, 1, 1),  # Photometric: black is zero
        (273, 4, 1, 8),  # StripOffsets
        (277, 3, 1, 1),  # SamplesPerPixel
        (278, 4, 1, height),  # RowsPerStrip
        (279, 4, 1, width * height * 2 % 2**32),  # StripByteCounts
    ]
    ifd = struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        packed = struct.pack("<HI", value, 0)[:4] if kind == 3 else struct.pack("<I", value)
        ifd += struct.pack("<HHI", tag, kind, count) + packed
    ifd += struct.pack("<I", 0)
    body = b"\0" * 64
    header = b"II*\x00" + struct.pack("<I", 8 + len(body))
    path.write_bytes(header + body + ifd)
    return path
