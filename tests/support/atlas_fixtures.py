"""Fixtures of the atlas tests (imported by the test modules that use them)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

__all__ = [
    "atlas_session",
    "embedding_server",
    "file_server",
    "postgres_server",
    "postgres_url",
    "sample_template",
    "sample_workspace",
]


@pytest.fixture(scope="session")
def sample_template(tmp_path_factory) -> Path:
    """A workspace with the sample catalogue loaded, made once and copied for each test."""
    from napari_talk.core.running.session import Session

    root = tmp_path_factory.mktemp("atlas-template")
    session = Session(None, workspace=root)
    turn = session.run("load the sample catalogue")
    assert turn.ok, turn.message
    session.state("atlas").close()  # writes the WAL back into the file before it is copied
    return root


@pytest.fixture
def sample_workspace(sample_template, workspace) -> Path:
    """The test's own workspace, holding the sample catalogue."""
    shutil.copytree(sample_template, workspace, dirs_exist_ok=True)
    return workspace


@pytest.fixture
def atlas_session(sample_workspace):
    """A session without a viewer over the sample catalogue."""
    from napari_talk.core.running.session import Session

    session = Session(None, workspace=sample_workspace)
    yield session
    session.state("atlas").close()


@pytest.fixture
def file_server():
    from support.atlas_servers import FileServer

    with FileServer() as server:
        yield server


@pytest.fixture
def embedding_server():
    from support.atlas_servers import EmbeddingServer

    with EmbeddingServer() as server:
        yield server


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL with pgvector, started by pgserver in a temporary folder of its own (one
    others may enter: run as root, pgserver runs the server as a user of its own)."""
    import os
    import tempfile

    import pgserver

    folder = Path(tempfile.mkdtemp(prefix="napari-talk-pg-"))
    folder.chmod(0o755)
    server = pgserver.get_server(folder / "data", cleanup_mode="stop")
    yield server
    server.cleanup()
    shutil.rmtree(folder, ignore_errors=True)
    assert not os.path.exists(folder / "data" / "postmaster.pid")


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """A fresh, empty database on the test server, as a postgresql:// URL."""
    from uuid import uuid4

    name = f"atlas_{uuid4().hex[:12]}"
    postgres_server.psql(f"CREATE DATABASE {name};")
    return postgres_server.get_uri(name)
