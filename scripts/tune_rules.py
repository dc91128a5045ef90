"""Tune the rule-based player's weights against itself in duplicate (coordinate ascent).

Each weight of :class:`hukum.bots.rules.RulesWeights` in turn is tried at half, one and a
half times and zero its value (a whole-number weight one lower and one higher); a trial
plays the current best weights in the arena over ``--deals`` duplicate deals and is kept if
it wins more than ``--keep`` of them. A sweep goes over every weight; sweeps repeat (each
on the next seed) until one keeps nothing or ``--sweeps`` are done. The rule-based player
decides in about 0.03 ms, so 3,000 deals take about 8 s on two cores:

    .venv/bin/python scripts/tune_rules.py --preset classic --deals 3000 --seed 7

It prints every trial and, at the end, the kept weights as arena options. Check them on
other deals before believing them, e.g.

    .venv/bin/hukum arena rules rules --deals 10000 --seed 1001 --workers 2 --a hold_gone=0

Every figure is fixed by the seed (the rule-based player draws no random numbers).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from typing import Any

from hukum.arena import run_arena
from hukum.bots.rules import RulesWeights
from hukum.games import game_named


def trials(value: float) -> list[float]:
    """The values tried for a weight now at ``value``."""
    if isinstance(value, int):
        return [value - 1, value + 1]
    if value == 0:
        return [1.0, -1.0]
    return [value * 0.5, value * 1.5, 0.0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--deals", type=int, default=3000, help="duplicate deals a trial")
    parser.add_argument("--seed", type=int, default=7, help="seed of the first sweep")
    parser.add_argument("--sweeps", type=int, default=3)
    parser.add_argument("--keep", type=float, default=0.51, help="win rate a trial must beat")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    spec = game_named("mindi")
    rules = spec.make_rules(args.preset)
    defaults = dataclasses.asdict(RulesWeights())
    best: dict[str, Any] = dict(defaults)
    for sweep in range(args.sweeps):
        kept = False
        for name in defaults:
            current = best[name]
            for value in trials(current):
                trial = dict(best, **{name: value})
                start = time.perf_counter()
                report = run_arena(
                    "rules",
                    "rules",
                    args.deals,
                    rules,
                    args.seed + sweep,
                    args.workers,
                    options_a=trial,
                    options_b=best,
                )
                rate = report.win_rate
                low, high = report.interval
                seconds = time.perf_counter() - start
                print(
                    f"sweep {sweep} {name} {current:g} -> {value:g}: {rate:.1%} "
                    f"[{low:.1%}, {high:.1%}] ({seconds:.0f} s)",
                    flush=True,
                )
                if rate > args.keep:
                    best = trial
                    kept = True
                    print("  kept", flush=True)
                    break
        if not kept:
            break
    changed = [f"--a {k}={v:g}" for k, v in best.items() if v != defaults[k]]
    print("weights:", " ".join(changed) if changed else "the defaults (nothing kept)")


if __name__ == "__main__":
    main()
