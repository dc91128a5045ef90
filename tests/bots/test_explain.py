"""The one-line reason of a hint (:mod:`hukum.bots.explain`, :mod:`hukum.bots.ganjifa.explain`)
and the games' :meth:`~hukum.game.WebFacet.suggest`: positions with their expected lines,
and over whole deals of every trump method, a line for every legal move that names only
cards the seat has seen (M-20, G-11)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import pytest

from hukum.bots.explain import explain, position
from hukum.bots.ganjifa.explain import explain as explain_ganjifa
from hukum.cards import Card, Suit
from hukum.games import game_named
from hukum.mindi import Deal, Move, Played, Rules, Trick, View
from tests.mindi.helpers import VARIANTS

SYMBOL_CARD = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
GANJIFA_CARD = re.compile(r"\b(Ma|Ku|Vr|Na|Vm|Pa|Ra|Kr|Bu|Ka)(10|[1-9]|M|R)\b")


def named_mindi(text: str) -> set[str]:
    """The Mindi cards a line names (``10♦`` as ``10D``)."""
    return {rank + LETTER[suit] for rank, suit in SYMBOL_CARD.findall(text)}


def seen_mindi(view: View) -> set[str]:
    """The cards a Mindi seat has seen: its hand, every card played, its own face-down card,
    the shown card and the turned-up trump card."""
    seen = set(view.hand.codes())
    seen |= {p.card.code for t in view.tricks for p in t.plays}
    seen |= {p.card.code for p in view.trick}
    for card in (view.face_down, view.shown_card, view.reveal.card if view.reveal else None):
        if card is not None:
            seen.add(card.code)
    return seen


def test_the_cards_named_are_found() -> None:
    """The check below has teeth: a line naming a card is read as naming it."""
    assert named_mindi("keeps the 10♦ safe: partner's A♠ wins") == {"10D", "AS"}
    assert GANJIFA_CARD.findall("beats RaM with Ra10, the lowest") == [("Ra", "M"), ("Ra", "10")]


def seat(
    n: int, hand: str, trick: list[tuple[int, str]], trump: str | None = None, **kw: Any
) -> View:
    return position(Rules(), n, hand, trick, trump, **kw)


def trick_of(leader: int, cards: str) -> Trick:
    """A completed trick led by ``leader`` (won by the leader: the tests need only its cards)."""
    plays = tuple(
        Played((leader + i) % 4, Card.parse(c), False) for i, c in enumerate(cards.split())
    )
    return Trick(leader, plays, leader)


@pytest.mark.parametrize(
    ("view", "move", "line"),
    [
        (  # M-9: partner's ace already stands; the last card of the trick
            seat(3, "10D 4D 9C", [(0, "QD"), (1, "AD"), (2, "5D")]),
            "10D",
            "partner's A♦ wins the trick: the 10♦ goes to your team",
        ),
        (
            seat(2, "10D 4D 9C", [(0, "AD"), (1, "JD")]),
            "10D",
            "partner's A♦ is the highest ♦ left: adds the 10♦ to it",
        ),
        (  # the opponents win, and no partner plays after: keep the ten
            seat(2, "10D 4D 9C", [(0, "QD"), (1, "AD")]),
            "4D",
            "keeps the 10♦ safe: the trick is lost, so the lowest card, the 4♦",
        ),
        (  # partner plays after: the trick is not lost yet
            seat(1, "10D 4D 9C", [(0, "AD")]),
            "4D",
            "you cannot beat the A♦, and partner plays after you: plays the 4♦, "
            "your lowest ♦, keeping the 10♦ safe",
        ),
        (  # M-9, M-13: a trump beats the led suit
            seat(3, "3S 8S 9C", [(0, "QD"), (1, "10D"), (2, "AD")], "S"),
            "3S",
            "cuts with the 3♠, your lowest trump: the trick and the 10♦ go to your team",
        ),
        (
            seat(2, "3S 8S 9C", [(0, "QD"), (1, "5S")], "S"),
            "8S",
            "cuts over the 5♠ with the 8♠, the lowest trump that beats it: takes the lead",
        ),
        (  # M-11: cut hukum, trump not set yet: the first card off the led suit sets it
            seat(1, "3S 8S 9C", [(0, "QD")]),
            "3S",
            "cuts with the 3♠, which makes ♠ trump: takes the lead",
        ),
        (
            seat(1, "KD 8D 9C", [(0, "QD")]),
            "KD",
            "the K♦ is your only card that beats the Q♦: takes the lead",
        ),
        (
            seat(3, "KD 8D AD", [(0, "QD"), (1, "JD"), (2, "10D")]),
            "KD",
            "beats the Q♦ with the K♦, the lowest card that does: "
            "the trick and the 10♦ go to your team",
        ),
        (
            seat(2, "KD 9C", [(0, "QD"), (1, "JD")]),
            "KD",
            "the K♦ is your only ♦, and you must follow suit",
        ),
        (
            seat(1, "KS 5S 9C 10H", [], tricks=[trick_of(0, "AS 2S 3S 4S")]),
            "KS",
            "leads the K♠: the A♠ has been played, so it is the highest ♠ left",
        ),
        (seat(1, "KS AS 9C 10H", []), "KS", "leads the K♠: no one else holds a higher ♠"),
        (seat(1, "AH 9C 10H", [], "H"), "AH", "leads a trump, the A♥: the highest ♥"),
        (
            seat(0, "5C 9C 10H", [], "H", voids=[(), (), {Suit.CLUBS}, ()]),
            "5C",
            "leads ♣, which your partner has shown to be out of: partner may cut",
        ),
        (seat(0, "KD 4D 9C", []), "4D", "leads the 4♦, your lowest ♦, keeping the higher ones"),
        (
            seat(0, "KD 4D 9C 10S", []),
            "KD",
            "leads the K♦: the move that did best when many possible deals were played out",
        ),
    ],
)
def test_a_card_played_with_its_reason(view: View, move: str, line: str) -> None:
    assert explain(view, Move.parse(move)) == line
    assert named_mindi(line) <= seen_mindi(view)


def test_the_face_down_trump_and_the_announced_suit() -> None:
    """M-12, M-15: the chooser's card and the announced suit, from the hand alone."""
    band = Deal.new(Rules.preset("hidden"), dealer=3, seed=1).view(0)
    assert band.phase == "hide"
    assert str(band.hand) == "3♣ 4♣ 8♣ J♣ A♣ 9♦ J♦ 8♥ K♥ 5♠ 8♠ Q♠ K♠"
    assert explain(band, Move.hide("3C")) == (
        "lays the 3♣ face down: ♣ becomes trump, your longest suit (5 cards, with the A♣ "
        "and the J♣); the higher ones stay in your hand"
    )
    assert explain(band, Move.hide("KS")) == (
        "lays the K♠ face down: ♠ becomes trump, you hold 4 of them, with the K♠ and the Q♠"
    )
    announce = Deal.new(Rules.preset("dehla-pakad"), dealer=3, seed=1).view(0)
    assert announce.phase == "announce"
    assert str(announce.hand) == "4♣ J♣ J♦ K♥ Q♠"  # the first five cards (M-15)
    assert explain(announce, Move.announce("C")) == (
        "announces ♣ as trump: in your first five cards, your longest suit (2 cards, with the J♣)"
    )
    two = position(Rules(), 0, "9S 4S AH 4H 6C", [])
    assert explain(two, Move.announce("H")) == (
        "announces ♥ as trump: in your first five cards, one of your longest suits (2 cards, "
        "with the A♥)"
    )


def reveal_view() -> View:
    """A view of a seat that may ask for the face-down trump (band hukum, on_request)."""
    rules = Rules.preset("hidden", reveal="on_request")
    for seed in range(50):
        deal = Deal.new(rules, dealer=3, seed=seed)
        bot = game_named("mindi").make_bot("rules")
        while deal.turn is not None:
            view = deal.view(deal.turn)
            if Move.REVEAL_TRUMP in view.legal_moves:
                return view
            deal.push(bot.choose(view))
    raise AssertionError("no deal gave a seat the choice to ask for trump")


def test_asking_for_the_trump() -> None:
    view = reveal_view()
    led = view.trick[0].card.suit
    line = explain(view, Move.REVEAL_TRUMP)
    assert line.startswith(f"asks for the trump to be turned up: you cannot follow {led}")
    assert named_mindi(line) <= seen_mindi(view)


@pytest.mark.parametrize(("preset", "options"), VARIANTS)
def test_every_legal_move_has_a_line_naming_only_cards_seen(
    preset: str, options: dict[str, Any]
) -> None:
    spec = game_named("mindi")
    web = spec.web
    assert web is not None
    rules = spec.make_rules(preset, options)
    bot = spec.make_bot("rules")
    lines = 0
    for seed in range(4):
        deal = spec.new_deal(rules, seed % rules.players, seed)
        while not deal.is_over():
            view = deal.view(deal.turn)
            seen = seen_mindi(view)
            for move in view.legal_moves:
                line = web.explain(view, move)
                assert line and "\n" not in line and len(line) < 160, line
                assert named_mindi(line) <= seen, (line, sorted(seen))
                lines += 1
            deal.push(bot.choose(view))
    assert lines > 100


def names_ganjifa(text: str) -> set[str]:
    return {s + r for s, r in GANJIFA_CARD.findall(text)}


def test_ganjifa_lines_name_only_cards_seen() -> None:
    spec = game_named("ganjifa")
    bot = spec.make_bot("rules")
    kinds: set[str] = set()
    for seed in range(3):
        deal = spec.new_deal(spec.make_rules(), seed % 3, seed)
        while not deal.is_over():
            view = deal.view(deal.turn)
            seen = set(view.hand.codes) | {
                c.code for t in view.tricks for p in t.plays for c in p.move.cards
            }
            seen |= {c.code for p in view.trick for c in p.move.cards}
            moves: Iterable[Any] = (
                [bot.choose(view)] if view.phase == "answer" else view.legal_moves
            )
            for move in moves:
                line = explain_ganjifa(view, move)
                assert line and "\n" not in line, line
                assert names_ganjifa(line) <= seen, (line, view.seat)
                kinds.add(line.split(" ")[0])
            deal.push(bot.choose(view))
    assert {"leads", "the"} <= kinds  # leads, Dukals given up to ("the Dukal takes ...")


@pytest.mark.parametrize("game", ["mindi", "ganjifa"])
def test_a_suggestion_is_the_strongest_bots_legal_move_and_repeats(game: str) -> None:
    spec = game_named(game)
    web = spec.web
    assert web is not None
    assert web.hint_bot == spec.bots[-1]  # the strongest (bots are listed weakest first)
    deal = spec.new_match(spec.make_rules(), seed=5).start_deal()
    for _ in range(3):
        deal.push(deal.legal_moves()[0])
    view = deal.view(deal.turn)
    move, why = web.suggest(view, seed=9)
    assert move in view.legal_moves
    assert why == web.explain(view, move)
    assert web.suggest(view, seed=9) == (move, why)
