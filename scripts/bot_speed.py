"""Time a Mindi bot's decisions: it plays seats 0 and 2 against ``rules`` over a few seeded
deals, and every decision with more than one legal move is timed (forced moves are not).

    .venv/bin/python scripts/bot_speed.py --bot search --preset classic --deals 4
    .venv/bin/python scripts/bot_speed.py --bot expert --option solve_tricks=10

Run it on a quiet machine: the figures are wall-clock times.
"""

from __future__ import annotations

import argparse
import statistics
import time

from hukum.arena import parse_options
from hukum.bots import BOT_NAMES, make_bot
from hukum.mindi import PRESETS, Deal


def main() -> None:
    """Print p50, p95 and max decision time of the bot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search", choices=BOT_NAMES)
    parser.add_argument("--preset", default="classic", choices=list(PRESETS))
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=200, help="first deal seed")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="bot option"
    )
    args = parser.parse_args()
    rules = PRESETS[args.preset]
    options = parse_options(args.option)
    bot = make_bot(args.bot, seed=1, **options)
    other = make_bot("rules")
    times: list[float] = []
    for seed in range(args.seed, args.seed + args.deals):
        deal = Deal.new(rules, dealer=seed % 4, seed=seed)
        while not deal.is_over():
            turn = deal.turn
            assert turn is not None
            view = deal.view(turn)
            if turn % 2 == 0:
                start = time.perf_counter()
                move = bot.choose(view)
                if len(view.legal_moves) > 1:
                    times.append(time.perf_counter() - start)
            else:
                move = other.choose(view)
            deal.push(move)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(
        f"{args.bot} {options} ({args.preset}): {len(times)} decisions, p50 "
        f"{statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {times[-1] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
