"""Do the ratings mean something? (issue 43, "Measured" item 2.)

Accounts played by computer players of known strength (Mindi: random, rules, search and
expert, ``--per-level`` accounts each) queue in a quick-match pool and are paired by the
pool's real wave (:func:`hukum.online.pools.wave`, a wave every simulated 2 s, each ticket
carrying its account's current shown rating); a seat still empty when a ticket's countdown
ends goes to a computer player at its fixed rating (:data:`hukum.online.ratings.BOT_RATINGS`,
the level :func:`~hukum.online.ratings.bot_for` picks for the table's mean rating), as the
server does. Each table plays a one-deal rated match with the library's bots (two worker
processes, no bot delay) and is rated with :func:`hukum.online.ratings.rate_match` in the
order the matches finish (simulated time: a match lasts ``--duration`` seconds, an account
pauses up to ``--pause`` seconds before it queues again).

Every finished match is appended to ``--results`` (JSON lines after a first line naming the
run); a rerun with the same file replays the ratings from it and goes on until ``--matches``
are done, so the run can be stopped and started again (a match cut off is played anew).
``--report`` prints the figures of the file without playing.

``--evaluate RATED`` scores the ratings on matches they did not pair: the accounts start
from the ratings the run in the file ``RATED`` left (every model replays it), tables are
drawn at random from the accounts waiting (no computer players), and each model's forecast
of each of these matches, from its ratings before it (still updated match by match), is
scored. A rating paired by itself forecasts little: the wave seats people of like rating,
so most rated matches are near even and any forecast of them is near a coin's.

The report: the leaderboard of the accounts by the conservative figure, the mean shown
rating per level (which must order the levels by strength), the win prediction on the
later half of the matches (each predicted from the ratings before it) as log loss and Brier
score for every OpenSkill model, for Elo on teams (team rating = mean of its members') and
for a coin, and the fitted fixed ratings per level to paste into ``BOT_RATINGS``.

    .venv/bin/python scripts/ratings.py --matches 2000 --results ratings.jsonl
    .venv/bin/python scripts/ratings.py --results ratings.jsonl --report
    .venv/bin/python scripts/ratings.py --evaluate ratings.jsonl --matches 500 \
        --results ratings-random.jsonl
"""

from __future__ import annotations

import argparse
import fcntl
import heapq
import itertools
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from hukum.games import game_named, make_bot
from hukum.online.pools import POOLS, Pool, Seating, Ticket, wave
from hukum.online.ratings import (
    BOT_RATINGS,
    MODEL,
    START_MU,
    START_SIGMA,
    Member,
    Side,
    bot_for,
    conservative,
    rate_match,
    shown,
    shown_deviation,
)
from hukum.play import play_deal

#: Seconds between two waves (the server's default ``--pool-wave``).
WAVE_EVERY = 2.0
#: Elo's K factors tried (Elo on teams: each person moves by K times the team's surprise).
ELO_KS = (8, 16, 24, 32, 48, 64)
ELO_K = 32
#: The OpenSkill models compared, the one rated play uses first (:data:`RATED`,
#: hukum.online.ratings.MODEL: Plackett-Luce with a beta eight times the default); then the
#: library's five models at their defaults, and Plackett-Luce with other betas (the spread
#: of one performance: one deal of cards is mostly luck).
RATED = "PlackettLuce"
MODELS: dict[str, Callable[[], Any]] = {
    RATED: lambda: MODEL,
    "PlackettLuce default beta": PlackettLuce,
    "BradleyTerryFull": BradleyTerryFull,
    "BradleyTerryPart": BradleyTerryPart,
    "ThurstoneMostellerFull": ThurstoneMostellerFull,
    "ThurstoneMostellerPart": ThurstoneMostellerPart,
    "PlackettLuce beta x2": partial(PlackettLuce, beta=25 / 3),
    "PlackettLuce beta x4": partial(PlackettLuce, beta=50 / 3),
    "PlackettLuce beta x16": partial(PlackettLuce, beta=200 / 3),
}


# ------------------------------------------------------------------------------- the play


def play_match(pool_name: str, levels: Sequence[str], seed: int) -> dict[str, Any]:
    """Play a one-deal match of ``pool_name`` with a bot of ``levels[seat]`` at each seat;
    the match result (scores and winner(s)) and the seconds it took."""
    pool = POOLS[pool_name]
    spec = game_named(pool.game)
    match = spec.new_match(spec.make_rules(pool.preset, pool.options), seed=seed)
    players = [
        make_bot(pool.game, level, seed=seed * 8 + seat) for seat, level in enumerate(levels)
    ]
    start = time.perf_counter()
    while not match.is_over():
        play_deal(match.start_deal(), players)
    return {**spec.match_result(match), "seconds": round(time.perf_counter() - start, 3)}


def sides_of(pool: Pool) -> list[tuple[int, ...]]:
    """The seats of each side: partners (seat parity) in a partners pool, else each seat."""
    if pool.partners:
        return [tuple(range(team, pool.seats, 2)) for team in range(2)]
    return [(seat,) for seat in range(pool.seats)]


def ranks_of(pool: Pool, result: dict[str, Any]) -> list[int]:
    """Each side's place (0 first; level sides share it) from a match result."""
    scores = result["scores"]
    if pool.partners:
        winner = result.get("winner")
        return [0, 0] if winner is None else [0 if team == winner else 1 for team in range(2)]
    return [sum(other > score for other in scores) for score in scores]


# ----------------------------------------------------------------------------- the ratings


@dataclass
class Account:
    """A simulated person: a bot level behind an account with a rating in the pool."""

    name: str
    level: str
    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0
    wins: int = 0


@dataclass
class Forecasts:
    """Every model's ratings of the accounts and its forecasts, match by match."""

    game: str
    accounts: dict[str, Account]
    others: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)
    elo: dict[int, dict[str, float]] = field(default_factory=dict)
    # Per match: the outcome of each side (1 won, 0 lost, level sides share) and each model's
    # probabilities of each side winning, before the match was rated.
    outcomes: list[list[float]] = field(default_factory=list)
    predicted: dict[str, list[list[float]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.models = {name: make() for name, make in MODELS.items()}
        for name in MODELS:
            if name != RATED:
                self.others[name] = {a: (START_MU, START_SIGMA) for a in self.accounts}
        for k in ELO_KS:
            self.elo[k] = {a: 1500.0 for a in self.accounts}

    def add(self, pool: Pool, seats: Sequence[dict[str, Any]], ranks: Sequence[int]) -> None:
        """Forecast a finished match with every model, then rate it with each."""
        sides = sides_of(pool)
        best = min(ranks)
        winners = [r == best for r in ranks]
        self.outcomes.append([w / sum(winners) for w in winners])

        # OpenSkill: the model rated play uses (hukum.online.ratings), then the others.
        def member(
            seat: dict[str, Any], ratings: dict[str, tuple[float, float]] | None
        ) -> tuple[float, float]:
            if seat["account"] is None:
                return BOT_RATINGS[self.game][seat["level"]]
            if ratings is None:
                account = self.accounts[seat["account"]]
                return account.mu, account.sigma
            return ratings[seat["account"]]

        for name, model in self.models.items():
            ratings = None if name == RATED else self.others[name]
            teams = [
                [
                    model.rating(mu=m[0], sigma=m[1])
                    for m in (member(seats[s], ratings) for s in side)
                ]
                for side in sides
            ]
            self.predicted.setdefault(name, []).append([float(p) for p in model.predict_win(teams)])
            if ratings is None:
                continue
            new = model.rate(teams, ranks=[float(r) for r in ranks])
            for side, team in zip(sides, new, strict=True):
                for s, rating in zip(side, team, strict=True):
                    if seats[s]["account"] is not None:
                        ratings[seats[s]["account"]] = (rating.mu, rating.sigma)
        for k, elo in self.elo.items():

            def team_elo(side: tuple[int, ...], elo: dict[str, float] = elo) -> float:
                return statistics.fmean(
                    elo[seats[s]["account"]]
                    if seats[s]["account"] is not None
                    else shown(BOT_RATINGS[self.game][seats[s]["level"]][0])
                    for s in side
                )

            strength = [10 ** (team_elo(side) / 400) for side in sides]
            expected = [x / sum(strength) for x in strength]
            self.predicted.setdefault(f"Elo K={k}", []).append(expected)
            for side, e, won in zip(sides, expected, self.outcomes[-1], strict=True):
                for s in side:
                    if seats[s]["account"] is not None:
                        elo[seats[s]["account"]] += k * (won - e)
        # The rating of rated play.
        rated = [
            Side(
                tuple(
                    Member.computer(self.game, seats[s]["level"])
                    if seats[s]["account"] is None
                    else Member(
                        self.accounts[seats[s]["account"]].mu,
                        self.accounts[seats[s]["account"]].sigma,
                    )
                    for s in side
                ),
                rank,
            )
            for side, rank in zip(sides, ranks, strict=True)
        ]
        for side, rank, new in zip(sides, ranks, rate_match(rated), strict=True):
            for s, value in zip(side, new, strict=True):
                name = seats[s]["account"]
                if name is None or value is None:
                    continue
                account = self.accounts[name]
                account.mu, account.sigma = value
                account.games += 1
                account.wins += rank == best and sum(winners) == 1

    def scores(self, name: str, first: int) -> tuple[float, float]:
        """Log loss and Brier score of model ``name`` on the matches from ``first`` on."""
        losses, briers = [], []
        for p, y in zip(self.predicted[name][first:], self.outcomes[first:], strict=True):
            losses.append(
                -sum(yi * math.log(min(max(pi, 1e-12), 1.0)) for pi, yi in zip(p, y, strict=True))
            )
            briers.append(statistics.fmean((pi - yi) ** 2 for pi, yi in zip(p, y, strict=True)))
        return statistics.fmean(losses), statistics.fmean(briers)


# --------------------------------------------------------------------------- the results


def read_results(path: Path, run: dict[str, Any], write: bool) -> list[dict[str, Any]]:
    """The matches a results file holds (refusing a file of another run); a last line cut
    off by a killed run is dropped (and, with ``write``, removed from the file, which is
    made if it is missing)."""
    if not path.exists() or path.stat().st_size == 0:
        if not write:
            sys.exit(f"{path}: no results yet")
        path.write_text(json.dumps({"run": run}) + "\n", encoding="utf-8")
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0]).get("run")
    # A report may read a run played under another model: the matches' results are the
    # same facts whatever rates them (each model replays them); playing on may not.
    same = head == run or (not write and {**head, "model": run["model"]} == run)
    if not same:
        sys.exit(f"{path} holds another run: {head}; this one is {run}")
    if head != run:
        print(f"(the matches were paired under {head['model']}; rated here under each model)")
    matches = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            matches.append(json.loads(line))
        except json.JSONDecodeError:
            if number != len(lines):
                raise
            if write:
                path.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    return matches


# ---------------------------------------------------------------------------- the floor


def random_tables(pool: Pool, waiting: dict[str, Ticket], rng: random.Random) -> list[Seating]:
    """Tables of the accounts waiting drawn at random, whatever their ratings (those left
    over when the tables are full wait for the next wave)."""
    names = sorted(waiting)
    rng.shuffle(names)
    tables = len(names) // pool.seats
    return [
        Seating(tuple(group), tuple(group))
        for group in (names[t * pool.seats : (t + 1) * pool.seats] for t in range(tables))
    ]


@dataclass(order=True)
class Running:
    """A match being played (in simulated time until ``end``)."""

    end: float
    number: int
    start: float = field(compare=False)
    seats: list[dict[str, Any]] = field(compare=False)
    seed: int = field(compare=False)
    future: Future[dict[str, Any]] = field(compare=False)


def simulate(
    args: argparse.Namespace,
    pool: Pool,
    forecasts: Forecasts,
    done: list[dict[str, Any]],
    path: Path,
) -> None:
    """Queue, pair, play and rate until ``args.matches`` matches are in the file."""
    accounts = forecasts.accounts
    rng = random.Random(f"{args.seed}/{len(done)}")
    now = max((m["end"] for m in done), default=0.0)
    returning = [(now + rng.uniform(0, args.pause), name) for name in sorted(accounts)]
    heapq.heapify(returning)
    waiting: dict[str, Ticket] = {}
    running: list[Running] = []
    started = len(done)
    next_wave = now
    clock = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as workers, path.open("a", encoding="utf-8") as out:
        while len(done) < args.matches:
            if running and (running[0].end <= next_wave or started >= args.matches):
                match = heapq.heappop(running)
                result = match.future.result()
                now = match.end
                ranks = ranks_of(pool, result)
                forecasts.add(pool, match.seats, ranks)
                record = {
                    "match": len(done) + 1,
                    "seed": match.seed,
                    "start": round(match.start, 1),
                    "end": round(match.end, 1),
                    "seats": match.seats,
                    "result": result,
                }
                done.append(record)
                out.write(json.dumps(record) + "\n")
                out.flush()
                for seat in match.seats:
                    if seat["account"] is not None:
                        heapq.heappush(
                            returning, (now + rng.uniform(0, args.pause), seat["account"])
                        )
                if len(done) % args.every == 0:
                    rate = (len(done) - args.resumed) / max(1e-9, time.perf_counter() - clock) * 60
                    print(f"{len(done)} matches ({rate:.1f} a minute)", flush=True)
                    if len(done) % (args.every * 10) == 0:
                        report(pool, forecasts, done, args.first)
                continue
            now = next_wave
            next_wave += WAVE_EVERY
            while returning and returning[0][0] <= now:
                since, name = heapq.heappop(returning)
                account = accounts[name]
                waiting[name] = Ticket(name, (name,), float(shown(account.mu)), since)
            if started >= args.matches:
                continue
            seatings = (
                random_tables(pool, waiting, rng)
                if args.evaluate
                else wave(pool, list(waiting.values()), now)
            )
            for seating in seatings:
                if started >= args.matches:
                    break
                people = [accounts[t] for t in seating.tickets]
                for t in seating.tickets:
                    del waiting[t]
                fill = bot_for(pool.game, statistics.fmean(shown(a.mu) for a in people))
                seats: list[dict[str, Any]] = [
                    {"account": name, "level": accounts[name].level if name else fill}
                    for name in seating.seats
                ]
                started += 1
                seed = rng.randrange(2**31)
                future = workers.submit(play_match, pool.name, [s["level"] for s in seats], seed)
                end = now + rng.uniform(*args.duration)
                heapq.heappush(running, Running(end, started, now, seats, seed, future))


# ------------------------------------------------------------------------------ the report


def calibration(predicted: list[list[float]], outcomes: list[list[float]]) -> None:
    """Print how often rated play's favourite won, and its forecasts against the outcomes
    by the favourite's forecast (a model may be calibrated yet predict little)."""
    pairs = [(max(p), o[p.index(max(p))]) for p, o in zip(predicted, outcomes, strict=True)]
    print(
        f"  rated play's favourite won {statistics.fmean(won for _, won in pairs):.1%} "
        f"of {len(pairs)} matches; by its forecast:"
    )
    for low, high in ((0.0, 0.55), (0.55, 0.6), (0.6, 0.7), (0.7, 1.01)):
        bin_ = [(p, won) for p, won in pairs if low <= p < high]
        if bin_:
            print(
                f"    {max(low, 0.5):.2f}-{min(high, 1.0):.2f}: {len(bin_):>5} matches, "
                f"forecast {statistics.fmean(p for p, _ in bin_):.3f}, "
                f"won {statistics.fmean(w for _, w in bin_):.3f}"
            )


def report(
    pool: Pool, forecasts: Forecasts, done: list[dict[str, Any]], first: int | None = None
) -> None:
    """Print the leaderboard, the levels' ratings, the prediction scores (on the matches
    from number ``first`` on, default the later half) and fitted ratings."""
    accounts = sorted(forecasts.accounts.values(), key=lambda a: -conservative(a.mu, a.sigma))
    seats = [s for m in done for s in m["seats"]]
    bots = sum(s["account"] is None for s in seats)
    print(
        f"\n== {len(done)} one-deal rated matches of pool {pool.name}; {len(accounts)} accounts; "
        f"{bots / max(1, len(seats)):.0%} of the seats to computer players =="
    )
    print(
        f"{'rank':>4}  {'account':<10} {'level':<7} {'rating':>6} {'±':>4} {'conserv.':>8} "
        f"{'games':>5} {'wins':>5}"
    )
    for rank, a in enumerate(accounts, start=1):
        print(
            f"{rank:>4}  {a.name:<10} {a.level:<7} {shown(a.mu):>6} {shown_deviation(a.sigma):>4} "
            f"{conservative(a.mu, a.sigma):>8.0f} {a.games:>5} {a.wins:>5}"
        )
    levels = list(
        dict.fromkeys(a.level for a in sorted(forecasts.accounts.values(), key=lambda a: a.name))
    )
    means = {
        level: statistics.fmean(shown(a.mu) for a in accounts if a.level == level)
        for level in levels
    }
    strength = [level for level in BOT_RATINGS[pool.game] if level in means]
    # random < rules < search <= expert: the two strongest may come out level.
    ordered = all(
        means[a] <= means[b] if (a, b) == ("search", "expert") else means[a] < means[b]
        for a, b in itertools.pairwise(strength)
    )
    print(
        "mean shown rating per level: "
        + ", ".join(f"{level} {means[level]:.0f}" for level in strength)
        + (" (ordered by strength)" if ordered else " (NOT ordered by strength)")
    )
    n = len(forecasts.outcomes)
    later = first is None
    first = n // 2 if first is None else first
    if n - first >= 1:
        coin = [1 / len(forecasts.outcomes[0])] * len(forecasts.outcomes[0])
        coin_loss = -math.log(coin[0])
        coin_brier = statistics.fmean(
            statistics.fmean((c - y) ** 2 for c, y in zip(coin, o, strict=True))
            for o in forecasts.outcomes[first:]
        )
        print(
            f"win prediction on {'the later half' if later else 'the tables drawn at random'}: "
            f"matches {first + 1}–{n} ({n - first}), each from the ratings before it"
        )
        print(f"  {'model':<38} {'log loss':>8} {'Brier':>7}")
        print(f"  {'coin':<38} {coin_loss:>8.4f} {coin_brier:>7.4f}")
        for name in MODELS:
            loss, brier = forecasts.scores(name, first)
            used = f" (rated play's, beta {MODEL.beta:.3g})" if name == RATED else ""
            print(f"  {'OpenSkill ' + name + used:<38} {loss:>8.4f} {brier:>7.4f}")
        for k in ELO_KS:
            loss, brier = forecasts.scores(f"Elo K={k}", first)
            print(f"  {f'Elo on teams, K={k}':<38} {loss:>8.4f} {brier:>7.4f}")
        calibration(forecasts.predicted[RATED][first:], forecasts.outcomes[first:])
    print(
        "fitted fixed ratings (mu: mean of the level's accounts; sigma: their spread, "
        "at least 0.5):"
    )
    fitted = {}
    for level in strength:
        mus = [a.mu for a in accounts if a.level == level]
        spread = statistics.stdev(mus) if len(mus) > 1 else 1.0
        fitted[level] = (round(statistics.fmean(mus), 1), round(max(0.5, spread), 1))
    print(
        f'    "{pool.game}": {{' + ", ".join(f'"{k}": {v}' for k, v in fitted.items()) + "},",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pool", default="mindi", choices=list(POOLS))
    parser.add_argument(
        "--levels",
        help="bot levels with accounts, comma-separated (default: every level the game "
        "has a fixed rating for)",
    )
    parser.add_argument("--per-level", type=int, default=6, help="accounts per level (default 6)")
    parser.add_argument("--matches", type=int, default=2000, help="matches in the file at the end")
    parser.add_argument("--results", type=Path, default=Path("ratings.jsonl"))
    parser.add_argument("--report", action="store_true", help="print the file's figures only")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument(
        "--pause", type=float, default=20.0, help="an account queues again within S s"
    )
    parser.add_argument(
        "--duration",
        type=float,
        nargs=2,
        default=(30.0, 90.0),
        metavar=("MIN", "MAX"),
        help="simulated seconds a match lasts (default 30 to 90)",
    )
    parser.add_argument("--every", type=int, default=25, help="a progress line every N matches")
    parser.add_argument(
        "--evaluate",
        type=Path,
        metavar="RATED",
        help="start from the ratings the run in RATED left, draw the tables at random and "
        "score the forecasts of these matches only",
    )
    args = parser.parse_args()
    pool = POOLS[args.pool]
    levels = args.levels.split(",") if args.levels else list(BOT_RATINGS[pool.game])
    unknown = [level for level in levels if level not in BOT_RATINGS[pool.game]]
    if unknown:
        parser.error(f"no fixed rating for level(s) {', '.join(unknown)} of {pool.game}")
    accounts = {
        f"{level}-{i + 1}": Account(f"{level}-{i + 1}", level)
        for level in levels
        for i in range(args.per_level)
    }
    run = {
        "pool": pool.name,
        "levels": levels,
        "per_level": args.per_level,
        "seed": args.seed,
        "model": f"{type(MODEL).__name__} beta {MODEL.beta:.4g}",
        "bots": BOT_RATINGS[pool.game],
    }
    rated_run = json.loads(json.dumps(run))
    run = {**rated_run, "evaluate": str(args.evaluate)} if args.evaluate else rated_run
    if not args.report:
        # One run at a time plays into a file (a --report may read it meanwhile).
        lock = args.results.open("a", encoding="utf-8")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            sys.exit(f"{args.results} is in use by another run")
    forecasts = Forecasts(pool.game, accounts)
    args.first = None
    if args.evaluate:
        for match in read_results(args.evaluate, rated_run, write=False):
            forecasts.add(pool, match["seats"], ranks_of(pool, match["result"]))
        args.first = len(forecasts.outcomes)
    done = read_results(args.results, run, write=not args.report)
    for match in done:
        forecasts.add(pool, match["seats"], ranks_of(pool, match["result"]))
    args.resumed = len(done)
    if not args.report and len(done) < args.matches:
        print(
            f"{len(done)} matches read back from {args.results}; playing to {args.matches}",
            flush=True,
        )
        simulate(args, pool, forecasts, done, args.results)
    report(pool, forecasts, done, args.first)


if __name__ == "__main__":
    main()
