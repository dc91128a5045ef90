"""The referee loop, once for every game: the seat to move chooses, the deal checks and
pushes, until the deal is over. The terminal, the arena, the benchmarks, the search bots'
play-outs and the scripts all play through it.

Each player sees only its own seat's view (M-20, G-11):

>>> from hukum.games import GAMES
>>> spec = GAMES["mindi"]
>>> deal = spec.new_match(spec.make_rules("classic"), seed=4).start_deal()
>>> players = [spec.make_bot("rules"), spec.make_bot("random", seed=1)] * 2
>>> seen = []
>>> play_deal(deal, players, on_move=lambda seat, move, seconds: seen.append(seat))
>>> deal.is_over(), len(seen)
(True, 52)

:func:`play_out` is the loop itself, for callers that choose from the deal rather than a
view (a search bot playing out a world it made up):

>>> deal = spec.new_match(spec.make_rules("classic"), seed=4).start_deal()
>>> play_out(deal, lambda seat: deal.legal_moves()[0])
52
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from hukum.game import Deal, Player

__all__ = ["play_deal", "play_out"]

M = TypeVar("M")
V = TypeVar("V")


def play_out(
    deal: Deal[M, Any],
    choose: Callable[[int], M],
    push: Callable[[M], None] | None = None,
) -> int:
    """Play ``deal`` to its end: ``choose(seat)`` gives the move of the seat to move and
    ``push(move)`` makes it (default ``deal.push``). Returns how many moves were made."""
    make = deal.push if push is None else push
    made = 0
    while not deal.is_over():
        turn = deal.turn
        assert turn is not None
        make(choose(turn))
        made += 1
    return made


def play_deal(
    deal: Deal[M, V],
    players: Sequence[Player[V, M]] | Mapping[int, Player[V, M]],
    on_move: Callable[[int, M, float], None] | None = None,
) -> None:
    """Play ``deal`` to its end, each seat's player choosing from that seat's view; after
    each move ``on_move(seat, move, seconds the player took)``. An illegal move raises the
    game's IllegalMoveError and leaves the deal as it was."""
    clock = time.perf_counter
    while not deal.is_over():
        seat = deal.turn
        assert seat is not None
        view = deal.view(seat)
        start = clock()
        move = players[seat].choose(view)
        seconds = clock() - start
        deal.push(move, seat=seat)
        if on_move is not None:
            on_move(seat, move, seconds)
