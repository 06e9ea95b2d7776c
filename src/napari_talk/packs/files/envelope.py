"""The seed's result envelope for agents: ``{"status", "data", "meta"}``, nothing else.

On an error the seed puts the message in ``data``; ``meta["error"]`` names its kind
(``SecurityError``, ``NotFound``, ``TextNotFound``, ...) when the pack raised it.
"""

from __future__ import annotations

from typing import Any

from ...core.basics.result import Result


def envelope(result: Result) -> dict[str, Any]:
    data = result.data if result.ok or result.data is not None else result.message
    return {"status": result.status, "data": data, "meta": dict(result.meta)}
