"""Ratings of rated play: OpenSkill (Weng-Lin) ratings, one per player and pool, moved by
each rated match, and the fixed ratings of the computer players who fill empty seats.

The model is OpenSkill's **Plackett-Luce** (:data:`MODEL`, openskill 6.2.0, its default
parameters: mu 25, sigma 25/3, beta 25/6, tau 25/300). Why this one of the five:

* it rates any number of sides with any number of members in one update, so Mindi's two
  teams of two and Ganjifa's three single players use the same code;
* a full ranking of k sides is one Plackett-Luce likelihood, whereas the "Part" models
  (Bradley-Terry Part, Thurstone-Mosteller Part) compare only neighbouring ranks (made for
  many-team free-for-alls, where they are cheaper but less accurate) and the "Full" pairwise
  models treat the k(k-1)/2 pairs as independent games, which over-counts a three-player
  Ganjifa deal;
* draws are ties in the ranking, which it takes as they are (a Mindi match may end level);
* it is the library's reference model, with the best accuracy of the five in OpenSkill's own
  benchmarks and the update the library is tested hardest on.

Part WAVE measures the prediction (:func:`win_probability`) on simulated matches; if
another model predicts better, :data:`MODEL` is the one constant to change.

A person sees ``round(mu * 60)`` (1500 at the start) and a deviation ``round(sigma * 60)``;
the leaderboard ranks by the conservative figure ``(mu - 3 sigma) * 60`` so that a few lucky
matches do not top it. A rating is *provisional* (shown with a "?") while the person has
played fewer than :data:`PROVISIONAL_GAMES` rated matches in the pool or its sigma is above
:data:`PROVISIONAL_SIGMA`.

Leaving: a person who left a rated match (a computer player finished it for them) loses, and
only they pay for it: their partner who stayed is not rated, and the other sides are rated as
winners against the leaver's side. When more than one side has a leaver, only the leavers
move, each by a loss.

>>> shown(START_MU), shown_deviation(START_SIGMA), provisional(0, START_SIGMA)
(1500, 500, True)
>>> new = rate_match([Side((Member(25.0, 8.0),), 0), Side((Member(25.0, 8.0),), 1)])
>>> new[0][0][0] > 25.0 > new[1][0][0]
True
>>> bot_for("mindi", 1500)
'rules'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "BOT_RATINGS",
    "MODEL",
    "PROVISIONAL_GAMES",
    "PROVISIONAL_SIGMA",
    "SCALE",
    "START_MU",
    "START_SIGMA",
    "Member",
    "Side",
    "bot_for",
    "conservative",
    "provisional",
    "rate_match",
    "shown",
    "shown_deviation",
    "win_probability",
]

#: The OpenSkill model every rating uses (why Plackett-Luce: the module's docstring).
MODEL = PlackettLuce()

START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma

#: Shown rating points per unit of mu: 25 -> 1500, the scale players know from Elo.
SCALE = 60

#: A rating is provisional below this many rated matches in the pool...
PROVISIONAL_GAMES = 10
#: ...or while its sigma is above this (300 shown points; it starts at 500). Team play
#: narrows sigma slowly: a simulated Mindi player against people of like rating was at 360
#: after 10 matches and 300 after 20 (Ganjifa: 320 and 270), so the "?" goes after about
#: 20 matches rather than the hundred a 150-point threshold would take.
PROVISIONAL_SIGMA = 5.0

#: The computer players' fixed ratings, by game and level: (mu, sigma). First values by
#: reasoning (part WAVE's measurement calibrates them): the random player far below a new
#: person, the rules player a little below one, the search player above, the expert highest;
#: sigma small because a bot's strength does not change and is known from many games.
BOT_RATINGS: dict[str, dict[str, tuple[float, float]]] = {
    "mindi": {
        "random": (15.0, 1.0),
        "rules": (24.0, 1.0),
        "search": (27.5, 1.0),
        "expert": (30.0, 1.0),
    },
    "ganjifa": {
        "random": (15.0, 1.0),
        "rules": (24.0, 1.0),
        "search": (28.0, 1.0),
    },
}


def shown(mu: float) -> int:
    """The rating a person sees for a mu (1500 at the start)."""
    return round(mu * SCALE)


def shown_deviation(sigma: float) -> int:
    """The deviation a person sees for a sigma (500 at the start)."""
    return round(sigma * SCALE)


def conservative(mu: float, sigma: float) -> float:
    """The leaderboard's key on the shown scale: mu - 3 sigma (0 at the start)."""
    return (mu - 3 * sigma) * SCALE


def provisional(games: int, sigma: float) -> bool:
    """Whether a rating is still provisional (a "?" beside it)."""
    return games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA


def bot_for(game: str, rating: float) -> str:
    """The computer player level of ``game`` whose fixed shown rating is nearest ``rating``
    (on the shown scale); a tie goes to the weaker level."""
    levels = BOT_RATINGS[game]
    return min(levels, key=lambda level: (abs(shown(levels[level][0]) - rating), levels[level][0]))


@dataclass(frozen=True)
class Member:
    """One seat of a side as the rating sees it."""

    mu: float
    sigma: float
    bot: bool = False
    """A computer player: plays at its fixed rating, which never moves."""
    left: bool = False
    """A person who left (a computer player finished the match for them)."""

    @classmethod
    def computer(cls, game: str, level: str) -> Member:
        """A computer player of ``level`` at its fixed rating in ``game``."""
        mu, sigma = BOT_RATINGS[game][level]
        return cls(mu, sigma, bot=True)


@dataclass(frozen=True)
class Side:
    """A team (Mindi: two partners) or a single player (Ganjifa) and its place in the
    result: 0 first; sides with the same rank drew."""

    members: tuple[Member, ...]
    rank: int


def _rate(sides: Sequence[Side], ranks: Sequence[int]) -> list[list[tuple[float, float]]]:
    """OpenSkill's update of every member of ``sides`` for the result ``ranks``."""
    teams = [[MODEL.rating(mu=m.mu, sigma=m.sigma) for m in side.members] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [[(player.mu, player.sigma) for player in team] for team in rated]


def rate_match(sides: Sequence[Side]) -> list[list[tuple[float, float] | None]]:
    """The new (mu, sigma) of each member of each side after a rated match, None for a
    member whose rating does not move (a computer player; the partner of a leaver who
    stayed; everyone but the leavers when more than one side has one)."""
    if len(sides) < 2 or any(not side.members for side in sides):
        raise ValueError("a rated match needs two or more sides, each with a member")
    leaving = [i for i, side in enumerate(sides) if any(m.left for m in side.members)]
    out: list[list[tuple[float, float] | None]] = [[None] * len(s.members) for s in sides]
    if not leaving:
        new = _rate(sides, [side.rank for side in sides])
        for i, side in enumerate(sides):
            for j, member in enumerate(side.members):
                if not member.bot:
                    out[i][j] = new[i][j]
        return out
    if len(leaving) == 1:
        # The leaver's side last; the others keep their order among themselves.
        loser = leaving[0]
        last = max(side.rank for side in sides) + 1
        new = _rate(sides, [last if i == loser else side.rank for i, side in enumerate(sides)])
        for i, side in enumerate(sides):
            for j, member in enumerate(side.members):
                if member.bot or (i == loser and not member.left):
                    continue
                out[i][j] = new[i][j]
        return out
    # Several sides left: each leaving side loses to all the others, and only its leavers move.
    for loser in leaving:
        new = _rate(sides, [1 if i == loser else 0 for i in range(len(sides))])
        for j, member in enumerate(sides[loser].members):
            if member.left and not member.bot:
                out[loser][j] = new[loser][j]
    return out


def win_probability(
    team_a: Sequence[tuple[float, float]], team_b: Sequence[tuple[float, float]]
) -> float:
    """The model's probability that ``team_a`` (members' (mu, sigma)) beats ``team_b``."""
    a = [MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team_a]
    b = [MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team_b]
    return float(MODEL.predict_win([a, b])[0])
