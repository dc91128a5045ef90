"""Positions for the solver tests, and the reference: exhaustive minimax on the engine."""

from __future__ import annotations

import random
from typing import Any

from hukum.cards import CARDS, Card, bits, deck
from hukum.mindi import Deal, Move, Outcome, Rules

#: Every 4-player rule option that changes play: trump methods, reveal, must_trump,
#: capture, tie-break, direction and pack.
VARIANTS: list[Rules] = [
    Rules(),
    Rules(trump="band"),
    Rules(trump="band", reveal="on_request"),
    Rules(trump="open"),
    Rules(trump="announce"),
    Rules(must_trump=True),
    Rules(trump="band", must_trump=True),
    Rules(trump="band", reveal="on_request", must_trump=True),
    Rules(capture="dehla"),
    Rules(trump="announce", capture="dehla"),
    Rules(tie_break="highest_trick"),
    Rules(trump="band", tie_break="highest_trick", direction="clockwise"),
    Rules(deck=48),
    Rules(deck=48, trump="band", capture="dehla", direction="clockwise"),
]


def _start(rules: Rules, rng: random.Random, hands: list[list[Card]], dealer: int) -> Deal:
    shown = CARDS[rng.choice(list(bits(deck(rules.deck))))] if rules.trump == "open" else None
    deal = Deal(rules, dealer, [[CARDS[c] for c in h] for h in hands], shown_card=shown)
    return deal


def _opening(deal: Deal, rng: random.Random, avoid: int = 0) -> None:
    """Lay the face-down card or announce trump, at random (not a card of ``avoid``)."""
    while deal.phase in ("hide", "announce"):
        moves = [m for m in deal.legal_moves() if m.card is None or not avoid >> m.card & 1]
        deal.push(rng.choice(moves))


def random_endgame(rules: Rules, rng: random.Random, left: int) -> Deal:
    """A random deal played at random until each hand has ``left`` cards or so, then a few
    cards more: usually trump is set (or turned up) by then."""
    deal = Deal.new(rules, rng.randrange(4), rng.getrandbits(32))
    _opening(deal, rng)
    stop = (rules.hand_size - left) * 4 + rng.randrange(4)
    while len(deal.moves) - 1 < stop and not deal.is_over():
        deal.push(rng.choice(deal.legal_moves()))
    return deal


def quiet_endgame(rules: Rules, rng: random.Random, left: int) -> Deal:
    """A deal whose first tricks all followed suit, so that at ``left`` cards each nobody has
    been void yet: under cut trump is not set, under band the card is still face down."""
    n = rules.hand_size
    dealer = rng.randrange(4)
    pool = list(bits(deck(rules.deck)))
    rng.shuffle(pool)
    tricks: list[list[Card]] = []
    for _ in range(n - left):
        suits = [s for s in range(4) if sum(1 for c in pool if c >> 4 == s) >= 4]
        suit = rng.choice(suits)
        four = [c for c in pool if c >> 4 == suit][:4]
        for c in four:
            pool.remove(c)
        tricks.append(four)
    hands: list[list[Card]] = [[t[s] for t in tricks] for s in range(4)]
    for s in range(4):
        hands[s] += pool[s * left : (s + 1) * left]
    deal = _start(rules, rng, hands, dealer)
    early = sum(1 << c for t in tricks for c in t)
    _opening(deal, rng, avoid=early)
    for t in tricks:
        for _ in range(4):
            seat = deal.turn
            assert seat is not None
            deal.push(deal.legal_moves()[0].play(t[seat]))
    for _ in range(rng.randrange(4)):
        deal.push(rng.choice(deal.legal_moves()))
    return deal


def key(deal: Deal, outcome: Outcome) -> tuple[int, ...]:
    """How good a finished deal is for team 0: tens, then the tie-break, then tricks."""
    tricks = deal.tricks
    if deal.rules.tie_break == "highest_trick":
        hi = tricks[outcome.highest_trick].winner % 2 == 0
        return (outcome.tens[0], hi, outcome.tricks[0])
    last = tricks[-1].winner % 2 == 0 if len(tricks) % 2 == 0 else False
    return (outcome.tens[0], outcome.tricks[0], last)


def minimax(deal: Deal) -> tuple[tuple[int, ...], Outcome]:
    """The exact result under optimal play, by trying every line on the engine."""
    if deal.is_over():
        outcome = deal.outcome()
        assert outcome is not None
        return key(deal, outcome), outcome
    turn = deal.turn
    assert turn is not None
    results: list[Any] = []
    for move in deal.legal_moves():
        deal.push(move)
        results.append(minimax(deal))
        deal.pop()
    pick = max if turn % 2 == 0 else min
    return pick(results, key=lambda r: r[0])  # type: ignore[no-any-return]


def scripted_endgame(rules: Rules, leader: int, *texts: str, shown: str | None = None) -> Deal:
    """A deal whose first tricks all follow suit and are all won by ``leader``, who then
    leads the end game with these hands (one string a seat). Each suit must have a multiple
    of four cards outside the end game. ``shown`` is the card shown under open hukum."""
    end = [[Card.parse(t) for t in text.split()] for text in texts]
    used = {c for hand in end for c in hand}
    rest = [c for c in bits(deck(rules.deck)) if c not in used]
    tricks = []
    for suit in range(4):
        cards = sorted((c for c in rest if c >> 4 == suit), reverse=True)
        assert len(cards) % 4 == 0, "each suit needs a multiple of four cards played before"
        tricks += [cards[i : i + 4] for i in range(0, len(cards), 4)]
    hands: list[list[Card]] = [[] for _ in range(4)]
    for four in tricks:
        # The leader holds the highest card of each, so wins it and leads the next.
        seats = [leader, *(s for s in range(4) if s != leader)]
        for seat, card in zip(seats, four, strict=True):
            hands[seat].append(card)
    for seat in range(4):
        hands[seat] += end[seat]
    dealer = (leader - rules.step) % 4
    deal = Deal(rules, dealer, hands, shown_card=shown)
    for four in tricks:
        for _ in range(4):
            turn = deal.turn
            assert turn is not None
            deal.push(Move.play(next(c for c in four if c in deal.hand(turn))))
    return deal
