"""Passwords: the policy a person can act on, and Argon2id hashes through ``pwdlib``.

Only the hash is kept (:attr:`hukum.server.identity.models.Player.password_hash`). A
sign-in with a user name nobody has still verifies a password, against a dummy hash
(:meth:`Passwords.verify`), so that it takes as long as a wrong password for a real
account: the time of the answer does not tell whether the name exists.
"""

from __future__ import annotations

import secrets
import threading

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

__all__ = [
    "COMMON",
    "PASSWORD_MAX",
    "PASSWORD_MIN",
    "BadPassword",
    "Passwords",
    "check_password",
]

PASSWORD_MIN, PASSWORD_MAX = 10, 128

#: Passwords long enough for the policy that people still choose most often (from the
#: published lists of leaked passwords), and a few this site invites: refused.
COMMON = frozenset(
    {
        "1234567890",
        "0987654321",
        "12345678910",
        "123456789a",
        "1234567890a",
        "1q2w3e4r5t",
        "1qaz2wsx3edc",
        "qwertyuiop",
        "qwerty1234",
        "qwerty12345",
        "asdfghjkl;",
        "asdfghjkl1",
        "zxcvbnm123",
        "password12",
        "password123",
        "password1234",
        "passw0rd123",
        "iloveyou12",
        "iloveyou123",
        "abcdefghij",
        "abcd123456",
        "abc1234567",
        "welcome123",
        "letmein123",
        "football123",
        "princess123",
        "sunshine123",
        "monkey12345",
        "dragon12345",
        "india12345",
        "india@123",
        "bharat1234",
        "hukumhukum",
        "hukum12345",
        "mindi12345",
        "mindimindi",
        "ganjifa123",
    }
)


class BadPassword(ValueError):
    """A password the policy refuses, with the reason a person can act on."""


def check_password(password: str, username: str = "") -> None:
    """Refuse (:class:`BadPassword`) a password that is too short or too long, one
    character over and over, the user name, or one of the most common passwords."""
    if len(password) < PASSWORD_MIN:
        raise BadPassword(f"a password has at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise BadPassword(f"a password has at most {PASSWORD_MAX} characters")
    folded = password.casefold()
    if len(set(folded)) == 1:
        raise BadPassword("a password is not one character over and over")
    name = username.strip().casefold()
    if name and name in folded and len(folded.replace(name, "").strip()) < 6:
        raise BadPassword("a password is not the user name (nor the user name and a little)")
    if folded in COMMON or folded.strip() in COMMON:
        raise BadPassword("that password is one of the most common: choose another")


class Passwords:
    """Hashes and checks passwords with Argon2id (``pwdlib``); a verify of a hash made with
    older parameters gives the new hash to store (:meth:`verify`)."""

    def __init__(self, hasher: PasswordHash | None = None) -> None:
        self.hasher = hasher or PasswordHash((Argon2Hasher(),))
        self._dummy: str | None = None
        self._lock = threading.Lock()

    def hash(self, password: str) -> str:
        """The hash to store of ``password``."""
        return self.hasher.hash(password)

    def dummy(self) -> str:
        """The hash of a random password nobody knows, made once: verified when there is
        no account, so that the answer takes as long as for a wrong password."""
        with self._lock:
            if self._dummy is None:
                self._dummy = self.hasher.hash(secrets.token_urlsafe(24))
            return self._dummy

    def verify(self, password: str, stored: str | None) -> tuple[bool, str | None]:
        """Whether ``password`` matches ``stored`` (None: no such account, checked against
        the dummy hash and always False), and the new hash to store when the stored one was
        made with other parameters (None: keep it)."""
        if stored is None:
            self.hasher.verify_and_update(password, self.dummy())
            return False, None
        try:
            ok, updated = self.hasher.verify_and_update(password, stored)
        except Exception:  # a damaged stored hash is a failed sign-in, never a crash
            return False, None
        return ok, updated if ok else None
