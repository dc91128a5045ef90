"""Dashavatara Ganjifa in the terminal (``hukum play --game ganjifa``) and the replay of a
Ganjifa record (``hukum replay``), drawn with Rich.

A card is typed in its notation (``Ma1``, ``RaR``) or by its number in the list; a Dukal as
``dukal Ra3 Ra4 Ra5`` (or its number); an answer to a Dukal as the k cards, each by its
notation or its number (every card of the hand is numbered then), with or without ``give``
in front: ``1 5 9``, ``give Ma10 Ku9 Ka1``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from hukum.games import spec_of
from hukum.ganjifa import (
    PLAYERS,
    Card,
    CardParseError,
    CardSet,
    Deal,
    Draw,
    InvalidMoveError,
    Match,
    Move,
    MoveKind,
    Outcome,
    Played,
    Suit,
    View,
)
from hukum.terminal.screen import Screen, numbered_move

__all__ = ["GanjifaScreen"]

# One colour per avatar suit, so that suits are told apart at a glance.
_COLOURS = (
    "cyan",
    "green",
    "magenta",
    "yellow",
    "blue",
    "red",
    "bright_red",
    "bright_blue",
    "bright_white",
    "bright_yellow",
)


def _card(card: Card, trump: Suit | None = None) -> Text:
    style = _COLOURS[card.suit]
    if card.suit == trump:
        style += " bold underline"
    return Text(card.code, style=style)


def _cards(cards: Sequence[Card] | CardSet, trump: Suit | None = None) -> Text:
    return Text(" ").join(_card(c, trump) for c in cards)


def _move_text(move: Move, trump: Suit | None = None) -> Text:
    if move.kind is MoveKind.PLAY:
        return _card(move.card, trump)
    return Text(f"{move.kind.value} ") + _cards(move.cards, trump)


def _in_order(cards: CardSet) -> list[Card]:
    """Cards as shown: avatar order, strongest first within a suit."""
    return sorted(cards, key=lambda c: (c.suit, -c.power))


def _trick_text(plays: Sequence[Played], who: Callable[[int], str], trump: Suit) -> Text:
    return Text(", ").join(Text(f"{who(p.seat)} ") + _move_text(p.move, trump) for p in plays)


def _seat(seat: int) -> str:
    return f"seat {seat}"


def _seats(seats: Sequence[int]) -> str:
    """``seats 1 and 2``, ``seats 0, 1 and 2``."""
    *rest, last = (str(s) for s in seats)
    return f"seats {', '.join(rest)} and {last}"


def _draw(draw: Draw) -> Text:
    """The draw for the first dealer (G-4), every round of it: who drew which card, and
    which seats tied for the highest and drew again."""
    text = Text("Draw for the first dealer: ")
    players = list(range(PLAYERS))
    tied: list[int] = []
    for cards in draw.rounds:
        if tied:
            again = "they tie again" if tied == players else f"{_seats(tied)} tie and draw again"
            text += Text(f"; {again}: ")
            players = tied
        drawn = list(zip(players, cards, strict=True))
        text += Text(", ").join(Text(f"{_seat(p)} ") + _card(card) for p, card in drawn)
        top = max(card.power for card in cards)
        tied = [p for p, card in drawn if card.power == top]
    return text


#: The Dukal option in words (G-9).
_DUKALS = {
    "run": "a run of 3 or more cards of a suit",
    "royal_run": "Raja, Mantri and a run of 3 or more numerals of a suit",
    "either": "Raja with Mantri, or a run of 3 or more numerals of a suit",
}

#: The void rule in words (G-7).
_VOIDS = {
    "choice": "may play a trump or a card of the next suit they hold",
    "trump_first": "must play a trump if they hold one, else a card of the next suit they hold",
}


def _rules_text(match: Match) -> str:
    """The rules as people read them: the preset and the options changed from it, then
    what they mean (the trump, what a Dukal is, what a void player may play)."""
    spec, rules = spec_of(match), match.rules
    changed = spec.describe_rules(rules)
    time = "day: Rama is trump" if rules.time == "day" else "night: Krishna is trump"
    return (
        f"Rules: preset {spec.default_preset}{f' with {changed}' if changed else ''}. "
        f"It is {time}. A Dukal is {_DUKALS[rules.dukal]}; a player void in the led suit "
        f"{_VOIDS[rules.void_rule]}."
    )


class GanjifaScreen(Screen[Match, Deal, View, Move]):
    """Dashavatara Ganjifa for one human seat against two others, each for themselves."""

    title = "Dashavatara Ganjifa"
    how_to_move = (
        "Type a card to play it (Ma1, Ka10, KrM, RaR; suits Ma Ku Vr Na Vm Pa Ra Kr Bu Ka) "
        "or its number."
    )
    commands = (
        ("dukal Ra3 Ra4 Ra5", "lead a Dukal (or its number)"),
        (
            "give Ma10 Ku9 Ka1",
            "give up k cards to a Dukal: the cards or their numbers\n"
            "(give 1 5 9; the word give may be left out)",
        ),
    )

    def __init__(self, match: Match, console: Console, seat: int | None = None) -> None:
        super().__init__(match, console, seat)
        self._told = 0
        self._tricks = 0

    def intro(self) -> None:
        """The rules (which avatar is trump, what a Dukal is), the draw for dealer."""
        c = self.console
        c.print(
            "Three players, each for themselves; 120 cards, 40 each; the most cards captured wins."
        )
        c.print(_rules_text(self.match))
        dealer = self.match.draw.dealer
        c.print(
            _draw(self.match.draw)
            + Text(f"; {self.who(dealer).lower()} deal{self.s(dealer)} first.")
        )
        c.print(f"You are seat {self.seat}. Match seed {self.match.seed}. Type help for help.")

    def start_deal(self, deal: Deal) -> None:
        """Who holds the trump Raja and leads it (G-6)."""
        self._told = self._tricks = 0
        first = deal.turn
        assert first is not None
        self.console.print(
            Text(f"{self.who(first)} hold{self.s(first)} the ")
            + _card(Card.of(deal.trump, "R"), deal.trump)
            + Text(f" and lead{self.s(first)} it (G-6).")
        )

    def narrate(self, view: View) -> None:
        """The moves made since the last call, and who took each trick."""
        c = self.console
        trump = view.trump
        for seat, move in view.history[self._told :]:
            who = self.who(seat)
            if move.kind is MoveKind.DUKAL:
                c.print(Text(f"{who} lead{self.s(seat)} a Dukal: ") + _cards(move.cards, trump))
            elif move.kind is MoveKind.GIVE:
                c.print(Text(f"{who} give{self.s(seat)} up ") + _cards(move.cards, trump))
            else:
                c.print(Text(f"{who} play{self.s(seat)} ") + _card(move.card, trump))
        self._told = len(view.history)
        for trick in view.tricks[self._tricks :]:
            w = trick.winner
            scores = "–".join(str(s) for s in view.scores)
            c.print(
                Text(
                    f"  {self.who(w)} take{self.s(w)} {len(trick.cards)} cards "
                    f"(captured so far {scores}).",
                    style="dim",
                )
            )
        self._tricks = len(view.tricks)

    def show(self, view: View) -> list[Move]:
        """Trump, the cards captured, the trick on the table, the numbered hand and Dukals."""
        c = self.console
        trump = view.trump
        c.print()
        sizes = ", ".join(f"{self.who(s).lower()} {n}" for s, n in enumerate(view.hand_sizes))
        scores = ", ".join(f"{self.who(s).lower()} {n}" for s, n in enumerate(view.scores))
        c.rule(Text(f"Trump {trump.avatar} · cards captured: {scores}"), style="dim")
        c.print(f"Cards in hand: {sizes}.")
        if view.trick:
            c.print(Text("On the table: ") + _trick_text(view.trick, self.who, trump))
        # The cards that may be played, numbered; when answering a Dukal, every card (the
        # move of a number is then the play of its card: the answer is made of such cards).
        numbered: list[Move] = []
        number: dict[Card, int] = {}
        playable = view.hand if view.phase == "answer" else view.allowed
        for card in _in_order(view.hand):
            if card in playable:
                numbered.append(Move.play(card))
                number[card] = len(numbered)
        c.print(Text(f"Your hand ({len(view.hand)}):"))
        for suit in Suit:
            cards = _in_order(view.hand.suit(suit))
            if not cards:
                continue
            parts = []
            for card in cards:
                tag = f"[{number[card]}] " if card in number else ""
                parts.append(Text(tag, style="cyan") + _card(card, trump))
            c.print(Text(f"  {suit.avatar:<12}") + Text("  ").join(parts))
        for m in view.legal_moves:
            if m.kind is MoveKind.DUKAL:
                numbered.append(m)
                c.print(Text(f"  [{len(numbered)}] ", style="cyan") + _move_text(m, trump))
        if view.phase == "answer":
            k = view.dukal
            example = numbered[:k]
            c.print(
                f"Give up {k} cards of your choice to the Dukal (G-9): type their numbers or "
                f"the cards, e.g. {' '.join(str(n) for n in range(1, k + 1))} or "
                f"{' '.join(str(m.card) for m in example)}."
            )
        elif view.phase == "lead":
            c.print("You lead." if len(view.legal_moves) > 1 else "You lead the trump Raja.")
        return numbered

    def prompt(self, view: View) -> str:
        """What is asked: a move, or the k cards of an answer to a Dukal."""
        if view.phase == "answer":
            return f"Give up {view.dukal} cards (numbers or cards; help): "
        return super().prompt(view)

    def parse(self, text: str, view: View, numbered: Sequence[Move]) -> Move:
        """A number from the list, a card, a Dukal (several cards when leading) or an answer
        (k cards, each by its number or notation, when answering a Dukal)."""
        words = text.replace(",", " ").split()
        if words and words[0].lower() in ("give", "dukal", "play"):
            verb, words = words[0].lower(), words[1:]
        else:
            verb = "give" if view.phase == "answer" else ""
        if verb == "give":
            if view.phase == "answer" and len(words) != view.dukal:
                raise InvalidMoveError(
                    f"give up exactly {view.dukal} cards to the Dukal, not {len(words)} (G-9)",
                    rule_ids=("G-9",),
                )
            return Move.give([self._card(w, text, numbered) for w in words])
        if len(words) == 1 and words[0].isdigit():
            return numbered_move(int(words[0]), numbered)
        cards = [self._card(w, text) for w in words]
        if len(cards) > 1 or verb == "dukal":
            return Move.dukal(cards)
        if len(cards) == 1:
            return Move.play(cards[0])
        raise InvalidMoveError(f"not a move: {text!r}")

    @staticmethod
    def _card(word: str, text: str, numbered: Sequence[Move] = ()) -> Card:
        """The card a word of ``text`` names: its notation, or (given ``numbered``) the
        number of a card in the list."""
        if word.isdigit() and numbered:
            move = numbered_move(int(word), numbered)
            if move.kind is not MoveKind.PLAY:
                raise InvalidMoveError(f"number {word} is a {move.kind.value}, not a card")
            return move.card
        try:
            return Card.parse(word)
        except CardParseError as e:
            raise InvalidMoveError(f"not a move: {text!r} ({e})") from None

    def deal_over(self, deal: Deal) -> None:
        """The result and whether the human won, lost or shared the win."""
        outcome = deal.outcome()
        assert outcome is not None
        mine = "You win" if self.seat in outcome.winners else "You lose"
        if outcome.shared and self.seat in outcome.winners:
            mine = "You share the win"
        self.console.print(Text(f"{outcome.describe()}. {mine}.", style="bold"))

    def match_over(self) -> None:
        """The cards captured over a match of several deals, and the winners."""
        if self.match.rules.deals == 1:
            return
        # As a deal's result: the winners' cards first (Outcome.describe).
        result = Outcome.of(self.match.scores).describe()
        self.console.print(Text(f"Match over: {result}.", "bold"))

    def replay_intro(self) -> None:
        """The rules, the seed and the draw for the first dealer."""
        c, match = self.console, self.match
        c.print(_rules_text(match))
        c.print(f"Match seed {match.seed}.")
        c.print(_draw(match.draw) + Text(f"; seat {match.draw.dealer} deals first."))

    def replay_deal(self, deal: Deal, number: int) -> None:
        """The hands as dealt, each trick and who took it, the result."""
        c = self.console
        c.rule(Text(f"Deal {number}: seat {deal.dealer} deals", style="bold"))
        for seat, hand in enumerate(deal.dealt):
            c.print(Text(f"Seat {seat}: ") + _cards(_in_order(CardSet(hand)), deal.trump))
        for i, trick in enumerate(deal.tricks, start=1):
            c.print(
                Text(f"{i:>2}. ")
                + _trick_text(trick.plays, _seat, deal.trump)
                + Text(f" → seat {trick.winner} takes {len(trick.cards)}")
            )
        if deal.trick:
            c.print(Text("In progress: ") + _trick_text(deal.trick, _seat, deal.trump))
        outcome = deal.outcome()
        c.print(outcome.describe() if outcome is not None else "The deal is in progress.")

    def replay_end(self) -> None:
        """The cards captured, for a finished match of several deals."""
        match = self.match
        if match.is_over() and match.rules.deals > 1:
            self.console.print(f"Match: {'–'.join(str(s) for s in match.scores)} cards.")
