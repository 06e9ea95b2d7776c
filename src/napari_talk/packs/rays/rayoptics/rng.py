"""The seeded random generator ray-optics uses (the ``seedrandom`` ARC4 generator), so a scene's
``randomSeed`` gives the same random beams here as there.

The RC4 key stream is made in blocks, by OpenSSL's RC4 when the ``cryptography`` package offers it
(the same stream, hundreds of times faster) and in Python otherwise; :meth:`SeededRandom.take`
turns it into many doubles at once, as many calls would.
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
        self._at = 0
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
        if self._at + count > len(self._buffer):
            rest = self._buffer[self._at :]
            more = count - len(rest)
            if self._cipher is not None:
                # blocks grow from small (a trace of a few rays draws a few hundred bytes)
                more = max(more, min(_BLOCK, 4 * len(self._buffer) or 1024))
            fresh = np.frombuffer(self._generate(more), dtype=np.uint8)
            self._buffer, self._at = np.concatenate([rest, fresh]), 0
        return self._buffer[self._at : self._at + count]

    def _stream(self, count: int) -> np.ndarray:
        """The next ``count`` bytes of the key stream."""
        out = self._peek(count)
        self._at += count
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

    def take(self, count: int) -> np.ndarray:
        """The next ``count`` doubles, equal to ``count`` calls."""
        if count <= FEW_DRAWS:
            return np.array([self() for _ in range(count)], dtype=float).reshape(count)
        out = np.empty(count)
        done = 0
        while done < count:
            want = min(count - done, 4096)
            raw = self._peek(8 * want + 8)
            # a draw reads 7 bytes when its first is >= 16 (its first six >= 2**44), 8 when its
            # first eight make at least 2**52 (first byte > 0 or second >= 16); deeper: by a call
            at = np.array(_chain(raw.tobytes().translate(_STEP), want))
            deep = np.flatnonzero((raw[at] == 0) & (raw[at + 1] < 16))
            if len(deep):
                at = at[: deep[0]]
            got = len(at)
            if got:
                word = raw[at[:, None] + np.arange(8)].copy().view(">u8")[:, 0]
                n6, b6, b7 = (v.astype(np.int64) for v in (word >> 16, (word >> 8) & 255, word & 255))
                seven = n6 >= 2**44
                n = np.where(seven, n6 * _WIDTH, (n6 * _WIDTH + b6) * _WIDTH).astype(float)
                x = np.where(seven, b6, b7)
                shift = np.zeros(got, dtype=np.int64)
                for bit in range(53, 60):  # halvings until n < 2**53 (n < 2**60)
                    shift += n >= 2.0**bit
                d = np.where(seven, float(_WIDTH**7), float(_WIDTH**8)) / np.ldexp(1.0, shift)
                out[done : done + got] = (n / np.ldexp(1.0, shift) + (x >> shift)) / d
                self._at += int(at[-1]) + (7 if seven[-1] else 8)
            done += got
            if got < want:
                out[done] = self()
                done += 1
        return out


FEW_DRAWS = 16
"""Fewer draws are taken by calls (the block's set-up costs more)."""


_STEP = bytes(7 if b >= 16 else 8 for b in range(_WIDTH))
"""A draw's length in bytes by its first byte (8 stands for 8 or more)."""


def _chain(step: bytes, want: int) -> list[int]:
    """Where the first ``want`` draws start, each ``step[at]`` bytes after the one at ``at``."""
    starts = [0] * want
    at = 0
    for k in range(want):
        starts[k] = at
        at += step[at]
    return starts
