"""Players, the deal, day and night, the opening trick (G-1, G-4, G-5, G-6) and the match."""

from __future__ import annotations

import random

import pytest

from hukum.ganjifa import (
    CARDS,
    Card,
    Deal,
    IllegalMoveError,
    Match,
    MatchError,
    Move,
    Rules,
    RulesError,
    Suit,
    deal_hands,
    draw_first_dealer,
)
from tests.ganjifa.helpers import hands_with, make_deal


def test_g1_three_players_each_for_themselves() -> None:
    rules = Rules()
    assert rules.players == 3 and [rules.next_seat(s) for s in range(3)] == [1, 2, 0]
    with pytest.raises(ValueError, match="expected 3 hands"):
        Deal(rules, 0, hands_with({})[:2])


def test_g4_deal_gives_forty_each_in_packets_of_four_anticlockwise() -> None:
    seed = 11
    pack = list(CARDS)
    random.Random(seed).shuffle(pack)
    hands = deal_hands(dealer=1, seed=seed)
    assert [len(h) for h in hands] == [40, 40, 40]
    assert sorted(c for h in hands for c in h) == list(CARDS)
    # The player after the dealer (seat 2) gets the first packet, then seat 0, then seat 1.
    assert list(hands[2][:4]) == pack[0:4]
    assert list(hands[0][:4]) == pack[4:8]
    assert list(hands[1][:4]) == pack[8:12]
    assert list(hands[2][4:8]) == pack[12:16]


def test_g4_the_same_seed_gives_the_same_deal() -> None:
    assert Deal.new(Rules(), 0, 5).dealt == Deal.new(Rules(), 0, 5).dealt
    assert Deal.new(Rules(), 0, 5).dealt != Deal.new(Rules(), 0, 6).dealt


def test_g4_house_decision_first_dealer_drawn_highest_power_deals() -> None:
    for seed in range(30):
        draw = draw_first_dealer(random.Random(seed))
        last = draw.rounds[-1]
        top = max(c.power for c in last)
        assert [c.power for c in last].count(top) == 1
        assert len(last) == 3 or len(draw.rounds) > 1
        # In the last round the dealer drew the highest card of those still drawing.
        assert max(last, key=lambda c: c.power).power == top


def test_g4_draw_ties_redraw_among_the_tied_players() -> None:
    seeds = [s for s in range(300) if len(draw_first_dealer(random.Random(s)).rounds) > 1]
    assert seeds, "some seed gives a tie"
    draw = draw_first_dealer(random.Random(seeds[0]))
    first = draw.rounds[0]
    top = max(c.power for c in first)
    assert len(draw.rounds[1]) == [c.power for c in first].count(top)


def test_g5_day_makes_rama_trump_and_night_krishna() -> None:
    assert Rules(time="day").trump is Suit.RAMA
    assert Rules(time="night").trump is Suit.KRISHNA
    assert Deal.new(Rules(time="night"), 0, 1).trump is Suit.KRISHNA
    with pytest.raises(RulesError):
        Rules(time="evening")  # type: ignore[arg-type]


@pytest.mark.parametrize("time,raja", [("day", "RaR"), ("night", "KrR")])
def test_g6_holder_of_the_trump_raja_leads_it(time: str, raja: str) -> None:
    for seed in range(5):
        deal = Deal.new(Rules(time=time), dealer=seed % 3, seed=seed)  # type: ignore[arg-type]
        holder = next(s for s in range(3) if deal.hand(s) >> Card.parse(raja) & 1)
        assert deal.turn == holder and deal.phase == "lead"
        assert list(deal.legal_moves()) == [Move.parse(raja)]


def test_g6_edge_opening_rejects_anything_but_the_trump_raja_alone() -> None:
    deal = make_deal({0: "RaR RaM Ra10 Ma1 Ma2 Ma3 Ku5"})
    with pytest.raises(IllegalMoveError, match=r"opening trick is led with the Raja of Rama.*G-6"):
        deal.push(Move.parse("Ma1"))
    with pytest.raises(IllegalMoveError, match=r"Dukal may not open the deal.*G-6, G-9"):
        deal.push(Move.parse("dukal Ma1 Ma2 Ma3"))
    with pytest.raises(IllegalMoveError, match="G-6"):
        deal.check(Move.parse("dukal RaR RaM Ra10"))  # not even a Dukal with the Raja
    with pytest.raises(IllegalMoveError, match="no Dukal to answer"):
        deal.push(Move.parse("give Ma1 Ma2 Ma3"))
    assert deal.history == [] and deal.dukals() == ()
    deal.push(Move.parse("RaR"))
    assert deal.phase == "follow" and deal.turn == 1


def test_g6_house_decision_the_raja_is_the_only_lead_even_with_a_dukal_in_hand() -> None:
    deal = make_deal({1: "RaR RaM Ra10 Ra9 Ma1 Ma2 Ma3"})
    assert deal.turn == 1
    assert list(deal.legal_moves()) == [Move.parse("RaR")]
    assert deal.allowed_cards() == 1 << Card.parse("RaR")


def test_deal_rejects_bad_hands_and_dealers() -> None:
    hands = hands_with({})
    with pytest.raises(ValueError, match="dealt twice"):
        Deal(Rules(), 0, [hands[0], [*hands[0][:39], hands[1][0]], hands[2]])
    with pytest.raises(ValueError, match="40"):
        Deal(Rules(), 0, [hands[0][:39], hands[1], hands[2]])
    with pytest.raises(ValueError, match="dealer"):
        Deal(Rules(), 3, hands)
    with pytest.raises(TypeError):
        Deal.new(Rules(), 0, "7")  # type: ignore[arg-type]
    assert Deal(Rules(), 0, [" ".join(c.code for c in h) for h in hands]).dealt == tuple(
        tuple(h) for h in hands
    )


def test_rules_options_validated_and_round_trip() -> None:
    rules = Rules(time="night", void_rule="trump_first", dukal="either", deals=3)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert rules.differences() == {
        "time": "night",
        "void_rule": "trump_first",
        "dukal": "either",
        "deals": 3,
    }
    for bad in ({"deals": 0}, {"deals": True}, {"dukal": "pair"}, {"void_rule": "any"}):
        with pytest.raises(RulesError):
            Rules(**bad)
    with pytest.raises(RulesError, match="no rule option"):
        Rules().replace(players=4)
    # Errors read for people: no Python values.
    with pytest.raises(RulesError) as info:
        Rules(time="dusk")  # type: ignore[arg-type]
    assert str(info.value) == 'time "dusk" is not an option; choose one of day, night'
    with pytest.raises(RulesError) as info:
        Rules(deals=None)  # type: ignore[arg-type]
    assert str(info.value) == 'deals must be a whole number from 1 up, not "none"'


def test_match_of_several_deals_passes_the_deal_anticlockwise() -> None:
    match = Match(Rules(deals=2), seed=3)
    first = match.draw.dealer
    for _ in range(2):
        deal = match.start_deal()
        with pytest.raises(MatchError):
            match.start_deal()
        while not deal.is_over():
            deal.push(deal.legal_moves()[0])
    assert [d.dealer for d in match.deals] == [first, (first + 1) % 3]
    assert match.is_over() and sum(match.scores) == 240
    assert match.winners() == tuple(s for s in range(3) if match.scores[s] == max(match.scores))
    with pytest.raises(MatchError, match="over"):
        match.start_deal()
