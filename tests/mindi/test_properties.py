"""Property tests (hypothesis) over random seeds, every preset and random rule options:
the invariants of the engine hold after every move of randomly played deals."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hukum.cards import Card, CardSet, Suit, deck
from hukum.mindi import PRESETS, Deal, IllegalMoveError, Move, MoveKind, Rules
from tests.mindi.helpers import fingerprint

# Deterministic and database-less, so CI runs the same examples every time.
FAST = settings(
    max_examples=40,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def option_rules(draw: st.DrawFn) -> Rules:
    """Any combination of the options that change play."""
    players, size = draw(st.sampled_from([(4, 52), (4, 48), (6, 48), (8, 48)]))
    trump = draw(st.sampled_from(["cut", "band", "open", "announce"]))
    options: dict[str, Any] = {
        "players": players,
        "deck": size,
        "trump": trump,
        "reveal": draw(st.sampled_from(["auto", "on_request"])) if trump == "band" else "auto",
        "direction": draw(st.sampled_from(["anticlockwise", "clockwise"])),
        "must_trump": draw(st.booleans()),
        "capture": draw(st.sampled_from(["tricks", "dehla"])),
        "tie_break": draw(st.sampled_from(["tricks", "highest_trick"])),
        "points": draw(st.tuples(*[st.integers(0, 9)] * 3)),
    }
    return Rules(**options)


def _cover() -> list[Rules]:
    """Every preset, and every trump method with every table size, the other options
    alternating so that each of their values meets each trump method."""
    out = list(PRESETS.values())
    methods = [("cut", "auto"), ("band", "auto"), ("band", "on_request"), ("open", "auto"),
               ("announce", "auto")]  # fmt: skip
    sizes = [(4, 52), (4, 48), (6, 48), (8, 48)]
    for i, (trump, reveal) in enumerate(methods):
        for j, (players, size) in enumerate(sizes):
            out.append(
                Rules(
                    players=players,
                    deck=size,
                    trump=trump,  # type: ignore[arg-type]
                    reveal=reveal,  # type: ignore[arg-type]
                    direction=("anticlockwise", "clockwise")[(i + j) % 2],
                    must_trump=bool((i + j // 2) % 2),
                    capture=("tricks", "dehla")[(i // 2 + j) % 2],
                    tie_break=("tricks", "highest_trick")[(i + j + j // 2) % 2],
                )
            )
    return out


COVER = list(dict.fromkeys(_cover()))


def _name(rules: Rules) -> str:
    return ",".join(f"{k}={v}" for k, v in rules.differences().items()) or "classic"


each_rules = pytest.mark.parametrize("rules", COVER, ids=[_name(r) for r in COVER])


def new_deal(rules: Rules, seed: int) -> tuple[Deal, random.Random]:
    """A deal from ``seed`` (the dealer too), and a generator that picks its moves."""
    deal = Deal.new(rules, seed % rules.players, seed)
    return deal, random.Random(seed ^ 0x5EED)


SEEDS = st.integers(0, 2**32)


def play_out(deal: Deal, rng: random.Random) -> Iterator[Move]:
    """Play random legal moves to the end, yielding before each one."""
    while not deal.is_over():
        move = rng.choice(deal.legal_moves())
        yield move
        deal.push(move)


def hidden_card(deal: Deal) -> Card | None:
    """The band card while it is face down."""
    return deal.face_down if deal.face_down is not None and not deal.trump_known else None


def played_cards(deal: Deal) -> CardSet:
    out = CardSet(p.card for p in deal.trick)
    for t in deal.tricks:
        out |= t.cards
    return out


# ------------------------------------------------------------------ conservation


def check_conservation(deal: Deal) -> None:
    n = deal.rules.players
    pack = CardSet(deck(deal.rules.deck))
    parts = [deal.hand(s) for s in range(n)] + [played_cards(deal)]
    down = hidden_card(deal)
    if down is not None:
        parts.append(CardSet([down]))
    assert sum(len(p) for p in parts) == len(pack)
    union = CardSet()
    for p in parts:
        union |= p
    assert union == pack
    # Captured cards plus the dehla pile are exactly the cards of the completed tricks.
    done = CardSet()
    for t in deal.tricks:
        done |= t.cards
    a, b = deal.captured
    assert not a & b
    assert a | b | deal.pile == done
    assert len(a) + len(b) + len(deal.pile) == len(done)


def check_tricks(deal: Deal) -> None:
    rules = deal.rules
    n = rules.players
    leader = rules.next_seat(deal.dealer)
    for t in deal.tricks:
        assert t.leader == leader
        seats = [p.seat for p in t.plays]
        assert len(seats) == n
        assert seats == [(leader + i * rules.step) % n for i in range(n)]
        assert t.winner in seats
        leader = t.winner
    if deal.trick:
        assert deal.trick[0].seat == leader
        assert len(deal.trick) < n
    assert sum(deal.tricks_won) == len(deal.tricks)
    assert deal.tricks_won[0] == sum(1 for t in deal.tricks if t.winner % 2 == 0)


def check_trick_winners(deal: Deal) -> None:
    # M-9: the highest counted trump, else the highest card of the led suit.
    for t in deal.tricks:
        led = t.plays[0].card.suit
        trumps = [p for p in t.plays if p.trump]
        pool = trumps or [p for p in t.plays if p.card.suit == led]
        assert t.winner == max(pool, key=lambda p: p.card.rank).seat


@each_rules
@settings(FAST, max_examples=10)
@given(seed=SEEDS)
def test_cards_are_conserved_and_every_trick_has_one_card_per_seat(rules, seed):
    deal, rng = new_deal(rules, seed)
    check_play(deal, rng)


def reference_legal_moves(deal: Deal) -> set[Move]:
    """The legal moves by the rule book (M-8, M-11, M-12, M-15), from public facts and the
    mover's hand, written independently of the engine."""
    turn = deal.turn
    assert turn is not None
    rules = deal.rules
    hand = deal.hand(turn)
    if deal.phase == "hide":
        return {Move.hide(c) for c in hand}
    if deal.phase == "announce":
        return {Move.announce(s) for s in Suit}
    everything = {Move.play(c) for c in hand}
    if not deal.trick:
        return everything  # the leader may lead any card (M-8)
    led = deal.trick[0].card.suit
    reveal = deal.reveal
    # Turned up at this very turn: because the player was void (or had only the face-down
    # card left), so it need not follow (M-12).
    here = reveal is not None and (reveal.trick, reveal.position) == (
        len(deal.tricks),
        len(deal.trick),
    )
    follow = {Move.play(c) for c in hand.of_suit(led)}
    if follow and not here:
        return follow
    asked = here and reveal is not None and reveal.asked
    if deal.trump_known and deal.trump is not None and (asked or rules.must_trump):
        trumps = {Move.play(c) for c in hand.of_suit(deal.trump)}
        if trumps:
            return trumps
    if rules.trump == "band" and rules.reveal == "on_request" and not deal.trump_known:
        return everything | {Move.REVEAL_TRUMP}
    return everything


def reference_trump_flags(deal: Deal) -> list[bool]:
    """Whether each card played counted as a trump (M-11, M-12, M-13), in play order."""
    rules = deal.rules
    plays = [(i, j, p) for i, t in enumerate(deal.tricks) for j, p in enumerate(t.plays)]
    if deal.trump is None:
        return [False] * len(plays)
    start = (0, 0)  # from which (trick, position) on a card of the trump suit counts
    if rules.trump == "cut":
        start = next(
            (i, j) for i, j, p in plays if p.card.suit != deal.tricks[i].plays[0].card.suit
        )
    elif rules.trump == "band" and rules.reveal == "on_request":
        assert deal.reveal is not None
        start = (deal.reveal.trick, deal.reveal.position)
    return [p.card.suit is deal.trump and (i, j) >= start for i, j, p in plays]


def check_play(deal: Deal, rng: random.Random) -> None:
    trump: Suit | None = None
    for _ in play_out(deal, rng):
        assert set(deal.legal_moves()) == reference_legal_moves(deal)
        check_conservation(deal)
        check_tricks(deal)
        if trump is not None:
            assert deal.trump is trump  # exactly one trump suit once set
        trump = deal.trump
        for p in [*deal.trick, *(p for t in deal.tricks for p in t.plays)]:
            assert not p.trump or p.card.suit is deal.trump
    assert deal.is_over()
    check_conservation(deal)
    check_tricks(deal)
    check_trick_winners(deal)
    assert [p.trump for t in deal.tricks for p in t.plays] == reference_trump_flags(deal)
    assert len(deal.tricks) == deal.rules.hand_size
    assert deal.pile == CardSet()
    assert all(deal.hand(s) == CardSet() for s in range(deal.rules.players))
    if deal.rules.trump == "band":
        assert deal.trump_known  # the chooser plays the card at the latest in the last trick
    if deal.rules.trump == "cut" and (deal.rules.players, deal.rules.deck) == (4, 52):
        assert deal.trump is not None  # M-11: someone is always void with 13 cards a suit


# ------------------------------------------------------------------ undo


@each_rules
@settings(FAST, max_examples=3)
@given(seed=SEEDS)
def test_pop_after_any_push_restores_the_state_exactly(rules, seed):
    check_undo(*new_deal(rules, seed))


def check_undo(deal: Deal, rng: random.Random) -> None:
    start = fingerprint(deal)
    count = 0
    for move in play_out(deal, rng):
        before = fingerprint(deal)
        deal.push(move)
        assert deal.pop() is move
        assert fingerprint(deal) == before
        count += 1
    end = fingerprint(deal)
    moves = deal.moves
    for _ in range(count):
        deal.pop()
    assert fingerprint(deal) == start
    for move in moves:
        deal.push(move)
    assert fingerprint(deal) == end


@each_rules
@settings(FAST, max_examples=2)
@given(seed=SEEDS)
def test_exactly_the_legal_moves_are_accepted_and_refusals_change_nothing(rules, seed):
    check_refusals(*new_deal(rules, seed))


def check_refusals(deal: Deal, rng: random.Random) -> None:
    for _ in play_out(deal, rng):
        turn = deal.turn
        assert turn is not None
        legal = set(deal.legal_moves())
        assert len(legal) == len(deal.legal_moves())  # no duplicates
        candidates = [Move.play(c) for c in deck_cards(deal)] + [Move.REVEAL_TRUMP]
        candidates += [Move.hide(c) for c in deal.hand(turn)][:3]
        candidates += [Move.announce(s) for s in Suit]
        before = fingerprint(deal)
        for move in rng.sample(candidates, min(12, len(candidates))) + list(
            deal.legal_moves()[-3:]
        ):
            if move in legal:
                deal.push(move, seat=turn)
                deal.pop()
            else:
                try:
                    deal.push(move, seat=turn)
                except IllegalMoveError as e:
                    assert "M-" in str(e) or "not in seat" in str(e)
                else:
                    raise AssertionError(f"{move} was accepted but is not legal")
            assert fingerprint(deal) == before
        other = deal.rules.next_seat(turn)
        some = deal.legal_moves()[0]
        try:
            deal.push(some, seat=other)
        except IllegalMoveError as e:
            assert "not your turn" in str(e)
        else:
            raise AssertionError("a move by the wrong seat was accepted")
        assert fingerprint(deal) == before


def deck_cards(deal: Deal) -> list[Card]:
    return list(CardSet(deck(deal.rules.deck)))


# ------------------------------------------------------------------ outcome


@each_rules
@settings(FAST, max_examples=20)
@given(seed=SEEDS)
def test_outcome_agrees_with_the_captured_cards(rules, seed):
    check_outcome(*new_deal(rules, seed))


def check_outcome(deal: Deal, rng: random.Random) -> None:
    for _ in play_out(deal, rng):
        assert deal.outcome() is None
    outcome = deal.outcome()
    assert outcome is not None
    rules = deal.rules
    captured = deal.captured
    tens = tuple(sum(1 for c in captured[team] if c.rank == 10) for team in (0, 1))
    assert outcome.tens == tens
    assert sum(tens) == 4
    won = tuple(sum(1 for t in deal.tricks if t.winner % 2 == team) for team in (0, 1))
    assert outcome.tricks == won == deal.tricks_won
    if rules.capture == "tricks":
        for team in (0, 1):
            cards = CardSet()
            for t in deal.tricks:
                if t.winner % 2 == team:
                    cards |= t.cards
            assert captured[team] == cards
    if tens[0] != tens[1]:
        assert (outcome.winner, outcome.decided_by) == (0 if tens[0] > tens[1] else 1, "tens")
    elif rules.tie_break == "tricks" and won[0] != won[1]:
        assert (outcome.winner, outcome.decided_by) == (0 if won[0] > won[1] else 1, "tricks")
    elif rules.tie_break == "tricks":
        assert outcome.decided_by == "last_trick"
        assert outcome.winner == deal.tricks[-1].winner % 2
    else:
        keys = [t.key for t in deal.tricks]
        best = keys.index(max(keys))
        assert outcome.highest_trick == best
        assert (outcome.winner, outcome.decided_by) == (
            deal.tricks[best].winner % 2,
            "highest_trick",
        )
    winner = outcome.winner
    if won[winner] == len(deal.tricks):
        kind = "whitewash"
    elif tens[winner] == 4:
        kind = "mendikot"
    else:
        kind = "win"
    assert outcome.kind == kind
    assert outcome.points == rules.points[("win", "mendikot", "whitewash").index(kind)]
    assert tens[winner] >= 2


# ------------------------------------------------------------------ views


def check_views(deal: Deal) -> None:
    n = deal.rules.players
    pack = CardSet(deck(deal.rules.deck))
    played = played_cards(deal)
    down = hidden_card(deal)
    chooser = deal.chooser
    reveal = deal.reveal
    for seat in range(n):
        view = deal.view(seat)
        hand = deal.hand(seat)
        if deal.phase == "announce":
            assert view.hand == CardSet(deal.dealt[seat][:5])
        else:
            assert view.hand == hand
        others = CardSet()
        for other in range(n):
            if other != seat:
                others |= deal.hand(other)
        # Nothing of another hand shows, except the band card turned up and not yet played.
        assert not view.hand & others
        turned_up = CardSet()
        if reveal is not None and reveal.card not in played:
            turned_up = CardSet([reveal.card])
        for other in range(n):
            if other != seat:
                assert view.known[other] == (turned_up if other == chooser else CardSet())
                assert view.known[other] <= deal.hand(other)
        # The hidden band card: only its chooser sees it and knows the trump.
        if down is not None:
            if seat == chooser:
                assert view.face_down == down
                assert view.trump is deal.trump
                assert down not in view.unseen
            else:
                assert view.face_down is None
                assert view.trump is None
                assert down in view.unseen
            assert not any(p.trump for t in view.tricks for p in t.plays)
            assert not any(p.trump for p in view.trick)
        else:
            assert view.face_down is None
            assert view.trump is (deal.trump if deal.trump_known else None)
        # Unseen: the pack less this seat's cards, the played cards and the known ones.
        known = CardSet()
        for k in view.known:
            known |= k
        own_down = CardSet([view.face_down]) if view.face_down is not None else CardSet()
        assert view.unseen == pack - view.hand - played - known - own_down
        assert view.hand_sizes == tuple(
            (5 if deal.phase == "announce" else len(deal.hand(s))) for s in range(n)
        )
        # A suit a seat has shown it is out of: it holds none of it but known cards.
        for other, suits in enumerate(view.voids):
            for suit in suits:
                assert deal.hand(other).of_suit(suit) <= view.known[other], (other, suit)
        assert view.legal_moves == (deal.legal_moves() if deal.turn == seat else ())
        history = tuple(
            (s, Move.HIDDEN if m.kind is MoveKind.HIDE and s != seat else m)
            for s, m in deal.history
        )
        assert view.history == history


@each_rules
@settings(FAST, max_examples=4)
@given(seed=SEEDS)
def test_a_view_never_shows_another_hand_or_the_hidden_band_card(rules, seed):
    deal, rng = new_deal(rules, seed)
    for _ in play_out(deal, rng):
        check_views(deal)
    check_views(deal)


@settings(FAST, max_examples=30)
@given(rules=option_rules(), seed=SEEDS)
def test_random_option_combinations(rules, seed):
    check_play(*new_deal(rules, seed))
    check_outcome(*new_deal(rules, seed))
    check_undo(*new_deal(rules, seed ^ 1))
    deal, rng = new_deal(rules, seed ^ 2)
    for _ in play_out(deal, rng):
        check_views(deal)


@settings(FAST, max_examples=10)
@given(
    rules=st.one_of(st.sampled_from(COVER), option_rules()), seed=SEEDS, dealer=st.integers(0, 7)
)
def test_the_same_seed_deals_the_same_deal(rules, seed, dealer):
    dealer %= rules.players
    a = Deal.new(rules, dealer, seed)
    b = Deal.new(rules, dealer, seed)
    assert a.dealt == b.dealt
    assert a.shown_card == b.shown_card
    again = Deal(rules, dealer, a.dealt, shown_card=a.shown_card)
    assert fingerprint(again) == fingerprint(a)
