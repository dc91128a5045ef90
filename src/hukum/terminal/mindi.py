"""Mindi in the terminal (``hukum play``) and the replay of a Mindi record (``hukum replay``),
drawn with Rich: the table, the narration of each move, trump as the seat may know it.

A card is typed in any notation (``10S``, ``TS``, ``10♠``, ``♠10``) or by its number in the
list; ``hide 10S``, ``reveal`` and ``announce S`` are the trump moves of band and announce
hukum (a lone card or suit is enough in those phases).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from hukum.cards import Card, CardParseError, CardSet, Suit
from hukum.mindi import PRESETS, Deal, Match, Move, MoveKind, Played, Reveal, Rules, View
from hukum.terminal.screen import Screen, numbered_move

__all__ = ["MindiScreen"]

#: Suits in the order a hand is shown: black and red alternate.
_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
_RED = (Suit.HEARTS, Suit.DIAMONDS)


def _card(card: Card, trump: bool = False) -> Text:
    style = "red" if card.suit in _RED else ""
    if trump:
        style += " bold"
    return Text(str(card), style=style.strip())


def _cards(cards: Sequence[Card] | CardSet, empty: str = "none") -> Text:
    items = list(cards)
    if not items:
        return Text(empty, style="dim")
    return Text(" ").join(_card(c) for c in items)


def _suit(suit: Suit) -> Text:
    return Text(suit.symbol, style="red" if suit in _RED else "")


def _by_display(cards: Sequence[Card] | CardSet) -> list[Card]:
    """Cards in display order: suits ♠ ♥ ♣ ♦, high ranks first."""
    return sorted(cards, key=lambda c: (_SUIT_ORDER.index(c.suit), -c.rank))


def _describe_rules(rules: Rules) -> str:
    """``preset classic`` plus the options that differ from it."""
    best_name, best_diff = "classic", rules.differences()
    for name, preset in PRESETS.items():
        diff = {k: v for k, v in rules.to_dict().items() if preset.to_dict()[k] != v}
        if len(diff) < len(best_diff):
            best_name, best_diff = name, diff
    text = f"preset {best_name}"
    if best_diff:
        text += " with " + ", ".join(f"{k}={_option_text(v)}" for k, v in best_diff.items())
    return text


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _option_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value)
    return str(value)


def _shown(card: Card) -> Text:
    """The card shown under open hukum (M-14) and the trump it makes."""
    return Text("The shown card is ") + _card(card) + Text(": ") + _suit(card.suit) + " is trump."


def _laid(card: Card) -> Text:
    """A card laid face down as the hidden trump (M-12): the card and its suit."""
    return _card(card) + Text(" face down: ") + _suit(card.suit)


def _draw(match: Match, who: Callable[[int], str]) -> Text:
    """The cards drawn for the first dealer (M-5) in seat order, each named by the seat of
    the player who drew it (``who``: ``seat 1``, ``you``), as everything else is."""
    draw = match.draw
    drawn = draw.rounds[0]
    return Text("Draw for the first dealer: ") + Text(", ").join(
        Text(f"{who(seat)} ") + _card(drawn[player]) for seat, player in enumerate(draw.seating)
    )


def _seat(seat: int) -> str:
    return f"seat {seat}"


@dataclass
class _Seen:
    """How much of a deal the human has been told about, to narrate only what is new."""

    history: int = 0
    tricks: int = 0
    revealed: bool = False
    trump_known: bool = False
    tens: tuple[int, int] = (0, 0)
    pile: int = 0


class MindiScreen(Screen[Match, Deal, View, Move]):
    """Mindi for one human seat: partners at the seats of the same parity (M-3)."""

    title = "Mindi"
    how_to_move = "Type a card to play it: 10S, TS, 10♠ or ♠10; or its number from the list."
    commands = (
        ("hide 10S", "band hukum: lay 10S face down as the hidden trump"),
        (
            "reveal",
            "band hukum, on request: ask for the face-down trump card\nwhen you cannot follow suit",
        ),
        ("announce S", "announce hukum: name the trump suit (S, H, D, C or ♠ ♥ ♦ ♣)"),
        ("last", "show the last trick"),
    )

    def __init__(self, match: Match, console: Console, seat: int | None = None) -> None:
        super().__init__(match, console, seat)
        self._seen = _Seen()

    @property
    def _team(self) -> int:
        """The human's team."""
        assert self.seat is not None
        return self.seat % 2

    def partners(self) -> set[int]:
        """The other seats of the human's team."""
        players = self.match.rules.players
        return {s for s in range(self._team, players, 2) if s != self.seat}

    # ----------------------------------------------------------------- flow

    def intro(self) -> None:
        """The rules and how the match ends, the human's team, the draw for dealer."""
        match, c = self.match, self.console
        rules = match.rules
        seats = sorted(self.partners())
        partners = (
            f"seat {seats[0]}, your partner"
            if len(seats) == 1
            else f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}, your partners"
        )
        if rules.target is not None and rules.deals is not None:
            end = f"ends at {rules.target} points or after {_plural(rules.deals, 'deal')}"
        elif rules.target is not None:
            end = f"is played to {rules.target} points"
        else:
            end = f"lasts {_plural(rules.deals or 0, 'deal')}"
        c.print(f"Rules: {_describe_rules(rules)}. The match {end}.")
        c.print(
            f"You are seat {self.seat}, on team {self._team} with {partners}. "
            f"Match seed {match.seed}."
        )
        draw = match.draw
        line = _draw(match, lambda s: self.who(s).lower())
        if len(draw.rounds) > 1:
            line += Text(f" (ties drawn again {len(draw.rounds) - 1}×)")
        c.print(line)
        if rules.draw_partnerships:
            c.print(
                "The draw made the teams (M-5): the higher half sits in the even seats, "
                "the lower half in the odd seats."
            )
        c.print(f"{self.who(draw.dealer)} deal{self.s(draw.dealer)} first.")
        c.print("Type help for the commands.")

    def start_deal(self, deal: Deal) -> None:
        """Who deals and leads, and how trump will be made."""
        assert self.seat is not None
        c = self.console
        view = deal.view(self.seat)
        self._seen = _Seen(trump_known=view.trump_known)
        rules = view.rules
        leader = rules.next_seat(view.dealer)
        c.print(
            f"{self.who(view.dealer)} deal{self.s(view.dealer)}; "
            f"{self.who(leader).lower()} lead{self.s(leader)} the first trick."
        )
        if rules.trump == "open" and view.shown_card is not None:
            c.print(_shown(view.shown_card))
        elif rules.trump == "band" and view.chooser is not None:
            c.print(
                f"{self.who(view.chooser)} choose{self.s(view.chooser)} the hidden trump: "
                "a card laid face down (M-12)."
            )
        elif rules.trump == "announce":
            c.print(
                f"{self.who(leader)} name{self.s(leader)} the trump suit "
                "after the first five cards."
            )

    def parse(self, text: str, view: View, numbered: Sequence[Move]) -> Move:
        """A number from the list, a move (``10S``, ``hide 10S``, ``announce S``,
        ``reveal``), or a lone card or suit when hiding or announcing."""
        if text.isdigit():
            return numbered_move(int(text), numbered)
        words = text.split()
        if len(words) == 1 and view.phase == "hide":
            try:
                return Move.hide(Card.parse(text))
            except CardParseError:
                pass
        if len(words) == 1 and view.phase == "announce":
            try:
                return Move.announce(Suit.parse(text))
            except CardParseError:
                pass
        return Move.parse(text)

    def command(self, word: str, view: View) -> bool:
        """``last``: show the last trick."""
        if word != "last":
            return False
        if not view.tricks:
            self.console.print("No trick has been completed yet.")
            return True
        trick = view.tricks[-1]
        line = Text(f"Last trick (trick {len(view.tricks)}): ")
        line += _trick_text(trick.plays, self.who)
        line += Text(f"; {self.who(trick.winner).lower()} won it.")
        self.console.print(line)
        return True

    def deal_over(self, deal: Deal) -> None:
        """The result, whether the human's team won, the match score."""
        c = self.console
        outcome = deal.outcome()
        assert outcome is not None
        c.print(Text(outcome.describe(), style="bold"))
        points = f"+{outcome.points} point{'s' if outcome.points != 1 else ''}"
        c.print(
            Text(f"Your team wins the deal ({points}).", style="green")
            if outcome.winner == self._team
            else Text(f"The other team wins the deal ({points}).", style="red")
        )
        c.print(self._score_line())

    def match_over(self) -> None:
        """The final score and whether the human's team won."""
        c = self.console
        a, b = self.match.scores
        winner = self.match.winner()
        c.print()
        c.rule(Text("Match over", style="bold"))
        if winner is None:
            c.print(f"The match ends level, {a}–{b}.")
        else:
            mine = "your team wins" if winner == self._team else "your team loses"
            c.print(f"Team {winner} wins the match {max(a, b)}–{min(a, b)}: {mine}.")

    # ----------------------------------------------------------------- what the human sees

    def _score_line(self) -> Text:
        a, b = self.match.scores
        rules = self.match.rules
        goal = [f"to {rules.target} points"] if rules.target is not None else []
        if rules.deals is not None:
            goal.append(f"{len(self.match.outcomes)} of {_plural(rules.deals, 'deal')} played")
        return Text(f"Match score: team 0 {a} – {b} team 1 ({'; '.join(goal)}).")

    def narrate(self, view: View) -> None:
        """Each move, each trick won, the pile taken, the tens held, trump turned up."""
        c, seen = self.console, self._seen
        for s, move in view.history[seen.history :]:
            who = self.who(s)
            if move.kind is MoveKind.PLAY:
                assert move.card is not None
                line = Text(f"{who} play{self.s(s)} ") + _card(move.card)
                if view.rules.trump == "cut" and view.trump_known and not seen.trump_known:
                    line += Text(f" and cut{self.s(s)}: ") + _suit(move.card.suit)
                    line += Text(" is trump now.", style="bold")
                    seen.trump_known = True
                c.print(line)
            elif move.kind is MoveKind.HIDE:
                if move.card is not None and s == self.seat:
                    c.print(Text("You lay ") + _laid(move.card) + " is trump, known only to you.")
                else:
                    c.print(f"{who} lays a card face down as the hidden trump.")
            elif move.kind is MoveKind.ANNOUNCE:
                assert move.suit is not None
                c.print(Text(f"{who} announce{self.s(s)} ") + _suit(move.suit) + " as trump.")
                seen.trump_known = True
            else:
                c.print(f"{who} ask{self.s(s)} for the face-down trump card.")
        seen.history = len(view.history)
        for number in range(seen.tricks, len(view.tricks)):
            trick = view.tricks[number]
            win = trick.winning_card
            line = Text(
                f"{self.who(trick.winner)} win{self.s(trick.winner)} trick {number + 1} with "
            )
            line += _card(win.card, win.trump)
            if win.trump:
                line += Text(" (trump)")
            line += Text(".")
            c.print(line)
        if view.rules.capture == "dehla" and len(view.tricks) > seen.tricks:
            pile = len(view.pile)
            if pile == 0:
                winner = view.tricks[-1].winner
                taken = seen.pile + self.match.rules.players * (len(view.tricks) - seen.tricks)
                c.print(f"{self.who(winner)} take{self.s(winner)} the pile: {taken} cards (M-10).")
            else:
                c.print(f"The cards stay in the pile: {pile} cards.")
            seen.pile = pile
        if len(view.tricks) > seen.tricks:
            seen.tricks = len(view.tricks)
            tens = (len(view.tens[0]), len(view.tens[1]))
            for team in (0, 1):
                if tens[team] > seen.tens[team]:
                    c.print(
                        Text(
                            f"Team {team} {'(yours) ' if team == self._team else ''}"
                            f"now holds {tens[team]} ten{'s' if tens[team] != 1 else ''}: "
                        )
                        + _cards(_by_display(view.tens[team]))
                    )
            seen.tens = tens
        if view.reveal is not None and not seen.revealed:
            seen.revealed = True
            seen.trump_known = True
            r = view.reveal
            why = _reveal_reason(r, view.chooser, view.hand_sizes[r.seat], self.who)
            c.print(
                Text(f"{why[0].upper()}{why[1:]}: the face-down card ")
                + _card(r.card)
                + Text(" is turned up; ")
                + _suit(r.card.suit)
                + Text(" is trump now.", style="bold")
            )

    def _trump_text(self, view: View) -> Text:
        rules = view.rules
        chooser = view.chooser
        if view.trump is not None and view.trump_known:
            text = Text("") + _suit(view.trump)
            if rules.trump == "open" and view.shown_card is not None:
                text += Text(" (the shown card ") + _card(view.shown_card) + Text(")")
            elif rules.trump == "band" and view.reveal is not None:
                text += Text(" (the face-down card ") + _card(view.reveal.card)
                text += Text(f", turned up in trick {view.reveal.trick + 1})")
            elif rules.trump == "cut":
                text += Text(" (cut)")
            elif rules.trump == "announce":
                text += Text(" (announced)")
            return text
        if view.face_down is not None and view.trump is not None:
            return (
                Text("")
                + _suit(view.trump)
                + Text(" — your face-down card ")
                + _card(view.face_down)
                + Text(", hidden from the others")
            )
        if rules.trump == "band" and chooser is not None:
            if view.phase == "hide":
                return Text(f"face down, to be chosen by {self.who(chooser).lower()}")
            when = (
                "a void player may ask for it"
                if rules.reveal == "on_request"
                else "turned up at the first void"
            )
            return Text(f"face down (laid by {self.who(chooser).lower()}); {when}")
        if rules.trump == "announce":
            return Text("not announced yet")
        return Text("not set yet: the first player who cannot follow suit sets it")

    def show(self, view: View) -> list[Move]:
        """Trump, the teams' tricks and tens, the trick on the table, the numbered hand."""
        c = self.console
        rules = view.rules
        c.print()
        trick_no = len(view.tricks) + 1
        c.rule(
            Text(
                f"Deal {len(self.match.deals)} · trick {min(trick_no, rules.hand_size)} of "
                f"{rules.hand_size} · you are seat {self.seat}"
            ),
            style="dim",
        )
        c.print(Text("Trump:   ") + self._trump_text(view))
        for team in (0, 1):
            seats = ", ".join(str(s) for s in range(rules.players) if s % 2 == team)
            tag = " (yours)" if team == self._team else ""
            won = view.tricks_won[team]
            line = Text(
                f"Team {team}{tag}, seats {seats}: {won} trick{'s' if won != 1 else ''}, tens "
            )
            c.print(line + _cards(_by_display(view.tens[team])))
        if rules.capture == "dehla":
            c.print(
                Text(f"Pile:    {len(view.pile)} cards, tens ")
                + _cards(_by_display(CardSet(card for card in view.pile if card.rank == 10)))
            )
        c.print(self._score_line())
        if view.trick:
            c.print(Text(f"Trick {trick_no}: ") + _trick_text(view.trick, self.who))
        elif view.phase == "play":
            c.print(Text(f"Trick {trick_no}: you lead."))
        legal = list(view.legal_moves)
        numbered: list[Move] = []
        playable: dict[Card, int] = {}
        card_moves = {m.card: m for m in legal if m.card is not None}
        for card in _by_display(view.hand):
            if card in card_moves:
                numbered.append(card_moves[card])
                playable[card] = len(numbered)
        if view.phase == "announce":
            c.print(Text("Your first five cards:"))
        else:
            c.print(Text(f"Your hand ({_plural(len(view.hand), 'card')}):"))
        for suit in _SUIT_ORDER:
            cards = _by_display(view.hand.of_suit(suit))
            if not cards:
                continue
            line = Text("  ") + _suit(suit) + Text("  ")
            parts = []
            for card in cards:
                if card in playable:
                    parts.append(Text.assemble((f"[{playable[card]}] ", "cyan"), _card(card)))
                else:
                    parts.append(Text(str(card), style="dim"))
            c.print(line + Text("  ").join(parts))
        if view.face_down is not None:
            c.print(Text("  Face down: ") + _card(view.face_down) + Text(" (your hidden trump)"))
        announce = Text("Announce trump:")
        for move in legal:
            if move.card is not None:
                continue
            numbered.append(move)
            number = Text(f"[{len(numbered)}] ", style="cyan")
            if move.kind is MoveKind.ANNOUNCE:
                assert move.suit is not None
                announce += Text("  ") + number + _suit(move.suit)
            else:
                c.print(Text("  ") + number + Text("reveal: ask for the face-down trump card"))
        if view.phase == "announce":
            c.print(announce)
        if view.phase == "hide":
            c.print("Choose a card to lay face down: its suit will be trump.")
        return numbered

    # ----------------------------------------------------------------- replay

    def replay_intro(self) -> None:
        """The rules, the seed and the draw."""
        c, match = self.console, self.match
        c.print(f"Rules: {_describe_rules(match.rules)}.")
        c.print(f"Match seed {match.seed}.")
        c.print(_draw(match, _seat) + Text(f"; seat {match.draw.dealer} deals first."))

    def replay_deal(self, deal: Deal, number: int) -> None:
        """The hands as dealt, how trump was made, a table of the tricks, the result."""
        c = self.console
        rules = deal.rules
        n = rules.players
        seed = f", seed {deal.seed}" if deal.seed is not None else ", hands given"
        c.rule(Text(f"Deal {number} · seat {deal.dealer} deals{seed}", style="bold"))
        hands = Table(show_header=False, box=None, padding=(0, 1))
        for seat, hand in enumerate(deal.dealt):
            hands.add_row(f"Seat {seat}", _cards(_by_display(hand)))
        c.print(Text("Hands as dealt:"))
        c.print(hands)
        # Replay the deal move by move to tell when trump was set and what each trick took.
        sim = Deal(rules, deal.dealer, deal.dealt, shown_card=deal.shown_card, seed=deal.seed)
        if deal.shown_card is not None:
            c.print(_shown(deal.shown_card))
        table = Table(box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False)
        table.add_column("trick", justify="right")
        table.add_column("led", justify="right")
        for seat in range(n):
            table.add_column(f"s{seat}", no_wrap=True)
        table.add_column("won", justify="right")
        table.add_column("notes")
        notes: list[Text] = []
        for seat, move in deal.history:
            trump_known = sim.trump_known
            revealed = sim.reveal is not None
            done = len(sim.tricks)
            held = sum(len(x) for x in sim.captured)
            sim.push(move, seat=seat)
            if move.kind is MoveKind.HIDE:
                assert move.card is not None
                c.print(Text(f"Seat {seat} lays ") + _laid(move.card) + " is the hidden trump.")
            elif move.kind is MoveKind.ANNOUNCE:
                assert move.suit is not None
                c.print(Text(f"Seat {seat} announces ") + _suit(move.suit) + Text(" as trump."))
            elif move.kind is MoveKind.REVEAL:
                notes.append(Text(f"s{seat} asks for the trump"))
            elif rules.trump == "cut" and sim.trump_known and not trump_known:
                assert move.card is not None
                notes.append(Text("cut: ") + _suit(move.card.suit) + Text(" is trump"))
            if sim.reveal is not None and not revealed:
                r = sim.reveal
                why = _reveal_reason(r, sim.chooser, len(sim.hand(r.seat)), lambda s: f"s{s}")
                notes.append(Text("face-down ") + _card(r.card) + Text(f" turned up: {why}"))
            if len(sim.tricks) > done:
                trick = sim.tricks[-1]
                taken = sum(len(x) for x in sim.captured) - held
                if rules.capture == "dehla" and taken:
                    notes.append(Text(f"s{trick.winner} takes the pile: {taken} cards"))
                tens = [p.card for p in trick.plays if p.card.rank == 10]
                if tens and rules.capture != "dehla":
                    notes.append(_cards(tens) + Text(f" to team {trick.winner % 2}"))
                _trick_row(table, len(sim.tricks), trick.plays, trick.winner, n, notes)
                notes = []
        if sim.trick:
            _trick_row(table, len(sim.tricks) + 1, sim.trick, None, n, notes)
        if table.row_count:
            c.print(table)
            c.print(
                Text(
                    "Cards by seat (s0 = seat 0); led and won give seats; * counted as a trump.",
                    style="dim",
                )
            )
        outcome = sim.outcome()
        if outcome is None:
            c.print(Text(f"Deal in progress after {len(deal.moves)} moves.", style="bold"))
        else:
            c.print(Text(outcome.describe(), style="bold") + Text(f" (+{outcome.points})"))

    def replay_end(self) -> None:
        """The match score, and who won if it is over."""
        match = self.match
        a, b = match.scores
        winner = match.winner()
        self.console.print()
        if match.is_over():
            self.console.print(
                Text(f"Match over: team 0 {a} – {b} team 1. ", style="bold")
                + Text("Level." if winner is None else f"Team {winner} wins the match.")
            )
        else:
            self.console.print(Text(f"Match in progress: team 0 {a} – {b} team 1.", style="bold"))


def _reveal_reason(
    reveal: Reveal, chooser: int | None, hand_size: int, who: Callable[[int], str]
) -> str:
    """Why the face-down card was turned up (M-12), from public facts: after the turn-up
    the chooser holds it again, so a chooser with just that card had no other."""
    name = who(reveal.seat)
    if reveal.asked:
        return f"{name} asked for it"
    if reveal.seat == chooser and hand_size == 1:
        return f"{name} had no other card to play"
    return f"{name} cannot follow suit"


def _trick_text(plays: Sequence[Played], who: Callable[[int], str]) -> Text:
    parts = []
    for i, p in enumerate(plays):
        part = Text(f"{who(p.seat)} ") + _card(p.card, p.trump)
        notes = (["led"] if i == 0 else []) + (["trump"] if p.trump else [])
        if notes:
            part += Text(f" ({', '.join(notes)})")
        parts.append(part)
    return Text(", ").join(parts)


def _trick_row(
    table: Table,
    number: int,
    plays: Sequence[Played],
    winner: int | None,
    players: int,
    notes: list[Text],
) -> None:
    cells: list[Text] = [Text("") for _ in range(players)]
    for p in plays:
        cell = _card(p.card, p.trump)
        if p.trump:
            cell += Text("*")
        cells[p.seat] = cell
    table.add_row(
        str(number),
        str(plays[0].seat),
        *cells,
        str(winner) if winner is not None else "…",
        Text("; ").join(notes),
    )
