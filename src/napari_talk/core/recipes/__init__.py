"""Recipes: the commands a session ran, saved as a file of typed lines, and replayed on many inputs.

``log``: what a session did (undone commands struck out); ``phrase``: a command as a line the parser
reads back to it; ``recipe``: the file (lines, their JSON, placeholders for the input's layers);
``sweep``: parameter sweeps; ``table``: the results CSV; ``item`` and ``batch``: one input, and
many fanned out on Dask. Nothing here imports Qt; napari only inside the worker's function.
"""
