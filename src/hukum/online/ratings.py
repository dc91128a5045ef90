"""Ratings of rated play: OpenSkill (Weng-Lin) ratings, one per player and pool, moved by
each rated match, and the fixed ratings of the computer players who fill empty seats.

The model is OpenSkill's **Plackett-Luce** (:data:`MODEL`, openskill 6.2.0: mu 25, sigma
25/3 and tau 25/300 as the library has them, and a **beta eight times its default**,
:data:`BETA`). Beta is the spread of one performance: one deal of cards is mostly luck, and
the default beta, made for games of skill, was over-confident. Measured by
``scripts/ratings.py`` (docs/strength.md, "Ratings"): accounts played by the four computer
levels, 2,000 one-deal rated Mindi matches through the pool's waves, then 500 more at tables
drawn at random, each forecast from the ratings before it. On the random tables rated play's
model scores log loss **0.628** (Brier 0.220) against a coin's 0.693 (0.250), 0.065 better
(standard error 0.014), and its favourite won 64% of them; the default beta scores 0.896,
worse than a coin (over-confident), x2 0.710, x4 0.646, x16 0.653; Elo on teams at best
0.626 (K = 8, level with this model: 0.002 apart, standard error 0.004). On the pools' own
matches no model beats a coin by more than 0.0002: the pools seat people of like ratings and
balance the teams, so nearly every match is close to even (the favourite won 52.5% of them),
and the forecasts there (0.5-0.6) came true as often as they said. With beta x8 a rating
moves about 40 points a match rather than 150, and its uncertainty (sigma) narrows only over
hundreds of matches, which is what one deal of Mindi tells of a player.

Why OpenSkill rather than Elo on teams, which forecast as well: a rating with its own
uncertainty is what the "?" of a provisional rating and the leaderboard's cautious figure are
made of, a new player moves fast and a settled one slowly without a hand-tuned K, and one
model rates Mindi's two pairs and Ganjifa's three players alike. Why Plackett-Luce of the
five models:

* a result of k sides is one Plackett-Luce likelihood of the whole order (Algorithm 4 of
  Weng and Lin, 2011), where the Bradley-Terry and Thurstone-Mosteller models sum
  independent pairwise comparisons (the "Full" ones every pair; the "Part" ones the pairs
  within a sliding window, which for two or three sides is every pair again): a Ganjifa
  deal of three players counts once, not as three separate games;
* for two sides (Mindi) the five differ little; Plackett-Luce is the model the library's
  documentation starts with, and draws are equal ranks, which it takes as they are;
* speed does not decide: one Mindi match takes about 0.2 ms to rate (measured), once.

If another model predicts better, :data:`MODEL` is the one constant to change.

A person sees ``round(mu * 60)`` (1500 at the start) and a deviation ``round(sigma * 60)``;
the leaderboard ranks by the conservative figure ``(mu - 3 sigma) * 60`` so that a few lucky
matches do not top it. A rating is *provisional* (shown with a "?") while the person has
played fewer than :data:`PROVISIONAL_GAMES` rated matches in the pool (sigma, with this
beta, stays wide for far longer than a person would wait for the "?" to go).

Leaving: a person who left a rated match (a computer player finished it for them) loses, and
only they pay for it: their partner who stayed is not rated, and the other sides are rated as
winners against the leaver's side. When more than one side has a leaver, only the leavers
move, each by a loss.

>>> shown(START_MU), shown_deviation(START_SIGMA), provisional(0)
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
    "BETA",
    "BOT_RATINGS",
    "MODEL",
    "PROVISIONAL_GAMES",
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
#: The spread of one performance: eight times OpenSkill's default (25/6), the best of
#: those measured for one-deal matches (the module's docstring).
BETA = 8 * 25 / 6
MODEL = PlackettLuce(beta=BETA)

START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma

#: Shown rating points per unit of mu: 25 -> 1500, the scale players know from Elo.
SCALE = 60

#: A rating is provisional below this many rated matches in the pool.
PROVISIONAL_GAMES = 10

#: The computer players' fixed ratings, by game and level: (mu, sigma), the anchors of the
#: scale; sigma small because a bot's strength does not change. Mindi's mu are measured: the
#: mean mu of the six accounts each level played in ``scripts/ratings.py``'s 2,500 matches
#: (docs/strength.md, "Ratings"; shown random 229, rules 1414, search 1904, expert 2004: a
#: new person at 1500 is seated beside the rules player). Ganjifa's are reasoned, not yet
#: measured: the random player far below a new person, the rules player a little below one,
#: the search player above.
BOT_RATINGS: dict[str, dict[str, tuple[float, float]]] = {
    "mindi": {
        "random": (3.8, 1.0),
        "rules": (23.6, 1.0),
        "search": (31.7, 1.0),
        "expert": (33.4, 1.0),
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


def provisional(games: int) -> bool:
    """Whether a rating after ``games`` rated matches is still provisional (a "?" beside it)."""
    return games < PROVISIONAL_GAMES


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
