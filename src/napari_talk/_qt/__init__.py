"""Qt widgets only; the logic they show lives in the Qt-free core."""
