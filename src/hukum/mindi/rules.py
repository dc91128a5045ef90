"""The rule options of Mindi (RULES.md Part 1) and the named presets.

>>> Rules.preset("hidden").trump
'band'
>>> Rules.preset("classic", must_trump=True).must_trump
True
>>> Rules(players=6)
Traceback (most recent call last):
...
hukum.mindi.rules.RulesError: 6 players play with 48 cards (the four 2s removed): set deck=48 (M-2)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from hukum import game
from hukum.game import option, shown

__all__ = ["DECKS", "PLAYER_COUNTS", "PRESETS", "Rules", "RulesError"]

#: How many play Mindi (M-1).
PLAYER_COUNTS = (4, 6, 8)
#: The packs it is played with: 52 cards, or 48 without the 2s (M-2).
DECKS = (52, 48)

Direction = Literal["anticlockwise", "clockwise"]
FirstDealer = Literal["highest", "lowest", "random"]
TrumpMethod = Literal["cut", "band", "open", "announce"]
Reveal = Literal["auto", "on_request"]
Capture = Literal["tricks", "dehla"]
TieBreak = Literal["tricks", "highest_trick"]
DealerRotation = Literal["losers_deal", "rotate"]


_CHOICES: dict[str, tuple[str, ...]] = {
    "direction": get_args(Direction),
    "first_dealer": get_args(FirstDealer),
    "trump": get_args(TrumpMethod),
    "reveal": get_args(Reveal),
    "capture": get_args(Capture),
    "tie_break": get_args(TieBreak),
    "dealer_rotation": get_args(DealerRotation),
}


def _is_int(value: object) -> bool:
    """A whole number, and not a bool (``True`` is an ``int`` in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


class RulesError(game.RulesError):
    """An unknown option, a value out of range, or an impossible combination of options."""


@dataclass(frozen=True)
class Rules:
    """A complete, validated set of Mindi rule options; the defaults are preset ``classic``.
    Each option says the rule it sets and what it does (:func:`hukum.game.option`): the
    rules schema of the lobby form and the rules page is read from them."""

    players: int = field(
        default=4,
        metadata=option(
            "M-1",
            "4, 6 or 8 players in two teams: every other player is a partner (M-1).",
            choices=PLAYER_COUNTS,
        ),
    )
    deck: int = field(
        default=52,
        metadata=option(
            "M-2", "52 cards, or 48 without the 2s; 6 and 8 players need 48 (M-2).", choices=DECKS
        ),
    )
    direction: Direction = field(
        default="anticlockwise", metadata=option("M-4", "Direction of dealing and play (M-4).")
    )
    first_dealer: FirstDealer = field(
        default="highest",
        metadata=option("M-5", "Who deals first: highest or lowest card drawn, or random (M-5)."),
    )
    draw_partnerships: bool = field(
        default=False,
        metadata=option(
            "M-5",
            "The first-dealer draw also sets the teams: highest half against lowest half (M-5).",
        ),
    )
    trump: TrumpMethod = field(
        default="cut",
        metadata=option(
            "M-11", "How trump is set: cut (M-11), band (M-12), open (M-14) or announce (M-15)."
        ),
    )
    reveal: Reveal = field(
        default="auto",
        metadata=option(
            "M-12",
            "Band hukum only: the face-down card turns up at the first void, or on request (M-12).",
        ),
    )
    must_trump: bool = field(
        default=False,
        metadata=option(
            "M-8", "Once trump is known, a player void in the led suit must trump if able (M-8)."
        ),
    )
    capture: Capture = field(
        default="tricks",
        metadata=option(
            "M-10",
            "Tricks belong to the winner's team, or dehla: two wins in a row take the pile (M-10).",
        ),
    )
    tie_break: TieBreak = field(
        default="tricks",
        metadata=option(
            "M-16", "Who wins at two tens each: more tricks, or the highest trick (M-16)."
        ),
    )
    points: tuple[int, int, int] = field(
        default=(1, 2, 3),
        metadata=option(
            "M-18", "Match points for a win, a mendikot and a whitewash (M-18).", kind="points"
        ),
    )
    target: int | None = field(
        default=7,
        metadata=option(
            "M-18", "A match ends when a team reaches this many points; none: no target (M-18)."
        ),
    )
    deals: int | None = field(
        default=None,
        metadata=option(
            "M-18",
            "A match ends after this many deals (none: no limit); with a target, whichever first.",
        ),
    )
    dealer_rotation: DealerRotation = field(
        default="losers_deal",
        metadata=option(
            "M-19",
            "Who deals next: the losing side's dealer again, or always the next player (M-19).",
        ),
    )

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RulesError(
                    f'{name} "{shown(value)}" is not an option; choose one of ' + ", ".join(choices)
                )
        for name in ("must_trump", "draw_partnerships"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(
                    f'{name} must be true or false, not "{shown(getattr(self, name))}"'
                )
        for name in ("players", "deck"):
            if not _is_int(getattr(self, name)):
                raise RulesError(
                    f'{name} must be a whole number, not "{shown(getattr(self, name))}"'
                )
        if self.players not in PLAYER_COUNTS:
            raise RulesError(
                f"players: Mindi is played by 4, 6 or 8, not {self.players} (M-1)",
                rule_ids=("M-1",),
            )
        if self.deck not in DECKS:
            raise RulesError(f"deck: the pack has 52 cards, or 48 without the 2s, not {self.deck}")
        if self.players != 4 and self.deck != 48:
            raise RulesError(
                f"{self.players} players play with 48 cards (the four 2s removed): "
                "set deck=48 (M-2)",
                rule_ids=("M-2",),
            )
        if self.reveal != "auto" and self.trump != "band":
            raise RulesError(
                f"reveal {self.reveal} applies only to trump band (M-12)", rule_ids=("M-12",)
            )
        points = self.points
        if (
            not isinstance(points, tuple)
            or len(points) != 3
            or not all(_is_int(p) and p >= 0 for p in points)
        ):
            raise RulesError(
                "points must be three whole numbers, 0 or more, for a win, a mendikot and a "
                f'whitewash (e.g. 1, 2, 3), not "{shown(points)}"'
            )
        for name in ("target", "deals"):
            value = getattr(self, name)
            if value is not None and (not _is_int(value) or value < 1):
                raise RulesError(
                    f'{name} must be a whole number from 1 up, or none, not "{shown(value)}"'
                )
        if self.target is None and self.deals is None:
            raise RulesError(
                "a match needs an end: set a target of points, a number of deals, or both"
            )

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player."""
        return self.deck // self.players

    @property
    def step(self) -> int:
        """+1 if the next player is the next seat number (anticlockwise), else -1."""
        return 1 if self.direction == "anticlockwise" else -1

    def next_seat(self, seat: int) -> int:
        """The next player in the direction of play (M-4)."""
        return (seat + self.step) % self.players

    @classmethod
    def preset(cls, name: str, **changes: Any) -> Rules:
        """A named rule set (``classic``, ``hidden``, ``mindi-world``, ``mendicot``,
        ``dehla-pakad``), with any option changed."""
        if name not in PRESETS:
            raise RulesError(f"no preset {name!r}; choose one of " + ", ".join(PRESETS))
        return PRESETS[name].replace(**changes)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated)."""
        names = [f.name for f in dataclasses.fields(self)]
        for key in changes:
            if key not in names:
                raise RulesError(f"no rule option {key!r}; the options are " + ", ".join(names))
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every option as JSON-ready data."""
        data = dataclasses.asdict(self)
        data["points"] = list(self.points)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` data (missing options take their defaults)."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of options, not {type(data).__name__}")
        data = dict(data)
        if isinstance(data.get("points"), list):
            data["points"] = tuple(data["points"])
        return cls().replace(**data)

    def differences(self) -> dict[str, Any]:
        """The options that differ from the defaults (preset ``classic``)."""
        base = Rules()
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        }


PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "hidden": Rules(trump="band", reveal="auto"),
    "mindi-world": Rules(
        direction="clockwise", tie_break="highest_trick", dealer_rotation="rotate"
    ),
    "mendicot": Rules(direction="clockwise", dealer_rotation="rotate"),
    "dehla-pakad": Rules(trump="announce", capture="dehla"),
}
