# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2019 David Bau
# SPDX-FileCopyrightText: 2026 napari-talk contributors
#
# Translated from seedrandom (https://github.com/davidbau/seedrandom): seedrandom.js, its ARC4 generator.
# Licensed under the MIT License (see LICENSES/MIT-seedrandom.txt); modified: translated to Python and
# changed for napari-talk (2026).
"""The seeded random generator ray-optics uses (the ``seedrandom`` ARC4 generator), so a scene's
``randomSeed`` gives the same random beams here as there.

The RC4 key stream is made in blocks, by OpenSSL's RC4 when the ``cryptography`` package offers it
(the same stream, hundreds of times faster) and in Python otherwise; :meth:`SeededRandom.take`
turns it into many doubles at once (compiled), as many calls would.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_WIDTH = 256
_MASK = 255
_SIGNIFICANCE = 2**52
_OVERFLOW = 2**53
_BLOCK = 1 << 16
_RC4_KEY_BYTES = (5, 7, 8, 10, 16, 20, 24, 32)
"""Key lengths OpenSSL's RC4 takes; a shorter key that divides one is that key repeated."""


def _openssl_rc4(key: list[int]) -> Any | None:
    """An RC4 encryptor keyed like seedrandom's key schedule, or None if none is available."""
    size = next((n for n in _RC4_KEY_BYTES if n % len(key) == 0), None)
    if size is None:
        return None
    try:
        from cryptography.hazmat.decrepit.ciphers.algorithms import ARC4
        from cryptography.hazmat.primitives.ciphers import Cipher

        return Cipher(ARC4(bytes(key * (size // len(key)))), mode=None).encryptor()
    except Exception:  # no cryptography, or an OpenSSL built without RC4: the Python stream
        return None


class SeededRandom:
    """``rng()`` returns doubles in [0, 1) from RC4 keyed by the seed string (first 256 bytes dropped)."""

    def __init__(self, seed: str, *, fast: bool = True) -> None:
        key: list[int] = []
        smear = 0
        for j, ch in enumerate(seed):
            k = j & _MASK
            smear ^= (key[k] if k < len(key) else 0) * 19
            value = _MASK & (smear + ord(ch))
            if k < len(key):
                key[k] = value
            else:
                key.append(value)
        if not key:
            key = [0]
        self._cipher = _openssl_rc4(key) if fast else None
        s = list(range(_WIDTH))
        j = 0
        for i in range(_WIDTH):
            t = s[i]
            j = _MASK & (j + key[i % len(key)] + t)
            s[i] = s[j]
            s[j] = t
        self._s, self._i, self._j = s, 0, 0
        self._buffer = np.zeros(0, dtype=np.uint8)
        self.at = 0
        """Where the next draw starts in the key stream's buffer (:meth:`window`)."""
        self.compiled = True
        """Whether :meth:`take` may draw by the compiled kernel (False: by calls, the same numbers)."""
        self._stream(_WIDTH)

    def _python_bytes(self, count: int) -> bytes:
        s, i, j = self._s, self._i, self._j
        out = bytearray(count)
        for k in range(count):
            i = _MASK & (i + 1)
            t = s[i]
            j = _MASK & (j + t)
            s[i] = s[j]
            s[j] = t
            out[k] = s[_MASK & (s[i] + t)]
        self._i, self._j = i, j
        return bytes(out)

    def _generate(self, count: int) -> bytes:
        if self._cipher is not None:
            return bytes(self._cipher.update(bytes(count)))
        return self._python_bytes(count)

    def _peek(self, count: int) -> np.ndarray:
        """The next ``count`` bytes of the key stream, left unread."""
        if self.at + count > len(self._buffer):
            rest = self._buffer[self.at :]
            more = count - len(rest)
            if self._cipher is not None:
                # blocks grow from small (a trace of a few rays draws a few hundred bytes)
                more = max(more, min(_BLOCK, 4 * len(self._buffer) or 1024))
            fresh = np.frombuffer(self._generate(more), dtype=np.uint8)
            self._buffer, self.at = np.concatenate([rest, fresh]), 0
        return self._buffer[self.at : self.at + count]

    def _stream(self, count: int) -> np.ndarray:
        """The next ``count`` bytes of the key stream."""
        out = self._peek(count)
        self.at += count
        return out

    def _bytes(self, count: int) -> int:
        r = 0
        for b in self._stream(count).tolist():
            r = r * _WIDTH + b
        return r

    def __call__(self) -> float:
        n = float(self._bytes(6))
        d = float(_WIDTH**6)
        x = 0
        while n < _SIGNIFICANCE:
            n = (n + x) * _WIDTH
            d *= _WIDTH
            x = self._bytes(1)
        while n >= _OVERFLOW:
            n /= 2
            d /= 2
            x >>= 1
        return (n + x) / d

    def window(self, count: int) -> np.ndarray:
        """The key stream's buffer, holding at least ``count`` unread bytes from :attr:`at` on
        (for a kernel drawing from it, which then moves :attr:`at` on)."""
        self._peek(count)
        return self._buffer

    def take(self, count: int) -> np.ndarray:
        """The next ``count`` doubles, equal to ``count`` calls (drawn by the compiled
        :func:`~.kernel_glass.draws`, from the same bytes)."""
        if count <= FEW_DRAWS or not self.compiled:
            return np.array([self() for _ in range(count)], dtype=float).reshape(count)
        from .kernel_glass import draws

        out = np.empty(count)
        done = 0
        more = 64
        while done < count:
            buffer = self.window(8 * (count - done) + more)
            got, self.at = draws(buffer, self.at, out[done:])
            done += got
            # a draw reads 7 or 8 bytes, rarely more: one the buffer could not hold asks for more
            more = 64 if got else 2 * (len(buffer) - self.at) + 1024
        return out


FEW_DRAWS = 16
"""Fewer draws are taken by calls (the compiled kernel's import and call cost more)."""
