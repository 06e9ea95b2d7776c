"""A bounded memory of recent work: the least recently used entry goes first when it is full.

The parser remembers indexes of live names, compiled plans and what each word opens. Clearing
such a memory when it fills would drop the entries in use this very line, and the next line would
rebuild them at a cost that grows with the names in play; evicting the oldest keeps them."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``size`` entries; a hit makes its entry the newest."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = Lock()  # a worker thread and the GUI thread may read lines at once

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> V:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value

    def get_or_make(self, key: K, make: Callable[[K], V]) -> V:
        """The entry for ``key``, made from it (outside the lock: making may be slow) when missing."""
        found = self.get(key)
        return found if found is not None else self.put(key, make(key))

    def __len__(self) -> int:
        return len(self._entries)
