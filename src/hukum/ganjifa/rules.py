"""The rule options of Dashavatara Ganjifa (RULES.md Part 2).

>>> Rules().trump, Rules(time="night").trump
(<Suit.RAMA: 6>, <Suit.KRISHNA: 7>)
>>> Rules(time="dusk")
Traceback (most recent call last):
...
hukum.ganjifa.rules.RulesError: time "dusk" is not an option; choose one of day, night
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from hukum import game
from hukum.game import option, shown
from hukum.ganjifa.cards import Suit

__all__ = ["PLAYERS", "Rules", "RulesError"]

#: Ganjifa is played by three, each for themselves (G-1).
PLAYERS = 3

Time = Literal["day", "night"]
VoidRule = Literal["choice", "trump_first"]
Dukal = Literal["run", "royal_run", "either"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "time": get_args(Time),
    "void_rule": get_args(VoidRule),
    "dukal": get_args(Dukal),
}


class RulesError(game.RulesError):
    """An unknown option or a value out of range."""


@dataclass(frozen=True)
class Rules:
    """A complete, validated set of Ganjifa rule options; the defaults are Cardavia's. Each
    option says the rule it sets and what it does (:func:`hukum.game.option`)."""

    time: Time = field(
        default="day",
        metadata=option(
            "G-5", "Day (Rama is trump) or night (Krishna is trump), chosen before the deal (G-5)."
        ),
    )
    void_rule: VoidRule = field(
        default="choice",
        metadata=option(
            "G-7",
            "A void player may play any trump or a card of the next held suit, or must trump "
            "first if able (G-7).",
        ),
    )
    dukal: Dukal = field(
        default="run",
        metadata=option(
            "G-9",
            "What a Dukal is: a run of 3+, Raja-Mantri with 3+ numerals, or either kind (G-9).",
        ),
    )
    deals: int = field(
        default=1, metadata=option(None, "Deals in a match (Cardavia: one deal is one game).")
    )

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RulesError(
                    f'{name} "{shown(value)}" is not an option; choose one of ' + ", ".join(choices)
                )
        deals = self.deals
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
            raise RulesError(f'deals must be a whole number from 1 up, not "{shown(deals)}"')

    @property
    def trump(self) -> Suit:
        """The trump suit: Rama by day, Krishna by night (G-5)."""
        return Suit.RAMA if self.time == "day" else Suit.KRISHNA

    @property
    def players(self) -> int:
        """Three players (G-1)."""
        return PLAYERS

    @staticmethod
    def next_seat(seat: int) -> int:
        """The next player anticlockwise (G-4)."""
        return (seat + 1) % PLAYERS

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated)."""
        names = [f.name for f in dataclasses.fields(self)]
        for key in changes:
            if key not in names:
                raise RulesError(f"no rule option {key!r}; the options are " + ", ".join(names))
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every option as JSON-ready data."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` data (missing options take their defaults)."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of options, not {type(data).__name__}")
        return cls().replace(**data)

    def differences(self) -> dict[str, Any]:
        """The options that differ from the defaults."""
        base = Rules()
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        }
