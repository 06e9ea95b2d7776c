"""A trained intent reader beside the nearest-neighbour one: which command a free line asks for,
by a small classifier trained on the grammar's own phrasings and free variants of them."""
