"""What kind of sentence a line is, and what a model's words claim: words answer questions, and
only commands do things.

- :func:`is_question`: a line that asks (a question mark, or opening with "what", "is", "can you
  tell", ...); a model may answer it in words.
- :func:`claims_action`: words that say something was done ("The yellow dots have been removed.",
  "I've hidden GFP", "Done!"); such words are never shown as fact when no command did it.
"""

from __future__ import annotations

import re

_QUESTION_START = re.compile(
    r"^\s*(?:(?:hey|hi|ok|okay|so|and|but|well|please|quick question)[,!.:]?\s+)*"
    r"(?:what|what's|whats|which|who|whose|whom|why|how|when|where|is|are|was|were|am|do|does|did|"
    r"has|have|had|should|shall|will|would|could|might|may|isn't|aren't|doesn't|don't|"
    r"can\s+(?:i|we|it|this|that|these|those|the|a|an|there|my|our)|"
    r"tell me|explain|describe why|any idea|i wonder|i'm wondering|im wondering)\b",
    re.IGNORECASE,
)
_REQUEST_START = re.compile(
    r"^\s*(?:can|could|would|will)\s+(?:you|u)\b|^\s*(?:please|pls|kindly)\b",
    re.IGNORECASE,
)
"""Polite requests that look like questions: "can you hide GFP?" asks for a command."""

_CLAIM = re.compile(
    r"\b(?:i(?:'ve| have| just)?|we(?:'ve| have)?|you(?:'ve| have)|it(?:'s| has)|they(?:'ve| have)|"
    r"(?:has|have) been|"
    r"is now|are now|now (?:shows?|hidden|visible|loaded|removed|set)|successfully|done\b|all set)"
    r"(?:\s+\w+){0,3}?\s*\b(?:\w+ed|set|made|shown|hidden|done|gone|run|put|taken|begun|drawn|"
    r"removed|loaded|opened|closed|deleted|changed|saved|written|zoomed|hid|showed|turned)\b"
    r"|\b(?:is|are) now\b|^\s*(?:done|ok,? done|all done|there you go|here you go)\b",
    re.IGNORECASE,
)


def is_question(text: str) -> bool:
    """Whether ``text`` asks something (words may answer it) rather than asks for something."""
    line = text.strip()
    if _REQUEST_START.search(line):
        return False
    return line.endswith("?") or bool(_QUESTION_START.search(line))


def claims_action(words: str) -> bool:
    """Whether ``words`` say that something was done."""
    return bool(_CLAIM.search(words))
