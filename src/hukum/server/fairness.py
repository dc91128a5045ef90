"""Fair shuffle: commit to a deal's seed before the deal, reveal it after, let anyone check.

>>> seed = 12345
>>> c = commitment(seed)
>>> check = verify(c, seed, Rules(), dealer=0)
>>> check["commitment_ok"], len(check["hands"]), len(check["hands"][0])
(True, 4, 13)
>>> verify(c, seed + 1, Rules(), dealer=0)["commitment_ok"]
False
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from hukum import ganjifa
from hukum.mindi import Rules, deal_hands

__all__ = ["commitment", "new_seed", "verify"]


def new_seed() -> int:
    """A fresh 128-bit deal seed from the operating system's secure source."""
    return secrets.randbits(128)


def commitment(seed: int) -> str:
    """The published commitment of a seed: ``sha256("hukum-deal:" + str(seed))`` in hex."""
    return hashlib.sha256(f"hukum-deal:{seed}".encode()).hexdigest()


def verify(
    commitment_hex: str, seed: int, rules: Rules | ganjifa.Rules, dealer: int
) -> dict[str, Any]:
    """Whether ``seed`` matches the commitment, and the hands (and, in Mindi, the shown
    card) it deals under these rules (Mindi or Ganjifa)."""
    if isinstance(rules, ganjifa.Rules):
        codes = [[c.code for c in hand] for hand in ganjifa.deal_hands(dealer, seed)]
        shown = None
    else:
        hands, card = deal_hands(rules, dealer, seed)
        codes = [[c.code for c in hand] for hand in hands]
        shown = card.code if card is not None else None
    return {
        "commitment_ok": secrets.compare_digest(
            commitment(seed).encode(), commitment_hex.lower().encode()
        ),
        "hands": codes,
        "shown_card": shown,
    }
