"""End and score (G-10): one point per captured card, shared wins."""

from __future__ import annotations

import random

from hukum.ganjifa import Deal, Outcome, Rules


def _random_deal(seed: int) -> Deal:
    deal = Deal.new(Rules(), 0, seed)
    rng = random.Random(seed)
    while not deal.is_over():
        moves = deal.legal_moves()
        deal.push(moves[rng.randrange(len(moves))])
    return deal


def test_g10_scores_are_captured_cards_and_add_up_to_120() -> None:
    deal = _random_deal(1)
    outcome = deal.outcome()
    assert outcome is not None and sum(outcome.scores) == 120
    assert outcome.scores == tuple(t.bit_count() for t in deal.captured)
    assert deal.hand_sizes == (0, 0, 0)
    assert all(s % 3 == 0 for s in outcome.scores)  # every capture is 3 or 3k cards


def test_g10_highest_score_wins_alone() -> None:
    outcome = Outcome.of((51, 30, 39))
    assert outcome.winners == (0,) and not outcome.shared
    assert outcome.share(0) == 1.0 and outcome.share(1) == 0.0
    assert outcome.describe() == "Seat 0 wins with 51 cards; seat 2 has 39, seat 1 has 30"


def test_g10_players_tied_for_the_highest_score_share_the_win_in_a_real_deal() -> None:
    outcome = _random_deal(12).outcome()
    assert outcome == Outcome((24, 48, 48), (1, 2))
    assert outcome.shared and outcome.share(1) == outcome.share(2) == 0.5
    assert outcome.describe() == "Seats 1 and 2 share the win with 48 cards each; seat 0 has 24"


def test_g10_edge_three_way_tie_40_40_40_all_three_share() -> None:
    # Every capture is a multiple of three cards, so play never reaches 40-40-40; the
    # outcome rule still shares it three ways.
    outcome = Outcome.of((40, 40, 40))
    assert outcome.winners == (0, 1, 2) and outcome.shared
    assert [outcome.share(s) for s in range(3)] == [1 / 3] * 3
    assert outcome.describe() == "Seats 0, 1 and 2 share the win with 40 cards each"


def test_g10_no_outcome_while_cards_remain() -> None:
    deal = Deal.new(Rules(), 0, 2)
    deal.push(deal.legal_moves()[0])
    assert deal.outcome() is None and not deal.is_over()
