"""Fair play, as pure rules: what may be said at a table, why a player may be reported,
what a moderator may do, and who must never be seated together.

No database and no clock: the server stores and enforces what these functions decide
(:mod:`hukum.server.routes.fairplay`, :mod:`hukum.server.routes.moderation`), and the
matchmaker reads :func:`blocked_pairs`.

>>> clean_text("  hello\\x00\\n  there\\u202e ")
'hello there'
>>> sorted(map(sorted, blocked_pairs([("a", "b"), ("b", "a"), ("c", "a")])))
[['a', 'b'], ['a', 'c']]
>>> may_sit_together(["a", "b", "d"], blocked_pairs([("a", "b")]))
False
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Literal, get_args

__all__ = [
    "MAX_NOTE",
    "MAX_REASON",
    "MAX_SUSPENSION_DAYS",
    "MAX_TEXT",
    "PHRASES",
    "QUEUE_REASONS",
    "REASONS",
    "SANCTIONS",
    "SAY_EVERY",
    "SCREENING",
    "BadSaying",
    "Reason",
    "blocked_pairs",
    "clean_text",
    "may_sit_together",
    "saying",
]

#: The quick phrases a seat may say at any table, by key; each page shows them in its
#: language (``talk.<key>`` in static/i18n). None of them says anything about cards.
PHRASES = ("gl", "wp", "thanks", "oops", "bye")
#: The longest free line, in characters, once cleaned (:func:`clean_text`).
MAX_TEXT = 200
#: Seconds a seat waits between two lines (a phrase or free text).
SAY_EVERY = 2.0
#: Why a player may be reported, by key: cheating or collusion, abusive messages, leaving or
#: stalling, a bad name, something else.
Reason = Literal["cheating", "abuse", "stalling", "bad_name", "other"]
REASONS: tuple[str, ...] = get_args(Reason)
#: The reason of a report the fair-play screening makes (no reporter; a player never
#: chooses it: it is not one of :data:`REASONS`).
SCREENING = "screening"
#: Every reason a report in the moderators' queue may have.
QUEUE_REASONS: tuple[str, ...] = (*REASONS, SCREENING)
#: The longest note of a report, and the longest reason a moderator gives.
MAX_NOTE = 500
MAX_REASON = 500
#: What a moderator may do to a player.
SANCTIONS = ("warn", "suspend", "close")
#: The longest suspension, in days.
MAX_SUSPENSION_DAYS = 3650

_KEEP = {"\u200c", "\u200d"}  # ZWNJ / ZWJ: Devanagari and Gurmukhi spell with them


class BadSaying(ValueError):
    """A line a seat may not say: its ``code`` says why (``bad_message``, ``chat_off``,
    ``text_too_long``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def clean_text(text: str) -> str:
    """A free line as kept: Unicode normalised (NFC), control and formatting characters
    removed (but the joiners Indic scripts spell with), runs of white space made one
    space, trimmed. Markup is kept as text: every page shows it as text."""
    text = unicodedata.normalize("NFC", text)
    kept = "".join(
        " " if c.isspace() else c
        for c in text
        if c.isspace()
        or unicodedata.category(c) not in {"Cc", "Cf", "Cs", "Co", "Cn"}
        or c in _KEEP
    )
    return " ".join(kept.split())


def saying(phrase: str | None, text: str | None, *, chat: bool) -> dict[str, str]:
    """What a ``said`` event keeps of a seat's line: ``{"phrase": key}`` for a quick
    phrase, ``{"text": line}`` for free text (only where ``chat`` is on, cleaned, at most
    :data:`MAX_TEXT` characters); :class:`BadSaying` otherwise."""
    if (phrase is None) == (text is None):
        raise BadSaying("bad_message", 'say needs "phrase" (a quick phrase) or "text", not both')
    if phrase is not None:
        if phrase not in PHRASES:
            raise BadSaying("bad_message", "phrase must be one of " + ", ".join(PHRASES))
        return {"phrase": phrase}
    assert text is not None
    if not chat:
        raise BadSaying("chat_off", "this room allows quick phrases only: its chat is off")
    line = clean_text(text)
    if not line:
        raise BadSaying("bad_message", "the line is empty")
    if len(line) > MAX_TEXT:
        raise BadSaying("text_too_long", f"a line is at most {MAX_TEXT} characters")
    return {"text": line}


def blocked_pairs(blocks: Iterable[tuple[str, str]]) -> set[frozenset[str]]:
    """The pairs of players never to be seated together, from ``(player, blocked)`` rows:
    a block keeps both apart, whoever made it."""
    return {frozenset(pair) for pair in blocks if pair[0] != pair[1]}


def may_sit_together(players: Iterable[str], pairs: set[frozenset[str]]) -> bool:
    """Whether no two of ``players`` are a blocked pair (:func:`blocked_pairs`)."""
    seated = list(dict.fromkeys(players))
    return not any(
        frozenset((a, b)) in pairs for i, a in enumerate(seated) for b in seated[i + 1 :]
    )
