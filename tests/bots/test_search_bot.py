"""The search bot: flat Monte-Carlo over sampled worlds (:mod:`hukum.bots.worlds`) plays
legal moves within its budget."""

from __future__ import annotations

from typing import Any

import pytest

from hukum.bots import BotError, make_bot
from hukum.bots.search import SearchBot
from hukum.mindi import Deal, Rules


def test_search_plays_legal_moves_in_every_preset_with_a_tiny_budget() -> None:
    """M-8, M-12, M-15: every choice of the search is legal, the trump choices included."""
    for preset in ("classic", "hidden", "dehla-pakad"):
        deal = Deal.new(Rules.preset(preset), dealer=1, seed=9)
        bots = [SearchBot(seed=s, worlds=2, time_budget=None) for s in range(4)]
        while not deal.is_over():
            turn = deal.turn
            assert turn is not None
            view = deal.view(turn)
            move = bots[turn].choose(view)
            assert move in view.legal_moves
            deal.push(move)


def test_the_steps_budget_stops_the_search_and_makes_it_repeatable() -> None:
    deal = Deal.new(Rules(), dealer=0, seed=4)
    deal.push(deal.legal_moves()[0])
    turn = deal.turn
    assert turn is not None
    view = deal.view(turn)
    first, second = (SearchBot(seed=3, steps=600, worlds=None) for _ in range(2))
    assert first.choose(view) == second.choose(view)
    assert first.last_worlds == second.last_worlds >= first.min_worlds
    # It stops on the first world that reaches the budget.
    assert first.last_steps >= 600
    per_world = first.last_steps / first.last_worlds
    assert first.last_steps - 600 < per_world * 2 or first.last_worlds == first.min_worlds


def test_the_search_bot_needs_a_budget() -> None:
    with pytest.raises(ValueError, match="budget"):
        SearchBot(steps=None, worlds=None, time_budget=None)


def test_search_takes_the_10_it_can_win() -> None:
    # Seat 0 is last to play to a trick holding 10S and can win it with AS or give it away.
    hands = [
        "AS 3S 2C 3C 4C 5C 6C 7C 8C 9C 2D 3D 4D",
        "10S 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
        "4S 5S 6S 7S 8S 9S JS QS KS 5D 6D 7D 8D",
        "2S AH 10C JC QC KC AC 9D 10D JD QD KD AD",
    ]
    deal = Deal(Rules(), 0, [h.split() for h in hands])
    for card in ("10S", "4S", "2S"):
        deal.push(deal.legal_moves()[[str(m) for m in deal.legal_moves()].index(card)])
    assert str(SearchBot(seed=0, worlds=40, time_budget=None).choose(deal.view(0))) == "AS"


@pytest.mark.parametrize(
    "option",
    [{"infer": 0.3}, {"trick": 0.02}, {"natural_z": 1.0}],
    ids=lambda o: next(iter(o)),
)
def test_the_options_measured_and_not_kept_are_refused(option: dict[str, Any]) -> None:
    """docs/strength.md keeps their results; the search bot no longer takes them."""
    with pytest.raises(BotError, match="bad option for the search bot"):
        make_bot("search", **option)
