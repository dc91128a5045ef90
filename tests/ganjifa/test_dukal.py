"""Dukals (G-9): what one is under each option, leading it, answering it, who takes it."""

from __future__ import annotations

import math
import random

import pytest

from hukum.ganjifa import Answers, CardSet, Deal, IllegalMoveError, Move, MoveKind, Rules
from hukum.ganjifa.dukal import contained, is_dukal, patterns
from tests.ganjifa.helpers import ready


def _mask(text: str) -> int:
    """The 12-bit holding of one suit's cards, e.g. ``"Ma3 Ma4 Ma5"``."""
    cards = list(CardSet.parse(text))
    return sum(1 << c.power for c in cards)


@pytest.mark.parametrize(
    "cards,option,ok",
    [
        ("Ma3 Ma4 Ma5", "run", True),  # the rule book's 3-4-5
        ("KaR KaM Ka10", "run", True),  # Raja-Mantri-10 in suits 6-10
        ("MaM Ma1 Ma2", "run", True),  # Mantri-1-2 in suits 1-5
        ("KaR KaM Ka1", "run", False),  # in Kalki the 1 is the lowest
        ("MaR MaM Ma10", "run", False),  # in Matsya the 10 is the lowest
        ("Ma3 Ma4", "run", False),  # too short
        ("Ma3 Ma4 Ma6", "run", False),  # a gap
        ("KuR KuM Ku1 Ku2 Ku3 Ku4 Ku5 Ku6 Ku7 Ku8 Ku9 Ku10", "run", True),
        ("RaR RaM Ra3 Ra4 Ra5", "royal_run", True),  # house decision: numerals need not join
        ("RaR RaM Ra10 Ra9 Ra8", "royal_run", True),
        ("RaR RaM Ra10", "royal_run", False),
        ("Ra3 Ra4 Ra5", "royal_run", False),
        ("RaR RaM Ra3 Ra4 Ra6", "royal_run", False),
        ("BuR BuM", "either", True),
        ("Bu3 Bu4 Bu5", "either", True),
        ("BuR BuM Bu10", "either", False),  # house decision: courts with numerals is neither
        ("BuM Bu10 Bu9", "either", False),
    ],
)
def test_g9_what_a_dukal_is_under_each_option(cards: str, option: str, ok: bool) -> None:
    assert is_dukal(option, _mask(cards)) is ok


def test_g9_contained_lists_every_dukal_of_a_holding() -> None:
    holding = _mask("Ma1 Ma2 Ma3 Ma4")  # a run of four: two of three and one of four
    assert sorted(p.bit_count() for p in contained("run", holding)) == [3, 3, 4]
    assert set(contained("run", holding)) <= set(patterns("run"))


def test_g9_dukal_beats_a_hand_full_of_trumps_and_the_answers_go_to_the_leader() -> None:
    deal = ready(
        {0: "Ma3 Ma4 Ma5", 1: "Ra1 Ra2 Ra3 Ra4", 2: "Ra5 Ra6 Ra7 Ra8"},
        empty={1: "Ma", 2: "Ma"},
    )
    before = deal.scores
    dukal = Move.parse("dukal Ma3 Ma4 Ma5")
    assert dukal in deal.legal_moves() and dukal in deal.dukals()
    deal.push(dukal)
    assert deal.phase == "answer" and deal.answer_size == 3 and deal.turn == 1
    deal.push(Move.parse("give Ra2 Ra3 Ra4"))  # trumps, and no duty to follow (G-9)
    assert deal.turn == 2
    deal.push(Move.parse("give Ra6 Ra7 Ra8"))
    trick = deal.tricks[-1]
    assert trick.winner == 0 and trick.dukal == 3 and len(trick.cards) == 9
    assert deal.scores[0] == before[0] + 9 and deal.scores[1:] == before[1:]
    assert deal.captured[0] >> CardSet.parse("Ra8").mask.bit_length() - 1 & 1
    # House decision: the leader of the Dukal leads again.
    assert deal.turn == 0 and deal.phase == "lead"
    assert deal.hand_sizes == (36, 36, 36)


def test_g9_an_answer_is_any_k_cards_and_nothing_else() -> None:
    deal = ready({0: "Ka3 Ka4 Ka5 Ka6", 1: "Ma1 Ku2 Ra3 Ka7"})
    deal.push(Move.parse("dukal Ka3 Ka4 Ka5 Ka6"))
    with pytest.raises(IllegalMoveError, match=r"exactly 4 cards to the Dukal, not 3 \(G-9\)"):
        deal.push(Move.parse("give Ma1 Ku2 Ra3"))
    with pytest.raises(IllegalMoveError, match=r"must give up 4 cards to the Dukal"):
        deal.push(Move.parse("Ka7"))
    with pytest.raises(IllegalMoveError, match=r"must give up 4 cards"):
        deal.push(Move.parse("dukal Ma1 Ku2 Ra3"))
    with pytest.raises(IllegalMoveError, match="not in seat 1's hand"):
        deal.push(Move.parse("give Ma1 Ku2 Ra3 Ka3"))
    deal.push(Move.parse("give Ma1 Ku2 Ra3 Ka7"))  # four suits: no duty to follow


def test_g9_answers_are_validated_not_listed() -> None:
    deal = ready({0: "Ka3 Ka4 Ka5 Ka6 Ka7 Ka8 Ka9 Ka10"})
    deal.push(Move.parse("dukal Ka3 Ka4 Ka5 Ka6 Ka7 Ka8 Ka9 Ka10"))
    answers = deal.legal_moves()
    assert isinstance(answers, Answers)
    hand = deal.hand(1)
    assert len(answers) == math.comb(39, 8) == 61_523_748
    rng = random.Random(1)
    for _ in range(50):
        move = answers[rng.randrange(len(answers))]
        assert move.kind is MoveKind.GIVE and move.size == 8 and move.mask & ~hand == 0
        assert move in answers and deal.is_legal(move)
    assert answers[0] != answers[-1] and answers[-1] == answers[len(answers) - 1]
    assert Move.parse("give Ka3 Ka4 Ka5 Ka6 Ka7 Ka8 Ka9 Ka10") not in answers
    with pytest.raises(IndexError):
        answers[len(answers)]
    assert deal.allowed_cards() == hand
    view = deal.view(1)
    assert view.decision == "answer" and view.need == 8 and view.allowed.mask == hand


def test_g9_small_answer_sets_list_every_combination_once() -> None:
    answers = Answers(CardSet.parse("Ma1 Ma2 Ku3 Ra4 Ka5").mask, 3)
    listed = list(answers)
    assert len(listed) == len(set(listed)) == len(answers) == 10
    assert listed == [answers[i] for i in range(10)] and answers[1:3] == listed[1:3]


def test_g9_dukal_only_when_leading() -> None:
    deal = ready({0: "Ku1", 1: "Ku5 Ku6 Ku7 Ku8"})
    deal.push(Move.parse("Ku1"))
    assert not any(m.kind is MoveKind.DUKAL for m in deal.legal_moves())
    with pytest.raises(IllegalMoveError, match="Dukal is led only by the player who leads"):
        deal.push(Move.parse("dukal Ku6 Ku7 Ku8"))


def test_g9_a_dukal_in_the_trump_suit_is_allowed() -> None:
    deal = ready({0: "Ra3 Ra4 Ra5"})
    move = Move.parse("dukal Ra3 Ra4 Ra5")
    assert move in deal.dukals()
    deal.push(move)
    assert deal.phase == "answer"


def test_g9_not_a_dukal_is_rejected_with_the_option_named() -> None:
    deal = ready({0: "Ma3 Ma4 Ma6 Ku1 Ku2"})
    with pytest.raises(IllegalMoveError, match=r"not a Dukal: a Dukal is 3 or more consecutive"):
        deal.push(Move.parse("dukal Ma3 Ma4 Ma6"))
    with pytest.raises(IllegalMoveError, match="of one suit"):
        deal.push(Move.parse("dukal Ma3 Ku1 Ku2"))
    rules = Rules(dukal="royal_run")
    deal = ready({0: "KaM Ka10 Ka9 Ka8"}, rules=rules)
    with pytest.raises(IllegalMoveError, match="the Raja, the Mantri and 3 or more"):
        deal.push(Move.parse("dukal KaM Ka10 Ka9 Ka8"))


def test_g9_dukal_options_change_what_may_be_led() -> None:
    cards = {0: "BuR BuM Bu3 Bu4 Bu5"}
    found = {}
    for option in ("run", "royal_run", "either"):
        deal = ready(cards, rules=Rules(dukal=option))
        found[option] = {str(m) for m in deal.dukals() if m.card.suit.code == "Bu"}
    royal, pair, three = (
        str(Move.parse(t))
        for t in ("dukal BuR BuM Bu3 Bu4 Bu5", "dukal BuR BuM", "dukal Bu3 Bu4 Bu5")
    )
    assert royal == "dukal Bu3 Bu4 Bu5 BuM BuR"  # written in card order, weakest first
    assert royal in found["royal_run"] and three not in found["royal_run"]
    assert pair in found["either"] and three in found["either"]
    assert pair not in found["run"] and three in found["run"]


def test_g9_k_may_reach_but_not_exceed_every_hands_size() -> None:
    # Play a deal to its last lead with random moves, then give the leader's whole hand
    # as a run: hands are equal at every lead, so a Dukal of the whole hand is the largest.
    deal = Deal.new(Rules(), 0, 3)
    rng = random.Random(3)
    while deal.hand_sizes[0] > 3 or deal.phase != "lead":
        moves = [m for m in deal.legal_moves() if m.kind is not MoveKind.DUKAL]
        deal.push(moves[rng.randrange(len(moves))] if moves else deal.legal_moves()[0])
    assert len(set(deal.hand_sizes)) == 1
    limit = deal.hand_sizes[0]
    assert all(m.size <= limit for m in deal.dukals())
