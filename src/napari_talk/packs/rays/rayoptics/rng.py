"""The seeded random generator ray-optics uses (the ``seedrandom`` ARC4 generator), so a scene's
``randomSeed`` gives the same random beams here as there."""

from __future__ import annotations

_WIDTH = 256
_MASK = 255
_SIGNIFICANCE = 2**52
_OVERFLOW = 2**53


class SeededRandom:
    """``rng()`` returns doubles in [0, 1) from RC4 keyed by the seed string (first 256 bytes dropped)."""

    def __init__(self, seed: str) -> None:
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
        s = list(range(_WIDTH))
        j = 0
        for i in range(_WIDTH):
            t = s[i]
            j = _MASK & (j + key[i % len(key)] + t)
            s[i] = s[j]
            s[j] = t
        self._s, self._i, self._j = s, 0, 0
        self._bytes(_WIDTH)

    def _bytes(self, count: int) -> int:
        s, i, j, r = self._s, self._i, self._j, 0
        for _ in range(count):
            i = _MASK & (i + 1)
            t = s[i]
            j = _MASK & (j + t)
            s[i] = s[j]
            s[j] = t
            r = r * _WIDTH + s[_MASK & (s[i] + t)]
        self._i, self._j = i, j
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
