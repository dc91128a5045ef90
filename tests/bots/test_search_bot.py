"""The search bot: its determinizer deals only what the seat cannot rule out, and it plays."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hukum.bots import Bot
from hukum.bots.expert import ExpertBot
from hukum.bots.ismcts import IsmctsBot
from hukum.bots.rules import RulesBot
from hukum.bots.search import (
    SearchBot,
    _dealt_world,
    build_deal,
    deal_knowledge,
    push_noting_voids,
    replay,
    rules_likelihood,
    sample_world,
    search_trump,
    shown_voids,
    trump_candidates,
)
from hukum.cards import SUIT_MASKS, Card, Suit, bits, deck
from hukum.mindi import Deal, Move, MoveKind, Rules, View

RULES = [
    Rules(),
    Rules.preset("hidden"),
    Rules.preset("hidden", reveal="on_request"),
    Rules.preset("dehla-pakad"),
    Rules(must_trump=True),
    Rules(trump="open"),
    Rules.preset("mindi-world", players=6, deck=48),
]


def random_position(rules: Rules, seed: int, steps: int) -> Deal:
    """A deal after ``steps`` random moves (at least past the hide/announce decision)."""
    rng = random.Random(seed)
    deal = Deal.new(rules, dealer=seed % rules.players, seed=seed)
    done = 0
    while not deal.is_over() and (done < steps or deal.phase != "play"):
        moves = deal.legal_moves()
        deal.push(moves[rng.randrange(len(moves))])
        done += 1
    return deal


@settings(max_examples=60, deadline=None)
@given(
    rules=st.sampled_from(RULES),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 60),
    seat=st.integers(0, 7),
    world_seed=st.integers(0, 1000),
)
def test_the_determinizer_deals_only_what_the_seat_cannot_rule_out(
    rules: Rules, seed: int, steps: int, seat: int, world_seed: int
) -> None:
    deal = random_position(rules, seed, steps)
    me = seat % rules.players
    view = deal.view(me)
    hands, face_down = sample_world(view, random.Random(world_seed))
    assert hands[me] == view.hand.mask
    dealt = 0
    for s, hand in enumerate(hands):
        assert not dealt & hand, "a card dealt twice"
        dealt |= hand
        if s == me:
            continue
        assert hand.bit_count() == view.hand_sizes[s]
        known = view.known[s].mask
        assert hand & known == known
        assert not (hand & ~known) & ~view.unseen.mask, "a seen card dealt"
        for suit in view.voids[s]:
            assert not (hand & ~known) & SUIT_MASKS[suit], "a card dealt into a shown void"
        for number in range(4):
            if shown_voids(view)[s] >> number & 1:
                assert not (hand & ~known) & SUIT_MASKS[number]
    hidden = view.chooser not in (None, me) and not view.trump_known and view.phase == "play"
    assert (face_down is not None) == hidden
    if face_down is not None:
        assert view.unseen.mask >> face_down & 1 and not dealt >> face_down & 1
    # The rebuilt deal looks exactly the same from this seat.
    assert build_deal(view, (hands, face_down)).view(me) == view


def test_play_out_facts_agree_with_the_view() -> None:
    bot = RulesBot()
    for rules in RULES[:4]:
        deal = random_position(rules, 3, 0)
        voids = [0] * rules.players
        while not deal.is_over():
            turn = deal.turn
            assert turn is not None
            move = bot.choose(deal.view(turn))
            legal = deal.legal_moves()
            assert bot.play(deal_knowledge(deal, voids), legal) == move
            push_noting_voids(deal, move, voids)


TINY: dict[str, Callable[[int], Bot[View, Move]]] = {
    "search": lambda seed: SearchBot(seed=seed, worlds=2, time_budget=None),
    "ismcts": lambda seed: IsmctsBot(seed=seed, steps=300),
}


@pytest.mark.parametrize("bot", TINY)
def test_search_plays_legal_moves_in_every_preset_with_a_tiny_budget(bot: str) -> None:
    """M-8, M-12, M-15: every choice of either search is legal, the trump choices included."""
    for preset in ("classic", "hidden", "dehla-pakad"):
        deal = Deal.new(Rules.preset(preset), dealer=1, seed=9)
        bots = [TINY[bot](s) for s in range(4)]
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


def test_the_tree_search_budget_makes_it_repeatable() -> None:
    deal = Deal.new(Rules(), dealer=0, seed=4)
    deal.push(deal.legal_moves()[0])
    turn = deal.turn
    assert turn is not None
    view = deal.view(turn)
    first, second = IsmctsBot(seed=3, steps=900), IsmctsBot(seed=3, steps=900)
    assert first.choose(view) == second.choose(view)
    assert first.last_iterations == second.last_iterations >= first.min_iterations
    assert IsmctsBot(seed=3, steps=1).choose(view) in view.legal_moves
    with pytest.raises(ValueError, match="steps"):
        IsmctsBot(steps=0)
    with pytest.raises(ValueError, match="explore"):
        IsmctsBot(explore=-1.0)


@pytest.mark.parametrize(
    "bot",
    [SearchBot(seed=0, worlds=40, time_budget=None), IsmctsBot(seed=0, steps=4000)],
    ids=["search", "ismcts"],
)
def test_search_takes_the_10_it_can_win(bot: Bot[View, Move]) -> None:
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
    assert str(bot.choose(deal.view(0))) == "AS"


def test_a_trick_weight_takes_the_trick_where_the_result_is_settled() -> None:
    """With 3 tricks left and all four tens taken, the result no longer turns on the move:
    every play-out scores the same, and the search player plays the first legal card. With
    ``trick`` it plays the card that takes another trick (here in the true deal too, played
    out by the rule-based player), and so does the expert's early search with
    ``early_trick``."""
    rules_bot = RulesBot()
    deal = Deal.new(Rules(), dealer=0, seed=0)

    def rules_move() -> Move:
        assert deal.turn is not None
        return rules_bot.choose(deal.view(deal.turn))

    for _ in range(43):
        deal.push(rules_move())
    assert len(deal.tricks) == 10 and min(deal.tricks_won) > 0
    assert sum(1 for team in deal.captured for card in team if card.rank == 10) == 4
    assert deal.turn is not None
    view = deal.view(deal.turn)
    legal = list(deal.legal_moves())
    assert [str(m) for m in legal] == ["6S", "KS"]

    def tricks_after(move: Move) -> int:
        team = view.seat % 2
        made = 1
        deal.push(move)
        while not deal.is_over():
            deal.push(rules_move())
            made += 1
        outcome = deal.outcome()
        assert outcome is not None
        for _ in range(made):
            deal.pop()
        return outcome.tricks[team]

    plain = SearchBot(seed=0, worlds=40, steps=None).choose(view)
    assert plain == legal[0]
    weighted = SearchBot(seed=0, worlds=40, steps=None, trick=1.0).choose(view)
    assert str(weighted) == "KS"
    assert tricks_after(weighted) == tricks_after(plain) + 1
    early = ExpertBot(seed=0, solve_tricks=2, early_trick=1.0, worlds=40, steps=None)
    assert early.choose(view) == weighted and early.last_samples == 0
    with pytest.raises(ValueError, match="trick"):
        SearchBot(trick=-0.5)
    with pytest.raises(ValueError, match="early_trick"):
        ExpertBot(early="ismcts", early_trick=0.1)


def test_natural_z_keeps_the_rule_based_move_unless_the_best_beats_it_clearly() -> None:
    """With ``natural_z`` the search player's best move replaces the rule-based player's
    only if it wins by more than that many standard errors over the same worlds: at the
    first lead of seed 0 the search's 6D beats the rules' AH by less than one, at seed 1
    its KS beats AC by more than one (but not by a thousand)."""

    def first_lead(seed: int, **options: object) -> str:
        view = Deal.new(Rules(), dealer=0, seed=seed).view(1)
        return str(SearchBot(seed=0, worlds=40, steps=None, **options).choose(view))  # type: ignore[arg-type]

    assert str(RulesBot().choose(Deal.new(Rules(), dealer=0, seed=0).view(1))) == "AH"
    assert first_lead(0) == "6D" and first_lead(0, natural_z=1.0) == "AH"
    assert str(RulesBot().choose(Deal.new(Rules(), dealer=0, seed=1).view(1))) == "AC"
    assert first_lead(1) == first_lead(1, natural_z=1.0) == "KS"
    assert first_lead(1, natural_z=1000.0) == "AC"
    view = Deal.new(Rules(), dealer=0, seed=1).view(1)
    early = ExpertBot(seed=0, natural_z=1000.0, worlds=40, steps=None)
    assert str(early.choose(view)) == "AC"
    with pytest.raises(ValueError, match="natural_z=-1"):
        SearchBot(natural_z=-1)


def test_the_true_world_of_rule_based_players_keeps_full_weight() -> None:
    bot = RulesBot()
    rules = Rules.preset("hidden")
    deal = Deal.new(rules, dealer=0, seed=21)
    while len(deal.history) < 30:
        turn = deal.turn
        assert turn is not None
        deal.push(bot.choose(deal.view(turn)))
    view = deal.view(2)
    truth = tuple(deal.hand(s).mask for s in range(4))
    hidden = deal.face_down if not deal.trump_known and deal.chooser != 2 else None
    assert replay(view, (truth, hidden), rules_likelihood(bot, 0.5))[1] == 1.0
    rng = random.Random(1)
    weights = [
        replay(view, sample_world(view, rng), rules_likelihood(bot, 0.5))[1] for _ in range(20)
    ]
    assert min(weights) < 1.0


def _trump_deal(rules: Rules, chooser_hand: str, seed: int = 0) -> Deal:
    """A deal whose seat choosing trump (the one after the dealer) holds ``chooser_hand``,
    the rest of the pack dealt from ``seed``."""
    chooser = Deal.new(rules, dealer=0, seed=seed).turn
    assert chooser is not None
    mine = [Card.parse(c) for c in chooser_hand.split()]
    rest = [c for c in bits(deck(52)) if c not in mine]
    random.Random(seed).shuffle(rest)
    hands = [rest[13 * i : 13 * i + 13] for i in range(3)]
    hands.insert(chooser, mine)
    return Deal(rules, 0, hands)


def test_trump_candidates_are_a_low_card_of_each_suit_held_or_every_suit_announced() -> None:
    """M-12: the face-down card to try is, in each suit held, the lowest but the 10; M-15:
    every suit may be announced."""
    deal = _trump_deal(Rules.preset("hidden"), "10C 3C AC 10D KD 5H 4H QH 2S 9S JS 8S KS")
    assert deal.turn is not None
    tried = [str(m) for m in trump_candidates(deal.view(deal.turn))]
    assert tried == ["hide 3C", "hide KD", "hide 4H", "hide 2S"]
    only_ten = _trump_deal(Rules.preset("hidden"), "10C 3D AD 10D KD 5H 4H QH 2S 9S JS 8S KS")
    assert only_ten.turn is not None
    assert str(trump_candidates(only_ten.view(only_ten.turn))[0]) == "hide 10C"
    announce = Deal.new(Rules.preset("dehla-pakad"), dealer=0, seed=3)
    assert announce.turn is not None
    assert [m.kind for m in trump_candidates(announce.view(announce.turn))] == [
        MoveKind.ANNOUNCE
    ] * 4


@pytest.mark.parametrize("preset", ["hidden", "dehla-pakad"])
def test_the_deals_played_out_for_a_trump_choice_agree_with_the_choosers_hand(
    preset: str,
) -> None:
    """The chooser's cards (under announce hukum its first five, M-15) are its own in every
    deal played out; the rest of the pack is dealt once, to the right sizes."""
    rules = Rules.preset(preset)
    deal = Deal.new(rules, dealer=1, seed=8)
    assert deal.turn is not None
    view = deal.view(deal.turn)
    rng = random.Random(4)
    for _ in range(20):
        world = _dealt_world(view, rng)
        assert world.dealer == view.dealer and world.turn == view.seat
        assert world.view(view.seat).hand == view.hand
        held = [world.hand(s).mask for s in range(4)]
        assert [h.bit_count() for h in held] == [13] * 4
        assert held[0] | held[1] | held[2] | held[3] == deck(52)


def test_searched_trump_is_the_suit_that_wins_in_the_play_outs() -> None:
    """A hand long and high in spades: the search lays a spade face down (M-12) or announces
    spades (M-15), though spades is the last suit it tries."""
    hand = "AS KS QS JS 10S 9S 8S 2C 3C 2D 3D 2H 3H"
    deal = _trump_deal(Rules.preset("hidden"), hand, seed=5)
    assert deal.turn is not None
    move = search_trump(deal.view(deal.turn), random.Random(1), 16, RulesBot())
    assert move == Move.hide(Card.parse("8S"))
    announce = _trump_deal(Rules.preset("dehla-pakad"), hand, seed=5)
    assert announce.turn is not None
    choice = search_trump(announce.view(announce.turn), random.Random(1), 16, RulesBot())
    assert choice == Move.announce(Suit.SPADES)
    with pytest.raises(ValueError, match="worlds"):
        search_trump(deal.view(deal.turn), random.Random(1), 0, RulesBot())
