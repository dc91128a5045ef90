"""Capture (M-10): tricks to the winner's team, or dehla: two tricks in a row take the pile."""

from __future__ import annotations

from hukum.cards import CardSet
from hukum.mindi import Deal, Rules
from tests.mindi.helpers import GROUP_HANDS, GROUP_WINNERS, deal_of, play, play_group, play_trick

DEHLA = Rules.preset("dehla-pakad")


def group(token: str) -> CardSet:
    """The four cards of a group of the group layout, e.g. ``C1`` = A♣ K♣ Q♣ J♣."""
    ranks = {"1": "A K Q J", "2": "10 9 8 7", "3": "6 5 4 3"}[token[1]]
    return CardSet.parse(" ".join(r + token[0] for r in ranks.split()))


def groups(*tokens: str) -> CardSet:
    out = CardSet()
    for t in tokens:
        out |= group(t)
    return out


def dehla_deal() -> Deal:
    deal = deal_of(DEHLA, 3, *GROUP_HANDS)
    play(deal, "announce S")
    return deal


def test_m10_default_capture_each_trick_goes_to_the_winners_team():
    deal = deal_of(Rules(), 3, *GROUP_HANDS)
    assert play_group(deal, "C1") == 0
    assert deal.captured == (group("C1"), CardSet())
    assert play_group(deal, "C3") == 2
    assert play_group(deal, "D2") == 1
    assert deal.captured == (groups("C1", "C3"), group("D2"))
    assert deal.pile == CardSet()


def test_m10_dehla_two_wins_in_a_row_by_one_player_take_the_pile():
    deal = dehla_deal()
    assert play_group(deal, "C1") == 0
    assert deal.pile == group("C1")
    assert deal.captured == (CardSet(), CardSet())
    assert play_group(deal, "C2") == 0
    assert deal.pile == CardSet()
    assert deal.captured == (groups("C1", "C2"), CardSet())


def test_m10_dehla_two_wins_in_a_row_by_partners_do_not_take_the_pile():
    deal = dehla_deal()
    assert play_group(deal, "C1") == 0
    assert play_group(deal, "C3") == 2  # seat 0's partner
    assert deal.pile == groups("C1", "C3")
    assert deal.captured == (CardSet(), CardSet())
    assert deal.tricks_won == (2, 0)  # tricks are counted all the same
    assert play_group(deal, "S2") == 2  # now seat 2 has won two in a row
    assert deal.pile == CardSet()
    assert deal.captured == (groups("C1", "C3", "S2"), CardSet())


def test_m10_dehla_count_starts_again_after_a_capture():
    # House decision: seat 0 wins tricks 1, 2 and 3; the first two capture, the third starts
    # a new count, and only the fourth in a row captures again.
    deal = dehla_deal()
    assert [play_group(deal, t) for t in ("C1", "C2", "S1")] == [0, 0, 0]
    assert deal.captured == (groups("C1", "C2"), CardSet())
    assert deal.pile == group("S1")
    assert play_group(deal, "D3") == 0
    assert deal.captured == (groups("C1", "C2", "S1", "D3"), CardSet())
    assert deal.pile == CardSet()


def test_m10_dehla_the_last_trick_sweeps_the_pile():
    deal = dehla_deal()
    script = [
        # token, pile after, captured by team 0, captured by team 1 (as groups)
        ("C1", ["C1"], [], []),
        ("C3", ["C1", "C3"], [], []),
        ("S2", [], ["C1", "C3", "S2"], []),
        ("S1", ["S1"], ["C1", "C3", "S2"], []),
        ("C2", [], ["C1", "C3", "S2", "S1", "C2"], []),
        ("D3", ["D3"], ["C1", "C3", "S2", "S1", "C2"], []),
        ("D1", ["D3", "D1"], ["C1", "C3", "S2", "S1", "C2"], []),
        ("D2", ["D3", "D1", "D2"], ["C1", "C3", "S2", "S1", "C2"], []),
        ("H1", [], ["C1", "C3", "S2", "S1", "C2"], ["D3", "D1", "D2", "H1"]),
        ("H2", ["H2"], ["C1", "C3", "S2", "S1", "C2"], ["D3", "D1", "D2", "H1"]),
        ("H3", [], ["C1", "C3", "S2", "S1", "C2"], ["D3", "D1", "D2", "H1", "H2", "H3"]),
        ("S3", ["S3"], ["C1", "C3", "S2", "S1", "C2"], ["D3", "D1", "D2", "H1", "H2", "H3"]),
    ]
    for token, pile, zero, one in script:
        assert play_group(deal, token) == GROUP_WINNERS[token]
        assert deal.pile == groups(*pile), token
        assert deal.captured == (groups(*zero), groups(*one)), token
    # Seat 1 leads its 2♦; seat 3 trumps with the 2♠ and wins the last trick: one win in a
    # row only, but the last trick takes what is left.
    assert play_trick(deal, "2D 2H 2S 2C") == 3
    assert deal.is_over()
    assert deal.pile == CardSet()
    twos = CardSet.parse("2C 2D 2H 2S")
    assert deal.captured[1] == groups("D3", "D1", "D2", "H1", "H2", "H3", "S3") | twos
    assert len(deal.captured[0]) + len(deal.captured[1]) == 52
    # Tricks count for the tie-break whoever holds the cards: team 0 won 7 tricks (tricks
    # 1 to 7) but holds only 20 cards; at two tens each it wins on tricks.
    outcome = deal.outcome()
    assert outcome is not None
    assert (outcome.tens, outcome.tricks) == ((2, 2), (7, 6))
    assert (outcome.winner, outcome.decided_by) == (0, "tricks")


def test_m10_dehla_pop_restores_the_pile_and_the_count():
    deal = dehla_deal()
    play_group(deal, "C1")
    before = (deal.pile, deal.captured)
    play_group(deal, "C2")
    for _ in range(4):
        deal.pop()
    assert (deal.pile, deal.captured) == before
    assert play_group(deal, "C3") == 2  # partner: no capture, as if C2 had never happened
    assert deal.captured == (CardSet(), CardSet())
