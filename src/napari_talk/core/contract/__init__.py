"""The contract a pack implements: typed commands, results and errors, the pack and its hooks,
and the registry that checks every part of it when a pack registers.
"""
