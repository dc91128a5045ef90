"""Dealing (M-2, M-4, M-6), the first lead (M-7) and building deals from given hands."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from hukum.cards import Card, CardSet, bits, deck
from hukum.mindi import Deal, Played, Rules, deal_hands
from tests.mindi.helpers import hands

SIZES = [(4, 52, 13), (4, 48, 12), (6, 48, 8), (8, 48, 6)]


def expected_batches(hand_size: int) -> list[int]:
    return {13: [5, 4, 4], 12: [5, 4, 3], 8: [5, 3], 6: [5, 1]}[hand_size]


@pytest.mark.parametrize(("players", "size", "hand"), SIZES)
def test_m2_deck_and_hand_sizes(players, size, hand):
    rules = Rules(players=players, deck=size)
    for seed in range(5):
        dealt, shown = deal_hands(rules, 0, seed)
        assert shown is None
        assert len(dealt) == players
        assert all(len(h) == hand for h in dealt)
        every = [c for h in dealt for c in h]
        assert len(set(every)) == size
        assert CardSet(every).mask == deck(size)
        if size == 48:
            assert all(c.rank != 2 for c in every)


@pytest.mark.parametrize(("players", "size", "hand"), SIZES)
@pytest.mark.parametrize("direction", ["anticlockwise", "clockwise"])
def test_m6_batches_of_five_then_four_from_the_player_after_the_dealer(
    players, size, hand, direction
):
    # M-6: Fisher–Yates shuffle from the seed, then a batch of 5 to each player starting with
    # the player after the dealer (M-4 direction), then batches of 4, the last one smaller.
    rules = Rules(players=players, deck=size, direction=direction)
    dealer = 1
    seed = 12345
    pack = list(bits(deck(size)))
    random.Random(seed).shuffle(pack)
    step = 1 if direction == "anticlockwise" else -1
    order = [(dealer + step * (i + 1)) % players for i in range(players)]
    expected: dict[int, list[Card]] = {s: [] for s in range(players)}
    pos = 0
    for batch in expected_batches(hand):
        for seat in order:
            expected[seat] += pack[pos : pos + batch]
            pos += batch
    assert pos == size
    dealt, _ = deal_hands(rules, dealer, seed)
    assert [list(h) for h in dealt] == [expected[s] for s in range(players)]
    deal = Deal.new(rules, dealer, seed)
    assert deal.dealt == dealt
    assert all(deal.hand(s) == CardSet(dealt[s]) for s in range(players))


def test_m6_same_seed_same_deal_and_different_seeds_differ():
    rules = Rules()
    a = Deal.new(rules, 2, seed=99)
    b = Deal.new(rules, 2, seed=99)
    assert a.dealt == b.dealt
    assert a.seed == 99
    others = {Deal.new(rules, 2, seed=s).dealt for s in range(50)}
    assert len(others) == 50
    # The dealer changes who gets which batch, not the shuffle.
    c = Deal.new(rules, 0, seed=99)
    assert sorted(c.dealt[1]) == sorted(a.dealt[3])


def test_m6_the_shuffle_is_uniform_enough():
    # Over many fixed seeds every card reaches seat 0's first position about equally often:
    # a card missing or hugely over-represented would show a broken shuffle.
    rules = Rules()
    counts = Counter(deal_hands(rules, 3, seed)[0][0][0] for seed in range(5200))
    assert len(counts) == 52
    assert max(counts.values()) < 3 * min(counts.values())


def test_m6_seed_must_be_an_int():
    with pytest.raises(TypeError, match="seed"):
        deal_hands(Rules(), 0, "7")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed"):
        Deal.new(Rules(), 0, True)


@pytest.mark.parametrize(
    ("direction", "dealer", "leader"),
    [("anticlockwise", 0, 1), ("anticlockwise", 3, 0), ("clockwise", 0, 3), ("clockwise", 2, 1)],
)
def test_m7_the_player_after_the_dealer_leads(direction, dealer, leader):
    for trump in ("cut", "open"):
        deal = Deal.new(Rules(direction=direction, trump=trump), dealer, seed=5)
        assert (deal.phase, deal.turn, deal.dealer) == ("play", leader, dealer)
    band = Deal.new(Rules(direction=direction, trump="band"), dealer, seed=5)
    assert (band.phase, band.turn, band.chooser) == ("hide", leader, leader)
    announce = Deal.new(Rules(direction=direction, trump="announce"), dealer, seed=5)
    assert (announce.phase, announce.turn) == ("announce", leader)


def test_m7_with_six_and_eight_players():
    assert Deal.new(Rules(players=6, deck=48), 5, seed=1).turn == 0
    assert Deal.new(Rules(players=8, deck=48, direction="clockwise"), 0, seed=1).turn == 7


def test_m4_play_follows_the_direction():
    cases: list[tuple[Any, list[int]]] = [
        ("anticlockwise", [2, 3, 0, 1]),
        ("clockwise", [0, 3, 2, 1]),
    ]
    for direction, order in cases:
        deal = Deal.new(Rules(direction=direction), 1, seed=3)
        seen = []
        for _ in range(4):
            seen.append(deal.turn)
            deal.push(deal.legal_moves()[0])
        assert seen == order
        assert len(deal.tricks) == 1


def test_given_hands_keep_the_dealt_order():
    rules = Rules(players=8, deck=48)
    pack = [c.code for c in bits(deck(48))]
    given = [pack[i * 6 : i * 6 + 6][::-1] for i in range(8)]
    deal = Deal(rules, 0, given)
    assert [[c.code for c in h] for h in deal.dealt] == given
    assert deal.seed is None
    assert deal.hand(3) == CardSet.parse(" ".join(given[3]))


def test_given_hands_accept_cards_ints_and_text():
    rules = Rules(players=8, deck=48)
    pack = list(bits(deck(48)))
    mixed = [[c if i % 3 == 0 else int(c) if i % 3 == 1 else str(c) for c in pack[i * 6 :][:6]]
             for i in range(8)]  # fmt: skip
    assert Deal(rules, 0, mixed).dealt == tuple(tuple(pack[i * 6 :][:6]) for i in range(8))


def test_a_hand_may_be_given_as_one_string():
    rules = Rules(players=8, deck=48)
    pack = [c.code for c in bits(deck(48))]
    as_text = [" ".join(pack[i * 6 : i * 6 + 6]) for i in range(8)]
    assert Deal(rules, 0, as_text).dealt == Deal(rules, 0, hands(*as_text)).dealt


def full_hands(rules: Rules) -> list[list[str]]:
    pack = [c.code for c in bits(deck(rules.deck))]
    n = rules.hand_size
    return [pack[i * n : i * n + n] for i in range(rules.players)]


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        (lambda h: h[:3], ValueError, "expected 4 hands, got 3"),
        (lambda h: [h[0][:-1], h[1], h[2], [*h[3], h[0][-1]]], ValueError, "seat 0 has 12 cards"),
        (lambda h: [h[0], h[1], h[2], [*h[3][:-1], h[0][0]]], ValueError, "dealt twice"),
        (lambda h: [["1S", *h[0][1:]], h[1], h[2], h[3]], ValueError, "not a card"),
        (lambda h: [[13, *h[0][1:]], h[1], h[2], h[3]], ValueError, "not a card"),
    ],
)
def test_given_hands_are_checked(change, error, message):
    rules = Rules()
    with pytest.raises(error, match=message):
        Deal(rules, 0, change(full_hands(rules)))


def test_given_hands_must_come_from_the_pack_in_use():
    rules = Rules(deck=48)
    h = full_hands(rules)
    h[0][0] = "2S"
    with pytest.raises(ValueError, match="not in the 48-card pack"):
        Deal(rules, 0, h)


def test_dealer_and_rules_are_checked():
    rules = Rules()
    with pytest.raises(ValueError, match="dealer must be a seat from 0 to 3"):
        Deal(rules, 4, full_hands(rules))
    with pytest.raises(ValueError, match="dealer"):
        Deal(rules, True, full_hands(rules))
    with pytest.raises(ValueError, match="dealer"):
        Deal.new(rules, -1, seed=1)
    with pytest.raises(TypeError, match="Rules"):
        Deal("classic", 0, full_hands(rules))  # type: ignore[arg-type]


def test_copy_is_independent():
    deal = Deal.new(Rules(), 0, seed=8)
    deal.push(deal.legal_moves()[0])
    twin = deal.copy()
    twin.push(twin.legal_moves()[0])
    assert len(deal.history) == 1
    assert len(twin.history) == 2
    twin.pop()
    assert twin.view(2) == deal.view(2)
    assert twin.hand(1) == deal.hand(1)


def test_pop_without_moves_raises_index_error():
    with pytest.raises(IndexError):
        Deal.new(Rules(), 0, seed=1).pop()


def test_a_full_random_deal_from_a_seed_replays_identically():
    def run(seed: int) -> list[str]:
        deal = Deal.new(Rules.preset("hidden", reveal="on_request"), 2, seed)
        rng = random.Random(seed)
        while not deal.is_over():
            deal.push(rng.choice(deal.legal_moves()))
        return [str(m) for m in deal.moves]

    assert run(17) == run(17)


def test_the_masks_for_search_agree_with_the_card_sets() -> None:
    # hand_masks() and captured_masks are hand() and captured as ints; the trick holds
    # Played entries, as pushed and as popped back.
    rng = random.Random(5)
    for preset in ("classic", "hidden", "dehla-pakad"):
        deal = Deal.new(Rules.preset(preset), dealer=1, seed=9)
        while not deal.is_over():
            assert deal.hand_masks() == tuple(deal.hand(s).mask for s in range(4))
            assert deal.captured_masks == tuple(c.mask for c in deal.captured)
            trick = deal.trick
            deal.push(rng.choice(deal.legal_moves()))
            assert all(isinstance(p, Played) for p in deal.trick)
            deal.pop()
            assert deal.trick == trick
            deal.push(rng.choice(deal.legal_moves()))
        assert deal.hand_masks() == (0, 0, 0, 0)
        assert deal.captured_masks[0] | deal.captured_masks[1] == deck(52)
