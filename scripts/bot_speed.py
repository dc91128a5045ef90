"""Time a bot's decisions: it plays bot A's seats of the game's first arena seating (Mindi:
seats 0 and 2; Ganjifa: seat 0) against ``rules`` over a few seeded deals, and every
decision with more than one legal move is timed (forced moves are not).

    .venv/bin/python scripts/bot_speed.py --bot search --preset classic --deals 4
    .venv/bin/python scripts/bot_speed.py --bot expert --option solve_tricks=10
    .venv/bin/python scripts/bot_speed.py --game ganjifa --bot search --deals 2

Run it on a quiet machine: the figures are wall-clock times.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from hukum.arena import arena_of
from hukum.cli.args import UsageError, parse_options
from hukum.game import Player
from hukum.games import GAMES
from hukum.play import play_deal


@dataclass
class Timed:
    """A player whose decisions with a choice are timed."""

    bot: Player[Any, Any]
    times: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The timed bot's name."""
        return self.bot.name

    def choose(self, view: Any) -> Any:
        """The bot's move; its time is kept if it had more than one legal move."""
        start = time.perf_counter()
        move = self.bot.choose(view)
        if len(view.legal_moves) > 1:
            self.times.append(time.perf_counter() - start)
        return move


def main() -> None:
    """Print p50, p95 and max decision time of the bot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="mindi", choices=tuple(GAMES))
    parser.add_argument("--bot", default="search", help="a bot of the game")
    parser.add_argument("--preset", help="a preset of the game (default: the game's)")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=200, help="first deal seed")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="bot option"
    )
    args = parser.parse_args()
    spec = GAMES[args.game]
    arena = arena_of(spec)
    rules = arena.one_deal(spec.make_rules(args.preset))
    try:
        options = parse_options(args.option)
    except UsageError as e:
        parser.error(str(e))
    timed = Timed(spec.make_bot(args.bot, seed=1, **options))
    other = spec.make_bot("rules")
    a_seats = next(side.seats for side in arena.seatings(rules)[0] if side.bot == "A")
    players = {s: timed if s in a_seats else other for s in range(spec.players(rules))}
    for seed in range(args.seed, args.seed + args.deals):
        play_deal(spec.new_match(rules, seed).start_deal(seed), players)
    times = sorted(timed.times)
    p95 = times[int(0.95 * (len(times) - 1))]
    print(
        f"{args.bot} {options} ({args.game}, {args.preset or spec.default_preset}): "
        f"{len(times)} decisions, p50 {statistics.median(times) * 1000:.0f} ms, "
        f"p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
