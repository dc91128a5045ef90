"""Fair shuffle: commit to a deal's seed before the deal, reveal it after, let anyone check.

>>> from hukum.games import game_named
>>> spec = game_named("mindi")
>>> seed = 12345
>>> c = commitment(seed)
>>> check = verify(c, seed, spec.make_rules(), dealer=0, game=spec)
>>> check["commitment_ok"], len(check["hands"]), len(check["hands"][0])
(True, 4, 13)
>>> verify(c, seed + 1, spec.make_rules(), dealer=0, game=spec)["commitment_ok"]
False
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from hukum.game import AnyGame

__all__ = ["commitment", "new_seed", "verify"]


def new_seed() -> int:
    """A fresh 128-bit deal seed from the operating system's secure source."""
    return secrets.randbits(128)


def commitment(seed: int) -> str:
    """The published commitment of a seed: ``sha256("hukum-deal:" + str(seed))`` in hex."""
    return hashlib.sha256(f"hukum-deal:{seed}".encode()).hexdigest()


def verify(
    commitment_hex: str, seed: int, rules: object, dealer: int, game: AnyGame
) -> dict[str, Any]:
    """Whether ``seed`` matches the commitment, and what it deals under these rules of
    ``game``: the hands and, in a game that shows one (Mindi's open hukum), the card
    shown to all."""
    return {
        "commitment_ok": secrets.compare_digest(
            commitment(seed).encode(), commitment_hex.lower().encode()
        ),
        **game.dealt(rules, dealer, seed),
    }
