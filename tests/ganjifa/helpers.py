"""Building Ganjifa positions for tests: hands with given cards and given empty suits."""

from __future__ import annotations

from hukum.ganjifa import CARDS, Card, CardSet, Deal, Move, Rules, Suit


def hands_with(fixed: dict[int, str], empty: dict[int, str] | None = None) -> list[list[Card]]:
    """Three hands of 40: seat s holds the cards ``fixed[s]`` and no card of the suits
    ``empty[s]`` (codes such as ``"Ka Ra"``); the other cards are spread over the seats."""
    hands: list[list[Card]] = [[], [], []]
    taken = 0
    for seat, text in fixed.items():
        for c in CardSet.parse(text):
            assert not taken >> c & 1, f"{c} given twice"
            taken |= 1 << c
            hands[seat].append(c)
    banned = [0, 0, 0]
    for seat, codes in (empty or {}).items():
        for code in codes.split():
            banned[seat] |= 1 << Suit.parse(code)
    for seat in range(3):
        assert not any(banned[seat] >> c.suit & 1 for c in hands[seat]), "a fixed card is banned"
    rest = [c for c in CARDS if not taken >> c & 1]
    # Cards of suits some seat may not hold go first, so that the others have room for them.
    rest.sort(key=lambda c: -sum(b >> c.suit & 1 for b in banned))
    for c in rest:
        seats = [s for s in range(3) if len(hands[s]) < 40 and not banned[s] >> c.suit & 1]
        assert seats, f"no room for {c}"
        seat = max(seats, key=lambda s: 40 - len(hands[s]))
        hands[seat].append(c)
    return hands


def make_deal(
    fixed: dict[int, str],
    empty: dict[int, str] | None = None,
    rules: Rules | None = None,
    dealer: int = 2,
) -> Deal:
    """A deal from :func:`hands_with`."""
    return Deal(rules or Rules(), dealer, hands_with(fixed, empty))


def play_opening(deal: Deal) -> None:
    """Play the opening trick (G-6): the trump Raja, then each follower's first legal card."""
    for _ in range(3):
        deal.push(deal.legal_moves()[0])


def ready(
    fixed: dict[int, str], empty: dict[int, str] | None = None, rules: Rules | None = None
) -> Deal:
    """A deal in which seat 0 holds the trump Raja and has won the opening trick; seats
    1 and 2 (unless empty in trump) follow with a spare trump, the Mantri and the 10."""
    trump = (rules or Rules()).trump.code
    fixed = {**fixed, 0: f"{trump}R " + fixed.get(0, "")}
    spare = {1: f"{trump}M", 2: f"{trump}10"}
    for seat in (1, 2):
        if trump not in (empty or {}).get(seat, "").split():
            fixed[seat] = spare[seat] + " " + fixed.get(seat, "")
    deal = make_deal(fixed, empty, rules)
    deal.push(Move.parse(f"{trump}R"))
    for seat in (1, 2):
        deal.push(Move.parse(spare[seat]) if deal.hand(seat) >> Card.parse(spare[seat]) & 1
                  else deal.legal_moves()[-1])  # fmt: skip
    assert deal.turn == 0 and deal.phase == "lead"
    return deal


def fingerprint(deal: Deal) -> tuple[object, ...]:
    """Everything observable of a deal, to compare before a push and after the pop."""
    return (
        deal.phase,
        deal.turn,
        tuple(deal.hand(s) for s in range(3)),
        deal.trick,
        deal.tricks,
        deal.captured,
        deal.answer_size,
        tuple(deal.legal_moves()) if deal.phase != "answer" else deal.legal_moves(),
        deal.history,
    )
