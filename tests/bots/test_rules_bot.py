"""The rule-based bot in set positions: each test is named after the play it checks."""

from __future__ import annotations

import random

import pytest

from hukum.bots import BotError, make_bot
from hukum.bots.rules import Knowledge, RulesBot, RulesWeights, trump_candidates
from hukum.cards import Card, CardSet, Suit, bits, deck
from hukum.mindi import Deal, Move, MoveKind, Rules


def position(
    rules: Rules,
    dealer: int,
    hands: dict[int, str],
    moves: str = "",
    voids: dict[int, str] | None = None,
    shown_card: str | None = None,
) -> Deal:
    """A deal where the given seats hold (at least) the given cards; the other cards are shared
    out among seats still short, never in a suit listed in ``voids``; then ``moves`` are made."""
    given = {s: CardSet.parse(t) for s, t in hands.items()}
    used = 0
    for cs in given.values():
        used |= cs.mask
    pool = [c for c in bits(deck(rules.deck)) if not used >> c & 1]
    void_suits = {s: {Suit.parse(x) for x in t.split()} for s, t in (voids or {}).items()}
    full: list[list[int]] = [list(given.get(s, CardSet())) for s in range(rules.players)]
    for seat in sorted(range(rules.players), key=lambda s: -len(void_suits.get(s, ()))):
        keep = []
        for c in pool:
            if len(full[seat]) < rules.hand_size and c.suit not in void_suits.get(seat, set()):
                full[seat].append(c)
            else:
                keep.append(c)
        pool = keep
    deal = Deal(rules, dealer, full, shown_card=shown_card)
    for text in moves.split(","):
        if text.strip():
            deal.push(Move.parse(text.strip()))
    return deal


def choose(deal: Deal) -> Move:
    turn = deal.turn
    assert turn is not None
    return RulesBot().choose(deal.view(turn))


CLASSIC = Rules()
ME = "10H 4H 9C 8C 7C 6D 5D 4D 9S 8S 7S 6S 5S"


def test_drops_the_10_under_partners_master_ace() -> None:
    deal = position(CLASSIC, 1, {0: ME, 2: "AH", 3: "3H"}, "AH, 3H")
    assert choose(deal) == Move.parse("10H")


def test_keeps_the_10_when_partners_card_can_be_beaten() -> None:
    deal = position(CLASSIC, 1, {0: ME, 2: "QH", 3: "3H"}, "QH, 3H")
    assert choose(deal) == Move.parse("4H")


def test_wins_a_trick_holding_a_10_with_the_lowest_card_that_wins_it() -> None:
    me = "QD KD AD 4D 9C 8C 7C 6H 5H 4H 9S 8S 7S"
    deal = position(CLASSIC, 2, {0: me, 3: "10D"}, "10D")
    assert choose(deal) == Move.parse("QD")


def test_does_not_waste_a_high_trump_on_a_trick_without_a_10() -> None:
    # Open hukum, spades trump. Seat 0 wins trick 1, loses trick 2, and is void in hearts.
    rules = Rules(trump="open")
    me = "AH AS KS 2C 9C 8C 7C 6D 5D 4D 3D 2D 7D"
    deal = position(
        rules,
        2,
        {0: me, 1: "2H 3C 5H", 2: "3H 4C", 3: "10H KC 6H"},
        "10H, AH, 2H, 3H, 2C, 3C, 4C, KC, 6H",
        shown_card="2S",
    )
    move = choose(deal)
    assert move.card is not None and move.card.suit != Suit.SPADES


def test_trumps_a_trick_holding_a_10() -> None:
    rules = Rules(trump="open")
    me = "AH AS KS 2C 9C 8C 7C 6D 5D 4D 3D 2D 7D"
    deal = position(
        rules,
        2,
        {0: me, 1: "2H 3C 5H", 2: "3H 4C", 3: "JH KC 10H"},
        "JH, AH, 2H, 3H, 2C, 3C, 4C, KC, 10H",
        shown_card="2S",
    )
    assert choose(deal) == Move.parse("KS")


def test_cashes_a_10_once_nothing_above_it_is_live() -> None:
    me = "2D JD 10D 5D AC 9H 8H 7H 6S 5S 4S 3S 2S"
    deal = position(
        CLASSIC,
        3,
        {0: me, 1: "AD 2C", 2: "KD 3C", 3: "QD 4C"},
        "2D, AD, KD, QD, 2C, 3C, 4C, AC",
    )
    assert choose(deal) == Move.parse("10D")


def test_leads_an_ace_while_the_10_of_its_suit_is_out() -> None:
    me = "AS 4S 3S KC 5C 4C 9H 8H 7H 6D 5D 4D 3D"
    deal = position(CLASSIC, 3, {0: me})
    assert choose(deal) == Move.parse("AS")


def test_does_not_lead_the_ace_into_an_opponents_void() -> None:
    me = "AS 4S 2S KC 5C 4C AH 8H 7H 6D 5D 4D 3D"
    deal = position(
        CLASSIC,
        3,
        {0: me, 1: "3C 5H", 2: "3S 6H", 3: "6S 7D"},
        "2S, 3C, 3S, 6S, 5H, 6H, 7D, AH",
        voids={1: "S", 3: "H"},
    )
    move = choose(deal)
    assert move.card is not None and move != Move.parse("AS")


def test_leads_into_partners_void() -> None:
    me = "2H 6H 5H 9D 8D AD 4C 3C 8S 7S 6S 5S 4S"
    deal = position(
        CLASSIC,
        3,
        {0: me, 1: "3H 7D", 2: "2C 5D", 3: "4H 6D"},
        "2H, 3H, 2C, 4H, 5D, 6D, AD, 7D",
        voids={2: "H"},
    )
    assert choose(deal) == Move.parse("5H")


def test_cuts_with_the_10_of_its_longest_suit() -> None:
    me = "10S AS 9S 8S 7S 6S AC 2C KD QD 5D 4D 3D"
    deal = position(CLASSIC, 2, {0: me, 3: "AH"}, "AH", voids={0: "H"})
    assert choose(deal) == Move.parse("10S")


def test_hides_a_low_card_of_its_strongest_suit() -> None:
    me = "10S AS KS 8S 7S 6S AC 2C KD QD 5D 4D 3D"
    deal = position(Rules.preset("hidden"), 3, {0: me})
    assert choose(deal) == Move.parse("hide 6S")


def test_announces_its_strongest_suit() -> None:
    rules = Rules.preset("dehla-pakad")
    deal = position(rules, 3, {0: "AH KH 10H 2C 3D"})  # the first batch of five
    assert deal.view(0).hand == CardSet.parse("AH KH 10H 2C 3D")
    assert choose(deal) == Move.announce(Suit.HEARTS)


def test_its_weights_are_its_options_and_change_its_choices() -> None:
    rules = Rules.preset("dehla-pakad")
    view = position(rules, 3, {0: "AH KH 2S 3S 4S"}).view(0)
    assert RulesBot().choose(view) == Move.announce(Suit.HEARTS)  # honours over length
    assert RulesBot(RulesWeights()).choose(view) == Move.announce(Suit.HEARTS)
    longer = make_bot("rules", hold_length=10)
    assert isinstance(longer, RulesBot) and longer.weights.hold_length == 10.0
    assert longer.choose(view) == Move.announce(Suit.SPADES)


def test_bad_weights_are_refused_with_the_reason() -> None:
    with pytest.raises(BotError, match=r"no option nope for the rules bot; .*hold_gone"):
        make_bot("rules", nope=1)
    with pytest.raises(BotError, match=r"high_trump=9\.5: the weight must be a whole number"):
        make_bot("rules", high_trump=9.5)
    with pytest.raises(BotError, match="lead_ten='x': the weight must be a number"):
        make_bot("rules", lead_ten="x")
    with pytest.raises(ValueError, match="hold_ten=True"):
        RulesWeights(hold_ten=True)


def test_reveals_the_trump_to_save_a_10_under_on_request() -> None:
    rules = Rules.preset("hidden", reveal="on_request")
    me = "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"
    deal = position(rules, 2, {0: me, 3: "10H AH KH QH"}, "hide AH, 10H")
    moves = deal.legal_moves()
    assert Move.REVEAL_TRUMP in moves
    assert choose(deal) == Move.REVEAL_TRUMP


def test_does_not_reveal_the_trump_for_a_worthless_trick() -> None:
    rules = Rules.preset("hidden", reveal="on_request")
    me = "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"
    deal = position(rules, 2, {0: me, 3: "2H AH KH QH"}, "hide AH, 2H")
    move = choose(deal)
    assert move.kind is MoveKind.PLAY and move.card is not None and move.card.rank != 10


def _find(seeds: range, rules: Rules, want: str) -> tuple[int, int]:
    """Play rules-bot deals; count positions matching ``want`` and how often the bot agreed."""
    bot = RulesBot()
    seen = agreed = 0
    for seed in seeds:
        deal = Deal.new(rules, dealer=seed % 4, seed=seed)
        while not deal.is_over():
            turn = deal.turn
            assert turn is not None
            view = deal.view(turn)
            move = bot.choose(view)
            k = Knowledge.of_view(view)
            if want == "lost-last" and k.decided == -1 and len(view.trick) == 3:
                # Last to play with a winner in hand and no trick yet: take it.
                best, seat = k.best()
                wins = [
                    m for m in view.legal_moves if m.card and k.card_key(m.card, k.trump) > best
                ]
                if seat & 1 != k.team and wins and view.tricks_won[k.team] == 0:
                    seen += 1
                    agreed += move in wins
            deal.push(move)
    return seen, agreed


def test_denies_the_whitewash_once_the_deal_is_lost() -> None:
    seen, agreed = _find(range(60), CLASSIC, "lost-last")
    assert seen > 0 and agreed == seen


def test_every_move_is_legal_and_fast_to_find_in_every_preset() -> None:
    for preset in ("classic", "hidden", "mindi-world", "mendicot", "dehla-pakad"):
        rules = Rules.preset(preset)
        bot = make_bot("rules")
        for seed in range(5):
            deal = Deal.new(rules, dealer=seed % 4, seed=seed)
            while not deal.is_over():
                turn = deal.turn
                assert turn is not None
                view = deal.view(turn)
                move = bot.choose(view)
                assert move in view.legal_moves
                deal.push(move)


def test_cuts_a_worthless_trick_from_the_suit_it_wants_as_trump() -> None:
    # Whatever seat 0 plays sets trump (M-11), even a discard: it must come from spades.
    me = "AS KS QS JS 8C 2C 3C KD 5D 4D 3D 2D 4H"
    deal = position(
        CLASSIC, 2, {0: me, 1: "AH 3H", 2: "2H 5H", 3: "10H 6H"}, "10H, 4H, AH, 2H, 3H, 5H, 6H"
    )
    move = choose(deal)
    assert move.card is not None and move.card.suit == Suit.SPADES


WON = "10C 2C AC 3C, 10D 2D AD 3D, 10H 2H AH 3H, 2S 3S 5S 4C, 5H 6H 7H KH"
WON_HANDS = {
    0: "10C AD 10H 5S KH AS 6S 7S 4D 5D 6D 8H 9H",
    1: "2C 3D 2H 4C 5H",
    2: "AC 10D AH 2S 6H",
    3: "3C 2D 3H 3S 7H",
}


def test_plays_for_mendikot_once_the_deal_is_won() -> None:
    # Three tens home; the ace of spades may be cut by seat 1, but the last 10 is spades.
    deal = position(CLASSIC, 3, WON_HANDS, WON.replace(" ", ", "), voids={1: "S"})
    view = deal.view(0)
    assert len(view.tens[0]) == 3 and Suit.SPADES in view.voids[1]
    assert choose(deal) == Move.parse("AS")


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
