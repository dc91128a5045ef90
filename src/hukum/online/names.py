"""What a person may be called: user names (unique, compared by their look-alike key),
display names, and the generated name of a guest.

>>> username_key("Raju_07") == username_key("RAJU-O7")
True
>>> check_username("ab")
Traceback (most recent call last):
...
hukum.online.names.BadName: a user name has 3 to 20 characters
>>> display_name("  Tara \\u202e  Devi ")
'Tara Devi'
"""

from __future__ import annotations

import random
import re
import unicodedata

__all__ = [
    "DISPLAY_MAX",
    "GUEST_ALPHABET",
    "USERNAME_MAX",
    "USERNAME_MIN",
    "BadName",
    "check_username",
    "display_name",
    "guest_name",
    "username_key",
]

USERNAME_MIN, USERNAME_MAX = 3, 20
#: A user name: Latin letters, digits, ``_`` and ``-``, starting with a letter or digit. It is
#: typed to sign in, on any keyboard; the display name (any script) is what tables show.
USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*\Z")
DISPLAY_MAX = 40
#: A guest's name's suffix: letters and digits that cannot be read as one another.
GUEST_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"

#: Characters (after casefolding) that look alike in the fonts people read names in: a
#: user name whose key equals another's is taken.
_LOOKALIKE = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "_": "-"})
_LOOKALIKE_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))


class BadName(ValueError):
    """A name that may not be used, with the reason a person can act on."""


def check_username(name: str) -> str:
    """``name`` as it will be kept (trimmed), or :class:`BadName` saying what is wrong."""
    name = name.strip()
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        raise BadName(f"a user name has {USERNAME_MIN} to {USERNAME_MAX} characters")
    if not USERNAME.match(name):
        raise BadName(
            "a user name is Latin letters, digits, _ and -, and starts with a letter or digit"
        )
    return name


def username_key(name: str) -> str:
    """The key user names are compared by: case and look-alike characters folded, so that
    ``Raju``, ``RAJU``, ``raju_0`` and ``RAJU-O`` collide."""
    key = name.strip().casefold().translate(_LOOKALIKE)
    for pair, single in _LOOKALIKE_PAIRS:
        key = key.replace(pair, single)
    return key


def display_name(text: str) -> str:
    """A display name as kept: Unicode normalised (NFC), control and formatting characters
    (bidirectional overrides, zero-width joiners outside a script that needs them) removed,
    runs of spaces made one, at most :data:`DISPLAY_MAX` characters. Any script is welcome;
    markup is kept as text (every page shows a name as text, never as HTML)."""
    text = unicodedata.normalize("NFC", text)
    kept = "".join(
        c
        for c in text
        if unicodedata.category(c) not in {"Cc", "Cf", "Cs", "Co", "Cn"}
        or c in "\u200c\u200d"  # ZWNJ / ZWJ: Devanagari and Gurmukhi spell with them
    )
    return " ".join(kept.split())[:DISPLAY_MAX].strip()


def guest_name(rng: random.Random) -> str:
    """A guest's generated name, "Guest 4KQ7" (the player may change it)."""
    return "Guest " + "".join(rng.choice(GUEST_ALPHABET) for _ in range(4))
