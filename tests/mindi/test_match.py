"""Matches: first-dealer draw (M-5), points and match end (M-18), next dealer (M-19)."""

import random

import pytest

from hukum.mindi import Match, MatchError, Outcome, Rules, draw_first_dealer, next_dealer
from hukum.mindi.outcome import Kind


def outcome(winner: int, kind: Kind = "win") -> Outcome:
    tens = {"win": (3, 1), "mendikot": (4, 0), "whitewash": (4, 0)}[kind]
    tricks = (13, 0) if kind == "whitewash" else (7, 6)
    if winner == 1:
        tens, tricks = (tens[1], tens[0]), (tricks[1], tricks[0])
    points = {"win": 1, "mendikot": 2, "whitewash": 3}[kind]
    return Outcome(winner, kind, tens, tricks, "tens", 0, points)


def play_out(match: Match) -> None:
    rng = random.Random(0)
    deal = match.start_deal()
    while not deal.is_over():
        moves = deal.legal_moves()
        deal.push(moves[rng.randrange(len(moves))])


# ---------------------------------------------------------------- M-5


def test_m5_highest_card_deals():
    for seed in range(50):
        draw = draw_first_dealer(Rules(), random.Random(seed))
        first = draw.rounds[0]
        top = max(c.rank for c in first)
        if [c.rank for c in first].count(top) == 1:
            assert first[draw.dealer].rank == top
            assert len(draw.rounds) >= 1
        assert draw.order[0] == draw.dealer  # identity seating


def test_m5_lowest_card_deals():
    for seed in range(50):
        draw = draw_first_dealer(Rules(first_dealer="lowest"), random.Random(seed))
        first = draw.rounds[0]
        low = min(c.rank for c in first)
        if [c.rank for c in first].count(low) == 1:
            assert first[draw.dealer].rank == low
        assert draw.order[-1] == draw.dealer


def test_m5_equal_ranks_redraw_among_the_tied_players():
    found = 0
    for seed in range(300):
        draw = draw_first_dealer(Rules(), random.Random(seed))
        first = draw.rounds[0]
        top = max(c.rank for c in first)
        tied = [p for p, c in enumerate(first) if c.rank == top]
        if len(tied) > 1:
            found += 1
            # The second round is drawn by exactly the tied players.
            assert len(draw.rounds[1]) == len(tied)
            assert draw.dealer in tied
            winners = dict(zip(tied, draw.rounds[1], strict=True))
            if (
                sorted(c.rank for c in winners.values())[-1]
                != sorted(c.rank for c in winners.values())[-2]
            ):
                assert winners[draw.dealer].rank == max(c.rank for c in winners.values())
    assert found > 5


def test_m5_random_first_dealer_varies_with_the_seed():
    dealers = {
        draw_first_dealer(Rules(first_dealer="random"), random.Random(s)).dealer for s in range(40)
    }
    assert dealers == {0, 1, 2, 3}


def test_m5_draw_sets_partnerships_two_highest_against_two_lowest():
    for seed in range(30):
        draw = draw_first_dealer(Rules(draw_partnerships=True), random.Random(seed))
        high = set(draw.order[:2])
        seats_high = {s for s, p in enumerate(draw.seating) if p in high}
        assert seats_high == {0, 2}
        assert sorted(draw.seating) == [0, 1, 2, 3]
        assert draw.seating[draw.dealer] == draw.order[0]


def test_m5_draw_partnerships_with_six_players():
    draw = draw_first_dealer(Rules(players=6, deck=48, draw_partnerships=True), random.Random(3))
    assert {draw.seating[s] for s in (0, 2, 4)} == set(draw.order[:3])


def test_match_is_reproducible_from_its_seed():
    a, b = Match(Rules(), seed=9), Match(Rules(), seed=9)
    assert a.draw == b.draw
    assert a.start_deal().dealt == b.start_deal().dealt


# ---------------------------------------------------------------- M-19


@pytest.mark.parametrize("direction,step", [("anticlockwise", 1), ("clockwise", -1)])
def test_m19_won_deal_passes_to_the_next_player(direction, step):
    rules = Rules(direction=direction)
    assert next_dealer(rules, 0, outcome(0)) == (0 + step) % 4
    assert next_dealer(rules, 1, outcome(1, "mendikot")) == (1 + step) % 4


@pytest.mark.parametrize("direction", ["anticlockwise", "clockwise"])
def test_m19_lost_deal_same_dealer_again(direction):
    rules = Rules(direction=direction)
    assert next_dealer(rules, 0, outcome(1)) == 0
    assert next_dealer(rules, 3, outcome(0, "mendikot")) == 3


@pytest.mark.parametrize("direction", ["anticlockwise", "clockwise"])
def test_m19_lost_whitewash_passes_to_the_dealers_partner(direction):
    rules = Rules(direction=direction)
    assert next_dealer(rules, 0, outcome(1, "whitewash")) == 2
    assert next_dealer(rules, 3, outcome(0, "whitewash")) == 1


def test_m19_lost_whitewash_with_six_players_goes_to_the_next_team_mate_in_play_order():
    assert next_dealer(Rules(players=6, deck=48), 0, outcome(1, "whitewash")) == 2
    assert (
        next_dealer(Rules(players=6, deck=48, direction="clockwise"), 0, outcome(1, "whitewash"))
        == 4
    )


def test_m19_rotate_always_passes_to_the_next_player():
    rules = Rules(dealer_rotation="rotate", direction="clockwise")
    assert next_dealer(rules, 0, outcome(1)) == 3
    assert next_dealer(rules, 0, outcome(0)) == 3
    assert next_dealer(rules, 0, outcome(1, "whitewash")) == 3


def test_m19_match_follows_the_rotation():
    match = Match(Rules(deals=6, target=None), seed=5)
    while not match.is_over():
        play_out(match)
    for before, after in zip(match.deals, match.deals[1:], strict=False):
        result = before.outcome()
        assert result is not None
        assert after.dealer == next_dealer(match.rules, before.dealer, result)


# ---------------------------------------------------------------- M-18


def test_m18_points_per_kind_of_win():
    rules = Rules(points=(1, 3, 5))
    match = Match(rules.replace(deals=8, target=None), seed=1)
    while not match.is_over():
        play_out(match)
    expected = [0, 0]
    for result in match.outcomes:
        expected[result.winner] += {"win": 1, "mendikot": 3, "whitewash": 5}[result.kind]
        assert result.points == {"win": 1, "mendikot": 3, "whitewash": 5}[result.kind]
    assert match.scores == tuple(expected)


def test_m18_match_to_a_target_ends_when_a_team_reaches_it():
    match = Match(Rules(target=3), seed=2)
    while not match.is_over():
        play_out(match)
    assert max(match.scores) >= 3
    before_last = match.outcomes[:-1]
    assert max(sum(o.points for o in before_last if o.winner == t) for t in (0, 1)) < 3
    assert match.winner() == (0 if match.scores[0] > match.scores[1] else 1)
    with pytest.raises(MatchError):
        match.start_deal()


def test_m18_match_of_a_fixed_number_of_deals():
    match = Match(Rules(deals=3, target=None), seed=4)
    while not match.is_over():
        play_out(match)
    assert len(match.deals) == 3


def test_a_new_deal_waits_for_the_current_one():
    match = Match(Rules(), seed=4)
    match.start_deal()
    assert not match.is_over()
    with pytest.raises(MatchError, match="must end"):
        match.start_deal()
