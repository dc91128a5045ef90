"""What the server's fair-play screening costs per deal (issue 42: "say what screening costs
per deal in CPU and how it keeps up with the deals a process plays").

Plays ``--deals`` classic Mindi deals with the four seats at ``--level`` (as people of that
strength would), then screens each deal as the server's worker does
(:func:`hukum.server.play.screening.screen_events` on the deal's stored-event form: the
table's log replayed, then :func:`hukum.screening.screen`), once with one person's seat (a
challenge deal, or a pool table with one person) and once with all four (a pool table of
four people). Prints the CPU seconds per screened deal (median, p95, mean) and the deals one
worker process screens a minute at that cost.

    .venv/bin/python scripts/screencost.py --deals 40 --level search
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from hukum.games import game_named
from hukum.online.pools import POOLS
from hukum.server.play.screening import screen_events
from hukum.server.tables.config import TableConfig


def events_of(deal: Any, config: TableConfig, people: int) -> list[tuple[int, str, dict[str, Any]]]:
    """The log of a one-deal pool room that played ``deal``: ``people`` person seats (the
    first ones), computer players at the others."""
    events: list[tuple[int, str, dict[str, Any]]] = []
    for seat in range(4):
        human = seat < people
        data = {"seat": seat, "kind": "human" if human else "bot", "name": f"S{seat}"}
        if human:
            data["player"] = f"p{seat}"
        events.append((len(events) + 1, "seat", data))
    events.append((len(events) + 1, "start", {"match_seed": 1}))  # as the deal's match
    events.append((len(events) + 1, "deal", {"seed": deal.seed, "commitment": "", "dealer": 0}))
    for seat, move in deal.history:
        events.append((len(events) + 1, "move", {"seat": seat, "move": str(move), "bot": False}))
    return events


def quantile(values: list[float], q: float) -> float:
    """The nearest-rank quantile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def main() -> None:
    """Measure and print (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--level", default="search", help="the players' level")
    args = parser.parse_args()
    spec = game_named("mindi")
    pool = POOLS["mindi"]
    rules = spec.make_rules(pool.preset, dict(pool.options))
    config = TableConfig(rules, pool.preset, args.level, None, spec.name, pool="mindi")
    costs: dict[int, list[float]] = {1: [], 4: []}
    decisions: dict[int, list[int]] = {1: [], 4: []}
    for i in range(args.deals):
        match = spec.new_match(rules, 1)
        deal: Any = match.start_deal(seed=10_000 + i)
        bots = [spec.make_bot(args.level, seed=i * 4 + s) for s in range(4)]
        while not deal.is_over():
            seat = deal.turn
            deal.push(bots[seat].choose(deal.view(seat)), seat=seat)
        for people in (1, 4):
            events = events_of(deal, config, people)
            start = time.process_time()
            _, seats = screen_events(f"cost{i}", config.to_dict(), events)
            costs[people].append(time.process_time() - start)
            decisions[people].append(sum(s.decisions for s in seats))
        print(
            f"deal {i + 1}: 1 seat {costs[1][-1]:.2f} s ({decisions[1][-1]} decisions), "
            f"4 seats {costs[4][-1]:.2f} s ({decisions[4][-1]})",
            flush=True,
        )
    for people in (1, 4):
        c = costs[people]
        per_minute = 60 / statistics.mean(c)
        print(
            f"{people} seat(s), {len(c)} deals at level {args.level}: CPU s per deal median "
            f"{statistics.median(c):.2f}, p95 {quantile(c, 0.95):.2f}, mean "
            f"{statistics.mean(c):.2f}; decisions screened {statistics.mean(decisions[people]):.1f}"
            f" a deal; one worker screens {per_minute:.0f} such deals a minute"
        )


if __name__ == "__main__":
    main()
