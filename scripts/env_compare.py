"""hukum's PettingZoo environments beside PettingZoo's own card games, run the same way on
the same core: random legal actions in PettingZoo's usual loop (``hukum.bench.run_env``).

    .venv/bin/pip install 'pettingzoo[classic]==1.27.0'   # RLCard's games, for the comparison
    .venv/bin/python scripts/env_compare.py

Run it on a quiet machine: the figures are wall-clock rates. PettingZoo's games that are
not installed are left out, with the reason.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from hukum import bench
from hukum.envs.pettingzoo import env

#: PettingZoo's card games (RLCard's) and how many episodes of each to play.
CLASSIC = (("leduc_holdem_v4", 2000), ("texas_holdem_v4", 2000), ("texas_holdem_no_limit_v6", 1000))


def main() -> None:
    rows: list[tuple[str, Callable[[], Any], int]] = [
        ("hukum mindi env()", lambda: env("mindi"), 300),
        ("hukum ganjifa env()", lambda: env("ganjifa"), 60),
    ]
    for name, episodes in CLASSIC:
        try:
            module = importlib.import_module(f"pettingzoo.classic.{name}")
        except ImportError as e:
            print(f"{name}: not run ({e}); pip install 'pettingzoo[classic]'")
            continue
        rows.append((f"pettingzoo {name} raw_env()", module.raw_env, episodes))
        rows.append((f"pettingzoo {name} env()", module.env, episodes))
    for label, make, episodes in rows:
        result = bench.run_env(make, deals=episodes, name=label)
        print(f"{label:44s} {result.moves_per_second:>9,.0f} steps/s ({result.moves:,} steps)")


if __name__ == "__main__":
    main()
