"""The Qt-free core: typed commands, the registry and its pack contract, the parser, the LLM road,
the session with its one undo history, the workspace gate, the risk policy and the jobs.

Nothing here imports napari or Qt at module level; packs build on it, the doors (``_qt``,
``agents``, ``cli``) on both.
"""
