"""The Ganjifa computer players: set positions named after the play they check, the
sampler of the search player, and the factory."""

from __future__ import annotations

import random

import pytest

from hukum.bots import BotError
from hukum.bots.ganjifa import BOT_NAMES, RandomBot, make_bot
from hukum.bots.ganjifa.rules import RulesBot, Situation, keep_value, play, situation
from hukum.bots.ganjifa.search import SearchBot, answers, build_deal, candidates, sample_world
from hukum.ganjifa import SUIT_MASKS, Card, CardSet, Deal, Move, MoveKind, Rules, Suit
from tests.ganjifa.helpers import ready

KURMA_ALL = "KuR KuM Ku1 Ku2 Ku3 Ku4 Ku5 Ku6 Ku7 Ku8 Ku9 Ku10"


def _choose(deal: Deal, bot: object = None) -> Move:
    turn = deal.turn
    assert turn is not None
    chooser = bot or RulesBot()
    move = chooser.choose(deal.view(turn))  # type: ignore[attr-defined]
    assert deal.is_legal(move)
    return move  # type: ignore[no-any-return]


def test_random_bot_answers_a_dukal_with_k_random_cards() -> None:
    deal = ready({0: "Ma3 Ma4 Ma5 Ma6"})
    deal.push(Move.parse("dukal Ma3 Ma4 Ma5 Ma6"))
    bot: RandomBot[Move] = RandomBot(seed=3)
    answers = {_choose(deal, bot) for _ in range(5)}
    assert len(answers) > 1 and all(m.kind is MoveKind.GIVE and m.size == 4 for m in answers)


def test_rules_leads_the_longest_dukal() -> None:
    deal = ready({0: "Ma3 Ma4 Ma5 Ku1 Ku2 Ku3 Ku4 Ku5"})
    move = _choose(deal)
    longest = max(m.size for m in deal.dukals())
    assert move.kind is MoveKind.DUKAL and move.size == longest >= 5


def test_rules_answers_a_dukal_with_the_cards_that_matter_least() -> None:
    deal = ready({0: "Ma3 Ma4 Ma5", 1: "Ra1 Ra2 Ra3 Ka5 Ka6 Ka7 Bu1 Na10"})
    deal.push(Move.parse("dukal Ma3 Ma4 Ma5"))
    view = deal.view(1)
    move = _choose(deal)
    sit = situation(view)
    given = list(move.cards)
    kept = [c for c in view.hand if c not in move.cards]
    assert max(keep_value(sit, c) for c in given) <= min(keep_value(sit, c) for c in kept)
    assert not any(c.suit is Suit.RAMA for c in given)  # trumps are kept
    assert not {"Ka5", "Ka6", "Ka7"} & {c.code for c in given}  # and its own Dukal run


def test_rules_wins_with_the_lowest_card_that_wins_when_last() -> None:
    deal = ready({0: "Ku9 Ku8 Ku7 Ku6 Ku4 Ku3", 1: "Ku5 Ku2 KuM", 2: "KuR Ku1 Ku10"})
    deal.push(Move.parse("Ku9"))
    deal.push(Move.parse("Ku5"))
    assert _choose(deal) == Move.parse("Ku1")  # Kurma ranks 1 high: Ku1 beats Ku5


def test_rules_plays_its_lowest_card_when_it_cannot_win() -> None:
    deal = ready({0: "KuR Ku8 Ku7 Ku6 Ku4", 1: "KuM Ku2 Ku3", 2: "Ku1 Ku9 Ku10 Ku5"})
    deal.push(Move.parse("KuR"))
    assert _choose(deal) == Move.parse("Ku3")  # the lowest Kurma seat 1 holds


def test_rules_trumps_with_the_lowest_trump_when_void_and_last() -> None:
    deal = ready({0: "KuR", 1: "Ku2", 2: "Ra1 Ra5 Ra9 Ma3"}, empty={2: "Ku"})
    deal.push(Move.parse("KuR"))
    deal.push(Move.parse("Ku2"))
    assert _choose(deal) == Move.parse("Ra1")


def test_rules_keeps_its_trumps_when_void_and_a_higher_trump_is_down() -> None:
    deal = ready({0: "KuR", 1: "Ra9", 2: "Ra1 Ra5 Ma3 Ma4"}, empty={1: "Ku", 2: "Ku"})
    deal.push(Move.parse("KuR"))
    deal.push(Move.parse("Ra9"))
    move = _choose(deal)
    assert move.card.suit is not Suit.RAMA  # throws a card that matters less


def _lead_situation(hand: str, played: str = "RaR") -> Situation:
    mask = CardSet.parse(hand).mask
    return Situation(0, "lead", mask, mask, (), 0, int(Suit.RAMA), CardSet.parse(played).mask,
                     (0, 0, 0), ())  # fmt: skip


def test_rules_keeps_high_trumps_for_the_end_when_leading() -> None:
    # No Dukal and no sure winner in a plain suit: a low plain card, never the trumps.
    move = play(_lead_situation("RaM Ra10 Ra8 Ma10 Ma8 Ku10 Ku8 Vr10"))
    assert move == Move.parse("Vr10")  # the shortest plain suit, its lowest card


def test_rules_leads_trumps_only_from_a_hand_of_trumps() -> None:
    assert play(_lead_situation("RaM Ra10 Ra8")) == Move.parse("RaM")  # sure: RaR is out
    assert play(_lead_situation("Ra10 Ra8", played="Ra1")) == Move.parse("Ra8")


def test_rules_leads_a_sure_winner_of_a_plain_suit() -> None:
    move = play(_lead_situation("MaR Ma5 Ku10 Ku8 Vr10 Ra2"))
    assert move == Move.parse("MaR")


def test_rules_does_not_lead_a_winner_in_a_suit_an_opponent_lacks() -> None:
    sit = _lead_situation("MaR Ma5 Ku10 Ku8 Vr10 Ra2")._replace(voids=(0, 1 << Suit.MATSYA, 0))
    assert play(sit) == Move.parse("Vr10")


def test_rules_leads_the_longest_dukal_even_of_trumps() -> None:
    sit = _lead_situation("Ra3 Ra4 Ra5 Ra6 Ma1 Ma2 Ma3")
    dukals = (Move.dukal("Ma1 Ma2 Ma3"), Move.dukal("Ra3 Ra4 Ra5 Ra6"), Move.dukal("Ra3 Ra4 Ra5"))
    assert play(sit._replace(dukals=dukals)) == Move.dukal("Ra3 Ra4 Ra5 Ra6")


def _deal_after(moves: int, seed: int) -> Deal:
    deal = Deal.new(Rules(), seed % 3, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = deal.legal_moves()
        deal.push(legal[rng.randrange(len(legal))])
    return deal


@pytest.mark.parametrize("seed,moves", [(1, 0), (2, 1), (3, 30), (4, 60), (5, 90)])
def test_sampler_never_gives_a_card_of_a_shown_empty_suit(seed: int, moves: int) -> None:
    deal = _deal_after(moves, seed)
    seat = deal.turn
    assert seat is not None
    view = deal.view(seat)
    rng = random.Random(seed)
    for _ in range(20):
        world = sample_world(view, rng)
        assert world[seat] == view.hand.mask
        for s in range(3):
            assert world[s].bit_count() == view.hand_sizes[s]
            for suit in view.voids[s]:
                assert not world[s] & SUIT_MASKS[suit], f"seat {s} shown empty in {suit}"
        assert world[0] | world[1] | world[2] == view.hand.mask | view.unseen.mask
        rebuilt = build_deal(view, world)
        assert rebuilt.view(seat) == view


def test_sampler_respects_voids_between_the_led_and_the_played_suit() -> None:
    deal = ready({0: "Ku1", 1: "Na4"}, empty={1: "Ku Vr"})
    deal.push(Move.parse("Ku1"))
    deal.push(Move.parse("Na4"))
    view = deal.view(2)
    assert {Suit.KURMA, Suit.VARAHA} <= view.voids[1]
    rng = random.Random(0)
    for _ in range(30):
        world = sample_world(view, rng)
        assert not world[1] & (SUIT_MASKS[Suit.KURMA] | SUIT_MASKS[Suit.VARAHA])


def test_sampler_gives_the_trump_raja_to_the_opening_leader() -> None:
    deal = Deal.new(Rules(), 0, 7)
    leader = deal.turn
    assert leader is not None
    other = (leader + 1) % 3
    view = deal.view(other)
    raja = Card.parse("RaR")
    for seed in range(10):
        world = sample_world(view, random.Random(seed))
        assert world[leader] >> raja & 1


def test_candidates_try_one_of_equivalent_cards() -> None:
    deal = ready({0: "Ku1", 1: "Ku2 Ku3 Ku4 Ku9", 2: "Ku5 Ku6 Ku7 Ku8 Ku10 KuR KuM"})
    deal.push(Move.parse("Ku1"))
    view = deal.view(1)
    tried = {str(m) for m in candidates(view, view.legal_moves)}
    # Ku2, Ku3 and Ku4 are next to each other: one of them is enough; Ku9 differs.
    assert len(tried & {"Ku2", "Ku3", "Ku4"}) == 1 and "Ku9" in tried


def test_search_takes_a_sure_trick_when_last() -> None:
    deal = ready({0: "Ku9", 1: "Ku5", 2: "Ku1 Ku10 Ku8"}, empty={})
    deal.push(Move.parse("Ku9"))
    deal.push(Move.parse("Ku5"))
    move = _choose(deal, SearchBot(seed=2, steps=3000))
    assert move.card.suit is Suit.KURMA and move.card.power > Card.parse("Ku5").power


def test_search_plays_legal_moves_in_every_phase() -> None:
    deal = ready({0: "Ma3 Ma4 Ma5"})
    bot = SearchBot(seed=1, steps=500)
    assert deal.is_legal(_choose(deal, bot))
    deal.push(Move.parse("dukal Ma3 Ma4 Ma5"))
    answer = _choose(deal, bot)
    assert answer.kind is MoveKind.GIVE and answer.size == 3


def test_make_bot_by_name_and_errors() -> None:
    assert BOT_NAMES == ("random", "rules", "search")
    assert [make_bot(n).name for n in BOT_NAMES] == list(BOT_NAMES)
    assert make_bot("search", steps=100).steps == 100  # type: ignore[attr-defined]
    with pytest.raises(BotError, match="no Ganjifa bot"):
        make_bot("expert")
    with pytest.raises(BotError, match="takes no options"):
        make_bot("rules", steps=5)
    with pytest.raises(BotError, match="bad option"):
        make_bot("search", depth=3)
    with pytest.raises(BotError, match="bad option"):
        make_bot("search", steps=None, worlds=None)
    deal = Deal.new(Rules(), 0, 1)
    with pytest.raises(BotError, match="no move"):
        RulesBot().choose(deal.view((deal.turn or 0) + 1 if deal.turn != 2 else 0))
    assert CardSet(0) == CardSet()


def test_search_tries_distinct_legal_answers_keeping_trumps() -> None:
    deal = ready({0: "Ma3 Ma4 Ma5", 1: "Ra1 Ra2 Ra3 Ka5 Ka6 Ka7"})
    deal.push(Move.parse("dukal Ma3 Ma4 Ma5"))
    view = deal.view(1)
    tried = answers(view)
    assert 1 <= len(tried) <= 3 and len(set(tried)) == len(tried)
    for move in tried:
        assert move in view.legal_moves and move.size == 3
        assert not move.cards.suit(Suit.RAMA)  # with plain cards to spare, no trump given
