"""What the tests share: the door that types lines into a real dock (:mod:`.door`), servers that stand
in for a model server, ComfyUI or an atlas's downloads on 127.0.0.1, files built to test the readers
(meshes, scenes, recipe inputs), a Dask cluster, an MCP client, and the understanding sets' equality.

Tests import them as ``from support.door import ...``: pytest puts ``tests/`` on the path
(``pythonpath`` in pyproject.toml); benchmarks that use them put it there themselves.
"""
