"""Tab completion for the chat input: the words of commands and the names the session knows."""

from __future__ import annotations

from collections.abc import Iterable


def complete(text: str, candidates: Iterable[str]) -> tuple[str, list[str]]:
    """Complete the end of ``text`` with a candidate (names may span several words).

    Returns the new text and, when several candidates fit, all of them.
    """
    lowered = text.casefold()
    best: tuple[int, list[str]] = (0, [])
    for candidate in dict.fromkeys(candidates):
        folded = candidate.casefold()
        for start in _word_starts(text):
            typed = lowered[start:]
            if typed and folded.startswith(typed) and folded != typed:
                length = len(typed)
                if length > best[0]:
                    best = (length, [candidate])
                elif length == best[0] and candidate not in best[1]:
                    best[1].append(candidate)
                break
    length, options = best
    if not options:
        return text, []
    head = text[: len(text) - length]
    if len(options) == 1:
        return head + options[0] + " ", options
    lowered_options = [o.casefold() for o in options]
    shared = next(
        (i for i in range(min(map(len, lowered_options))) if len({f[i] for f in lowered_options}) > 1),
        min(map(len, lowered_options)),
    )
    return head + options[0][:shared], sorted(options, key=str.casefold)


def _word_starts(text: str) -> list[int]:
    """Offsets where a word starts, earliest first (so multi-word names are tried first)."""
    return [i for i, ch in enumerate(text) if not ch.isspace() and (i == 0 or text[i - 1].isspace())]
