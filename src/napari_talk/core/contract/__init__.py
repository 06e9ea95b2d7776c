"""The contract a pack implements: the pack and its hooks (``pack.py``), and the registry that
checks every part of it when a pack registers (``registry.py``). The types they speak in (commands,
results, changes, jobs, the viewer's protocols) live a floor below, in ``basics/``.
"""
