"""The release tests' shared fixture: the sdist and wheel, built once per test session."""

from __future__ import annotations

import pytest
from release_dists import Dists, build


@pytest.fixture(scope="session")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Dists:
    return build(tmp_path_factory.mktemp("dist"))
