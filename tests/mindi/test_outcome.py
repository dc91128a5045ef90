"""The result of a deal: winner and tie-breaks (M-16), kinds of win (M-17), points (M-18),
and the mindis (M-3)."""

from __future__ import annotations

import pytest

from hukum.cards import Card, CardSet
from hukum.mindi import Deal, Played, Rules, Trick
from hukum.mindi.outcome import Outcome, decide
from tests.mindi.helpers import (
    GROUP_HANDS,
    GROUP_WINNERS,
    deal_of,
    play_group,
    play_lowest,
    swap,
    without_twos,
)

SEQUENCE = ["C1", "C2", "C3", "D1", "D2", "D3", "H1", "H2", "H3", "S2", "S3", "S1"]


def group_deal(rules: Rules, hands=GROUP_HANDS, sequence=SEQUENCE, dealer: int = 3) -> Deal:
    """Play the group layout: the twelve groups in ``sequence``, then the last trick."""
    deal = deal_of(rules, dealer, *hands)
    for token in sequence:
        play_group(deal, token)
    play_lowest(deal)
    assert deal.is_over()
    return deal


def test_m16_two_all_tie_break_tricks():
    deal = group_deal(Rules())
    # Trick 13: seat 0 leads the 2♣, seat 1 cuts with the 2♦ and wins it.
    assert [p.seat for p in deal.tricks[12].plays] == [0, 1, 2, 3]
    assert deal.tricks[12].winner == 1
    outcome = deal.outcome()
    assert outcome is not None
    assert (outcome.tens, outcome.tricks) == ((2, 2), (7, 6))
    assert (outcome.winner, outcome.kind, outcome.decided_by, outcome.points) == (
        0,
        "win",
        "tricks",
        1,
    )
    assert outcome.describe() == "Team 0 wins: 2–2 tens, won on tricks 7–6"


def test_m16_two_all_tie_break_highest_trick():
    deal = group_deal(Rules(tie_break="highest_trick"))
    outcome = deal.outcome()
    assert outcome is not None
    # Every trick but the last is won by a plain card; the last by the 2♦, a trump, which
    # is above every non-trump trick, even one won by an ace.
    assert outcome.highest_trick == 12
    assert deal.tricks[12].key == (True, 2)
    assert (outcome.winner, outcome.decided_by, outcome.kind) == (1, "highest_trick", "win")
    assert outcome.tricks == (7, 6)
    assert outcome.describe() == "Team 1 wins: 2–2 tens, won on the highest trick (trick 13)"


def test_m16_mindi_world_preset_clockwise_highest_trick():
    deal = group_deal(Rules.preset("mindi-world"))
    # Clockwise: seat 2 leads trick 1; in trick 13 seat 0 leads and seat 3 cuts with the 2♠.
    assert deal.tricks[0].leader == 2
    assert [p.seat for p in deal.tricks[12].plays] == [0, 3, 2, 1]
    outcome = deal.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.decided_by, outcome.highest_trick) == (1, "highest_trick", 12)


def test_m16_three_tens_win():
    hands = swap(GROUP_HANDS, "10H", "9H")  # seat 0 now takes the 10♥ in H2
    deal = group_deal(Rules(), hands)
    outcome = deal.outcome()
    assert outcome is not None
    assert (outcome.tens, outcome.winner, outcome.decided_by, outcome.kind) == (
        (3, 1),
        0,
        "tens",
        "win",
    )
    assert outcome.points == 1
    assert outcome.describe() == "Team 0 wins: 3–1 tens"
    # Three tens win whatever the tie-break.
    other = group_deal(Rules(tie_break="highest_trick"), hands).outcome()
    assert other is not None
    assert (other.winner, other.decided_by) == (0, "tens")


def test_m17_mendikot_all_four_tens():
    hands = swap(swap(GROUP_HANDS, "10H", "9H"), "10D", "9D")
    deal = group_deal(Rules(), hands)
    outcome = deal.outcome()
    assert outcome is not None
    assert outcome.tens == (4, 0)
    assert outcome.tricks[1] > 0  # not all tricks: a mendikot, not a whitewash
    assert (outcome.winner, outcome.kind, outcome.decided_by, outcome.points) == (
        0,
        "mendikot",
        "tens",
        2,
    )
    assert outcome.describe() == "Team 0 wins with mendikot: 4–0 tens"


SUIT_HANDS = (
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
)


def test_m17_whitewash_all_thirteen_tricks():
    # Seat 0 leads a spade, seat 1 cuts with a heart and then leads hearts, which nobody
    # else holds: seat 1 wins every trick.
    deal = deal_of(Rules(), 3, *SUIT_HANDS)
    play_lowest(deal)
    assert all(t.winner == 1 for t in deal.tricks)
    outcome = deal.outcome()
    assert outcome is not None
    assert (outcome.tens, outcome.tricks) == ((0, 4), (0, 13))
    # whitewash > mendikot > win
    assert (outcome.winner, outcome.kind, outcome.points) == (1, "whitewash", 3)
    assert outcome.describe() == "Team 1 wins a whitewash: 4–0 tens"


def test_m17_whitewash_with_48_cards_and_under_dehla():
    # House decision: winning every trick is a whitewash with any pack, and under dehla.
    for rules in (Rules(deck=48), Rules(deck=48, capture="dehla")):
        deal = deal_of(rules, 3, *without_twos(SUIT_HANDS))
        play_lowest(deal)
        outcome = deal.outcome()
        assert outcome is not None
        assert (outcome.tricks, outcome.winner, outcome.kind) == ((0, 12), 1, "whitewash")


def test_m18_points_per_kind_of_win_follow_the_option():
    rules = Rules(points=(2, 5, 11))
    win = group_deal(rules).outcome()
    three = group_deal(rules, swap(GROUP_HANDS, "10H", "9H")).outcome()
    mendikot = group_deal(rules, swap(swap(GROUP_HANDS, "10H", "9H"), "10D", "9D")).outcome()
    deal = deal_of(rules, 3, *SUIT_HANDS)
    play_lowest(deal)
    whitewash = deal.outcome()
    assert [o.points if o else None for o in (win, three, mendikot, whitewash)] == [2, 2, 5, 11]
    assert Rules().points == (1, 2, 3)


# 48 cards, 4 players, three cards of each suit each: nobody is ever void, so no trump is
# set (M-11) and the twelve tricks can split 6–6. The 6♣ is moved to seat 1 so that C3 goes
# to team 1.
EVEN_HANDS = swap(without_twos(GROUP_HANDS), "6C", "4C")
EVEN_WINNERS = {**GROUP_WINNERS, "C3": 1}


@pytest.mark.parametrize("last", ["S3", "S2"])
def test_m16_equal_tricks_the_last_trick_decides(last):
    # House decision: at 2–2 with 6–6 tricks the team that won the last trick wins.
    order = [t for t in SEQUENCE if t != last] + [last]
    deal = group_deal(Rules(deck=48), EVEN_HANDS, order)
    assert [t.winner for t in deal.tricks] == [EVEN_WINNERS[t] for t in order]
    assert deal.trump is None
    outcome = deal.outcome()
    assert outcome is not None
    assert (outcome.tens, outcome.tricks) == ((2, 2), (6, 6))
    assert outcome.winner == EVEN_WINNERS[last] % 2
    assert outcome.decided_by == "last_trick"
    assert outcome.describe().endswith("tricks level, won on the last trick")


@pytest.mark.parametrize(("first_ace", "winner"), [("C1", 0), ("H1", 1), ("D1", 0)])
def test_m16_highest_trick_equal_keys_go_to_the_earlier_trick(first_ace, winner):
    # House decision: four plain tricks are won by an ace (key (False, 14)); the earliest
    # of them is the highest trick.
    order = [first_ace] + [t for t in SEQUENCE if t != first_ace]
    deal = group_deal(Rules(deck=48, tie_break="highest_trick"), EVEN_HANDS, order)
    outcome = deal.outcome()
    assert outcome is not None
    assert outcome.tens == (2, 2)
    assert outcome.highest_trick == 0
    assert deal.tricks[0].key == (False, 14)
    assert (outcome.winner, outcome.decided_by) == (winner, "highest_trick")


def test_m16_no_outcome_while_the_deal_is_in_progress():
    deal = deal_of(Rules(), 3, *GROUP_HANDS)
    assert deal.outcome() is None
    play_group(deal, "C1")
    assert deal.outcome() is None
    assert deal.view(0).outcome is None


def _trick(leader: int, cards: str, winner: int, trumps: str = "") -> Trick:
    seats = [(leader + i) % 4 for i in range(4)]
    trump_cards = set(trumps.split())
    plays = tuple(
        Played(s, Card.parse(c), c in trump_cards)
        for s, c in zip(seats, cards.split(), strict=True)
    )
    return Trick(leader, plays, winner)


def test_m3_only_tens_are_mindis():
    # Team 0 holds every jack and one ten, team 1 three tens: 3–1 to team 1.
    tricks = [_trick(0, "JS JH JD JC", 0), _trick(0, "10S 10H 10D 10C", 1)]
    taken = (CardSet.parse("JS JH JD JC 10C"), CardSet.parse("10S 10H 10D"))
    outcome = decide(Rules(), tricks, taken)
    assert (outcome.tens, outcome.winner, outcome.decided_by) == ((1, 3), 1, "tens")


def test_m16_decide_tie_breaks_directly():
    # Two tricks each, two tens each: "tricks" falls back on the last trick (house
    # decision); "highest_trick" takes the trump trick over the ace trick.
    tricks = [
        _trick(0, "AS 2S 3S 4S", 0),
        _trick(0, "5H 6H 7H 2C", 3, trumps="2C"),
        _trick(3, "8D 9D JD QD", 2),
        _trick(2, "3D 4D 5D 6D", 1),
    ]
    taken = (CardSet.parse("10S 10H"), CardSet.parse("10D 10C"))
    by_tricks = decide(Rules(), tricks, taken)
    assert (by_tricks.tricks, by_tricks.winner, by_tricks.decided_by) == (
        (2, 2),
        1,
        "last_trick",
    )
    by_highest = decide(Rules(tie_break="highest_trick"), tricks, taken)
    assert (by_highest.winner, by_highest.highest_trick) == (1, 1)
    assert by_highest.decided_by == "highest_trick"


@pytest.mark.parametrize(
    ("outcome", "text"),
    [
        (Outcome(1, "win", (1, 3), (5, 8), "tens", 0, 1), "Team 1 wins: 3–1 tens"),
        (
            Outcome(1, "win", (2, 2), (6, 7), "tricks", 0, 1),
            "Team 1 wins: 2–2 tens, won on tricks 7–6",
        ),
        (
            Outcome(1, "mendikot", (0, 4), (4, 9), "tens", 0, 2),
            "Team 1 wins with mendikot: 4–0 tens",
        ),
        (Outcome(0, "win", (3, 1), (5, 8), "tens", 0, 1), "Team 0 wins: 3–1 tens"),
    ],
)
def test_the_winners_figures_come_first(outcome: Outcome, text: str) -> None:
    """One convention everywhere people read a result (CLI, replay, solve, the page): the
    winning team's figure first, whichever team it is."""
    assert outcome.describe() == text
