"""The ``hukum`` command: the web app, Mindi in the terminal, records, arena, bench.

::

    hukum serve [--host H] [--port P] [--database-url URL] [--bot-delay S]
    hukum play [--preset NAME] [--option KEY=VALUE ...] [--seed N] [--seat N] [--deals N]
               [--partner BOT] [--opponents BOT] [--record FILE]
    hukum play --game ganjifa [--option KEY=VALUE ...] [--seed N] [--seat N] [--opponents BOT]
    hukum arena --game ganjifa BOT_A BOT_B [--deals N] [--rule KEY=VALUE ...]
    hukum replay FILE
    hukum solve RECORD [--deal N] [--tricks K]
    hukum arena BOT_A BOT_B [--deals N] [--preset NAME] [--workers N] [--records DIR]
    hukum verify --seed S --commitment C --dealer D [--preset NAME]
    hukum bench [--preset NAME | --all-presets] [--deals N] [--seconds S]
    hukum bench --solver [--tricks N] [--deals N] [--trump known|cut|both] [--max-nodes N]
    hukum --version

Mistakes a user can make (an unknown option, a bad record file) end with a message on
stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from hukum import __version__, bench, ganjifa, records
from hukum.bots import BOT_NAMES, BotError, make_bot
from hukum.cards import Card, CardParseError, CardSet, Suit
from hukum.mindi import (
    PRESETS,
    Deal,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    Move,
    MoveKind,
    Outcome,
    Played,
    Reveal,
    Rules,
    RulesError,
    View,
)
from hukum.records import RecordError

__all__ = ["Chooser", "TerminalGame", "main"]

#: A computer player: given its seat's view, one of ``view.legal_moves``.
#: A :class:`hukum.bots.Bot`'s ``choose`` method fits.
Chooser = Callable[[View], Move]

#: Suits in the order a hand is shown: black and red alternate.
_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
_RED = (Suit.HEARTS, Suit.DIAMONDS)


class UsageError(Exception):
    """A mistake in the command line, reported on stderr with exit code 2."""


# ---------------------------------------------------------------------------- text helpers


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


def _parse_option(text: str) -> tuple[str, Any]:
    """``key=value`` from the command line, the value as a bool, None, int, list or string."""
    key, sep, value = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or not key:
        raise UsageError(f"--option {text!r}: write key=value, e.g. --option must_trump=true")
    v = value.strip()
    low = v.lower()
    if low in ("true", "yes", "on"):
        return key, True
    if low in ("false", "no", "off"):
        return key, False
    if low in ("none", "null", ""):
        return key, None
    try:
        if "," in v:
            return key, tuple(int(p) for p in v.split(","))
        return key, int(v)
    except ValueError:
        return key, v


# ---------------------------------------------------------------------------- the game


@dataclass
class _Seen:
    """How much of a deal the human has been told about, to narrate only what is new."""

    history: int = 0
    tricks: int = 0
    revealed: bool = False
    trump_known: bool = False
    tens: tuple[int, int] = (0, 0)
    pile: int = 0


class _Quit(Exception):
    """The human typed ``quit``, or the input ended."""


@dataclass
class TerminalGame:
    """A match in the terminal: one human seat, the other seats played by choosers.

    Everything shown to the human comes from their seat's :meth:`Deal.view` (M-20).
    """

    match: Match
    seat: int
    choosers: dict[int, Chooser]
    console: Console
    read: Callable[[str], str]
    record: Path | None = None
    echo: bool = False
    _seen: _Seen = field(default_factory=_Seen)

    def run(self) -> int:
        """Play until the match ends or the human quits; the exit code."""
        try:
            self._intro()
            while not self.match.is_over():
                deal = self.match.current or self.match.start_deal()
                self._play_deal(deal)
                if not self.match.is_over() and not self._ask_continue():
                    raise _Quit
            self._match_over()
        except _Quit:
            self.console.print("Stopped.")
        except KeyboardInterrupt:
            self.console.print("\nInterrupted.")
            self._save()
            return 130
        self._save()
        return 0

    # ----------------------------------------------------------------- flow

    def _intro(self) -> None:
        match, c = self.match, self.console
        rules = match.rules
        c.rule(Text("hukum · Mindi", style="bold"))
        partners = ", ".join(str(s) for s in range(rules.players) if s % 2 == self.seat % 2)
        if rules.target is not None and rules.deals is not None:
            end = f"ends at {rules.target} points or after {_plural(rules.deals, 'deal')}"
        elif rules.target is not None:
            end = f"is played to {rules.target} points"
        else:
            end = f"lasts {_plural(rules.deals or 0, 'deal')}"
        c.print(f"Rules: {_describe_rules(rules)}. The match {end}.")
        c.print(
            f"You are seat {self.seat}, on team {self.seat % 2} (seats {partners}). "
            f"Match seed {match.seed}."
        )
        draw = match.draw
        line = Text("Draw for the first dealer: ")
        line += Text(", ").join(
            Text(f"player {p} ") + _card(card) for p, card in enumerate(draw.rounds[0])
        )
        if len(draw.rounds) > 1:
            line += Text(f" (ties drawn again {len(draw.rounds) - 1}×)")
        c.print(line)
        if rules.draw_partnerships:
            c.print(
                "Seating from the draw: "
                + ", ".join(f"seat {s} player {p}" for s, p in enumerate(draw.seating))
            )
        c.print(f"{self._who(draw.dealer)} deal{self._s(draw.dealer)} first.")
        c.print("Type help for the commands.")

    def _play_deal(self, deal: Deal) -> None:
        c = self.console
        number = len(self.match.deals)
        self._seen = _Seen()
        view = deal.view(self.seat)
        c.print()
        c.rule(Text(f"Deal {number}", style="bold"))
        leader = view.rules.next_seat(view.dealer)
        c.print(
            f"{self._who(view.dealer)} deal{self._s(view.dealer)}; "
            f"{self._who(leader).lower()} lead{self._s(leader)} the first trick."
        )
        rules = view.rules
        if rules.trump == "open" and view.shown_card is not None:
            c.print(
                Text("The shown card is ")
                + _card(view.shown_card)
                + Text(": ")
                + _suit(view.shown_card.suit)
                + Text(" is trump.")
            )
        elif rules.trump == "band" and view.chooser is not None:
            c.print(
                f"{self._who(view.chooser)} choose{self._s(view.chooser)} the hidden trump: "
                "a card laid face down (M-12)."
            )
        elif rules.trump == "announce":
            c.print(
                f"{self._who(leader)} name{self._s(leader)} the trump suit "
                "after the first five cards."
            )
        self._seen.trump_known = view.trump_known
        while not deal.is_over():
            turn = deal.turn
            assert turn is not None
            if turn == self.seat:
                self._human_turn(deal)
            else:
                deal.push(self.choosers[turn](deal.view(turn)), seat=turn)
            self._narrate(deal.view(self.seat))
        view = deal.view(self.seat)
        outcome = view.outcome
        assert outcome is not None
        self._deal_over(outcome)

    def _human_turn(self, deal: Deal) -> None:
        view = deal.view(self.seat)
        numbered = self._show(view)
        while True:
            try:
                text = self.read("Your move (number or card; help): ")
            except EOFError:
                self.console.print()
                raise _Quit from None
            text = text.strip()
            if self.echo:
                self.console.print(text, markup=False, highlight=False)
            command = text.lower()
            if not text:
                continue
            if command in ("quit", "q", "exit"):
                raise _Quit
            if command in ("help", "h", "?"):
                self._help()
                continue
            if command == "last":
                self._show_last(view)
                continue
            if command in ("hand", "look", "table"):
                numbered = self._show(view)
                continue
            try:
                move = self._parse(text, view, numbered)
                deal.push(move, seat=self.seat)
            except (InvalidMoveError, IllegalMoveError) as e:
                self.console.print(Text(str(e), style="red"))
                continue
            return

    def _parse(self, text: str, view: View, numbered: list[Move]) -> Move:
        """The move a line of input means in this position."""
        if text.isdigit():
            n = int(text)
            if not 1 <= n <= len(numbered):
                raise InvalidMoveError(f"no move number {n}: choose 1 to {len(numbered)}")
            return numbered[n - 1]
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

    def _ask_continue(self) -> bool:
        try:
            answer = self.read("Play the next deal? [Y/n] ").strip().lower()
        except EOFError:
            self.console.print()
            return False
        if self.echo:
            self.console.print(answer, markup=False, highlight=False)
        # Enter or anything but no/quit goes on, so that piped answers never get stuck.
        return not answer.startswith(("n", "q"))

    def _deal_over(self, outcome: Outcome) -> None:
        c = self.console
        mine = outcome.winner == self.seat % 2
        c.print(Text(outcome.describe(), style="bold"))
        points = f"+{outcome.points} point{'s' if outcome.points != 1 else ''}"
        c.print(
            Text(f"Your team wins the deal ({points}).", style="green")
            if mine
            else Text(f"The other team wins the deal ({points}).", style="red")
        )
        c.print(self._score_line())

    def _match_over(self) -> None:
        c = self.console
        a, b = self.match.scores
        winner = self.match.winner()
        c.print()
        c.rule(Text("Match over", style="bold"))
        if winner is None:
            c.print(f"The match ends level, {a}–{b}.")
        else:
            mine = "your team wins" if winner == self.seat % 2 else "your team loses"
            c.print(f"Team {winner} wins the match {max(a, b)}–{min(a, b)}: {mine}.")

    def _save(self) -> None:
        if self.record is None:
            return
        try:
            records.save(self.match, self.record)
        except OSError as e:
            self.console.print(Text(f"Could not save the record: {e}", style="red"))
            return
        self.console.print(f"Record saved to {self.record}.")

    # ----------------------------------------------------------------- what the human sees

    def _who(self, seat: int) -> str:
        return "You" if seat == self.seat else f"Seat {seat}"

    def _s(self, seat: int) -> str:
        """The verb ending: ``you play`` but ``seat 1 plays``."""
        return "" if seat == self.seat else "s"

    def _score_line(self) -> Text:
        a, b = self.match.scores
        rules = self.match.rules
        goal = [f"to {rules.target} points"] if rules.target is not None else []
        if rules.deals is not None:
            goal.append(f"{len(self.match.outcomes)} of {_plural(rules.deals, 'deal')} played")
        return Text(f"Match score: team 0 {a} – {b} team 1 ({'; '.join(goal)}).")

    def _narrate(self, view: View) -> None:
        """Tell what happened since the last call, from the human's view only."""
        c, seen = self.console, self._seen
        for s, move in view.history[seen.history :]:
            who = self._who(s)
            if move.kind is MoveKind.PLAY:
                assert move.card is not None
                line = Text(f"{who} play{self._s(s)} ") + _card(move.card)
                if view.rules.trump == "cut" and view.trump_known and not seen.trump_known:
                    line += Text(f" and cut{self._s(s)}: ") + _suit(move.card.suit)
                    line += Text(" is trump now.", style="bold")
                    seen.trump_known = True
                c.print(line)
            elif move.kind is MoveKind.HIDE:
                if move.card is not None and s == self.seat:
                    c.print(
                        Text("You lay ")
                        + _card(move.card)
                        + Text(" face down: ")
                        + _suit(move.card.suit)
                        + Text(" is trump, known only to you.")
                    )
                else:
                    c.print(f"{who} lays a card face down as the hidden trump.")
            elif move.kind is MoveKind.ANNOUNCE:
                assert move.suit is not None
                c.print(
                    Text(f"{who} announce{self._s(s)} ") + _suit(move.suit) + Text(" as trump.")
                )
                seen.trump_known = True
            else:
                c.print(f"{who} ask{self._s(s)} for the face-down trump card.")
        seen.history = len(view.history)
        for number in range(seen.tricks, len(view.tricks)):
            trick = view.tricks[number]
            win = trick.winning_card
            line = Text(
                f"{self._who(trick.winner)} win{self._s(trick.winner)} trick {number + 1} with "
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
                c.print(
                    f"{self._who(winner)} take{self._s(winner)} the pile: {taken} cards (M-10)."
                )
            else:
                c.print(f"The cards stay in the pile: {pile} cards.")
            seen.pile = pile
        if len(view.tricks) > seen.tricks:
            seen.tricks = len(view.tricks)
            tens = (len(view.tens[0]), len(view.tens[1]))
            for team in (0, 1):
                new = tens[team] - seen.tens[team]
                if new > 0:
                    held = _by_display(view.tens[team])
                    c.print(
                        Text(
                            f"Team {team} {'(yours) ' if team == self.seat % 2 else ''}"
                            f"now holds {tens[team]} ten{'s' if tens[team] != 1 else ''}: "
                        )
                        + _cards(held)
                    )
            seen.tens = tens
        if view.reveal is not None and not seen.revealed:
            seen.revealed = True
            seen.trump_known = True
            r = view.reveal
            why = _reveal_reason(r, view.chooser, view.hand_sizes[r.seat], self._who)
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
                return Text(f"face down, to be chosen by {self._who(chooser).lower()}")
            when = (
                "a void player may ask for it"
                if rules.reveal == "on_request"
                else "turned up at the first void"
            )
            return Text(f"face down (laid by seat {chooser}); {when}")
        if rules.trump == "announce":
            return Text("not announced yet")
        return Text("not set yet: the first player who cannot follow suit sets it")

    def _show(self, view: View) -> list[Move]:
        """Show the table as the human sees it; the legal moves in the order numbered."""
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
            tag = " (yours)" if team == self.seat % 2 else ""
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
            c.print(Text(f"Trick {trick_no}: ") + _trick_text(view.trick, self._who))
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

    def _show_last(self, view: View) -> None:
        if not view.tricks:
            self.console.print("No trick has been completed yet.")
            return
        trick = view.tricks[-1]
        line = Text(f"Last trick (trick {len(view.tricks)}): ")
        line += _trick_text(trick.plays, self._who)
        line += Text(f"; {self._who(trick.winner).lower()} won it.")
        self.console.print(line)

    def _help(self) -> None:
        self.console.print(
            Text(
                "Type a card to play it: 10S, TS, 10♠ or ♠10; or its number from the list.\n"
                "  hide 10S     band hukum: lay 10S face down as the hidden trump\n"
                "  reveal       band hukum, on request: ask for the face-down trump card\n"
                "               when you cannot follow suit\n"
                "  announce S   announce hukum: name the trump suit (S, H, D, C or ♠ ♥ ♦ ♣)\n"
                "  last         show the last trick\n"
                "  hand         show the table again\n"
                "  help         this text\n"
                "  quit         stop playing (the record is saved if you gave --record)"
            )
        )


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


# ---------------------------------------------------------------------------- replay


def _replay(match: Match, console: Console) -> None:
    """Print a loaded match deal by deal and trick by trick."""
    c = console
    rules = match.rules
    c.rule(Text("hukum · Mindi record", style="bold"))
    c.print(f"Rules: {_describe_rules(rules)}.")
    c.print(f"Match seed {match.seed}.")
    draw = match.draw
    c.print(
        Text("Draw for the first dealer: ")
        + Text(", ").join(
            Text(f"player {p} ") + _card(card) for p, card in enumerate(draw.rounds[0])
        )
        + Text(f"; seat {draw.dealer} deals first.")
    )
    for number, deal in enumerate(match.deals, start=1):
        _replay_deal(deal, number, c)
    a, b = match.scores
    c.print()
    winner = match.winner()
    if match.is_over():
        c.print(
            Text(f"Match over: team 0 {a} – {b} team 1. ", style="bold")
            + Text("Level." if winner is None else f"Team {winner} wins the match.")
        )
    else:
        c.print(Text(f"Match in progress: team 0 {a} – {b} team 1.", style="bold"))


def _replay_deal(deal: Deal, number: int, c: Console) -> None:
    rules = deal.rules
    n = rules.players
    c.print()
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
        c.print(
            Text("The shown card is ")
            + _card(deal.shown_card)
            + Text(": ")
            + _suit(deal.shown_card.suit)
            + Text(" is trump.")
        )
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
            c.print(
                Text(f"Seat {seat} lays ")
                + _card(move.card)
                + Text(" face down: ")
                + _suit(move.card.suit)
                + Text(" is the hidden trump.")
            )
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


# ---------------------------------------------------------------------------- commands


def _cmd_play(args: argparse.Namespace, out: Console) -> int:
    options = dict(_parse_option(text) for text in args.option)
    if args.deals is not None:
        options["deals"] = args.deals
    if args.game == "ganjifa":
        return _cmd_play_ganjifa(args, options, out)
    try:
        rules = Rules.preset(args.preset, **options)
    except RulesError as e:
        raise UsageError(str(e)) from None
    if not 0 <= args.seat < rules.players:
        raise UsageError(f"--seat {args.seat}: seats are 0 to {rules.players - 1}")
    if args.record is not None:
        folder = Path(args.record).resolve().parent
        if not folder.is_dir():
            raise UsageError(f"--record {args.record}: the folder {folder} does not exist")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    match = Match(rules, seed)
    partners = {s for s in range(args.seat % 2, rules.players, 2) if s != args.seat}
    try:
        choosers: dict[int, Chooser] = {
            s: make_bot(args.partner if s in partners else args.opponents, seed=seed + s).choose
            for s in range(rules.players)
            if s != args.seat
        }
    except BotError as e:
        raise UsageError(str(e)) from None
    interactive = sys.stdin.isatty()
    game = TerminalGame(
        match=match,
        seat=args.seat,
        choosers=choosers,
        console=out,
        read=lambda prompt: out.input(Text(prompt, style="bold")),
        record=Path(args.record) if args.record is not None else None,
        echo=not interactive,
    )
    return game.run()


def _cmd_play_ganjifa(args: argparse.Namespace, options: dict[str, Any], out: Console) -> int:
    from hukum.bots import ganjifa as ganjifa_bots
    from hukum.ganjifa_terminal import Chooser as GanjifaChooser
    from hukum.ganjifa_terminal import GanjifaGame

    try:
        rules = ganjifa.Rules().replace(**options)
    except ganjifa.RulesError as e:
        raise UsageError(str(e)) from None
    if not 0 <= args.seat < 3:
        raise UsageError(f"--seat {args.seat}: seats are 0 to 2")
    if args.record is not None and not Path(args.record).resolve().parent.is_dir():
        raise UsageError(f"--record {args.record}: the folder does not exist")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    try:
        choosers: dict[int, GanjifaChooser] = {
            s: ganjifa_bots.make_bot(args.opponents, seed=seed + s).choose
            for s in range(3)
            if s != args.seat
        }
    except BotError as e:
        raise UsageError(str(e)) from None
    game = GanjifaGame(
        match=ganjifa.Match(rules, seed),
        seat=args.seat,
        choosers=choosers,
        console=out,
        read=lambda prompt: out.input(Text(prompt, style="bold")),
        record=Path(args.record) if args.record is not None else None,
        echo=not sys.stdin.isatty(),
    )
    return game.run()


def _cmd_replay(args: argparse.Namespace, out: Console) -> int:
    try:
        with open(args.file, "rb") as f:
            data = f.read()
    except OSError as e:
        raise UsageError(f"{args.file}: cannot read the file: {e.strerror or e}") from None
    try:
        match = records.loads_any(data)
    except RecordError as e:
        raise UsageError(f"{args.file}: {e}") from None
    if isinstance(match, ganjifa.Match):
        from hukum.ganjifa_terminal import replay as replay_ganjifa

        replay_ganjifa(match, out)
        return 0
    assert isinstance(match, Match)
    _replay(match, out)
    return 0


def _tricks_option(parser: argparse.ArgumentParser, default: int, metavar: str, text: str) -> None:
    """The --tricks option of solve and bench: a number of tricks from 1 to 13."""
    parser.add_argument(
        "--tricks", type=int, default=default, choices=range(1, 14), metavar=metavar, help=text
    )


def _cmd_solve(args: argparse.Namespace, out: Console) -> int:
    from hukum.analysis import ANALYSIS_NODES, analyse, standing, verdict
    from hukum.bots.solver import SolverError

    try:
        match = records.load(args.file)
    except OSError as e:
        raise UsageError(f"{args.file}: cannot read the file: {e.strerror or e}") from None
    except RecordError as e:
        raise UsageError(f"{args.file}: {e}") from None
    if not 1 <= args.deal <= len(match.deals):
        raise UsageError(f"--deal {args.deal}: the record has deals 1 to {len(match.deals)}")
    deal = match.deals[args.deal - 1]
    tricks = min(args.tricks, deal.rules.hand_size)
    max_nodes = args.max_nodes or ANALYSIS_NODES
    try:
        report = analyse(deal, tricks=tricks, max_nodes=max_nodes)
    except SolverError as e:
        raise UsageError(f"{args.file}: {e}") from None
    table = Table(
        title=f"Deal {args.deal}: the best result each move's team could force, all hands seen",
        header_style="bold",
    )
    for column in ("move", "trick", "seat", "card", "before", "after", "verdict", "better"):
        table.add_column(column, justify="right" if column in ("move", "trick", "seat") else "left")
    for m in report.moves:
        mistake = m.mistake
        table.add_row(
            str(m.number),
            str(m.trick),
            str(m.seat),
            str(m.move),
            standing(m.before, m.team),
            standing(m.after, m.team),
            Text(
                verdict(m.before, m.after, m.team) or "best",
                style="bold red" if mistake else "green",
            ),
            ", ".join(str(b) for b in m.best) if mistake else "",
        )
    out.print(table)
    note = f"{report.skipped} earlier moves not analysed (more than {report.tricks} tricks left"
    if report.tricks < tricks:
        note += f"; the trick before needed more than {max_nodes:,} positions searched"
    out.print(Text(note + ")", style="dim") if report.skipped else "")
    outcome = deal.outcome()
    if outcome is not None:
        out.print(f"Result: {outcome.describe()}")
    return 0


def _cmd_bench_solver(args: argparse.Namespace, out: Console) -> int:
    deals = args.deals or 10
    table = Table(
        title=f"Solver: seconds per position with {args.tricks} tricks left, one core",
        header_style="bold",
    )
    for column in ("trump", "positions", "median", "p95", "max", "nodes/s"):
        table.add_column(column, justify="left" if column == "trump" else "right")
    kinds = {"known": ("known (open)", Rules(trump="open")), "cut": ("cut, not yet set", Rules())}
    searched = []
    for trump, (name, rules) in kinds.items():
        if args.trump not in (trump, "both"):
            continue
        r = bench.run_solver(
            rules,
            tricks=args.tricks,
            deals=deals,
            seed=args.seed,
            name=name,
            max_nodes=args.max_nodes,
        )
        table.add_row(
            name,
            str(len(r.times)) + (f" ({r.unsolved} unsolved)" if r.unsolved else ""),
            _secs(r.median),
            _secs(r.percentile(95)),
            _secs(max(r.times)),
            f"{r.nodes / r.seconds:,.0f}" if r.seconds > 0 else "-",
        )
        searched.append(f"{name} {_count(r.median_searched)}")
    out.print(table)
    # Positions searched are the same on any machine, unlike the seconds.
    out.print("Median positions searched: " + "; ".join(searched))
    if args.max_nodes:
        out.print(f"unsolved: not solved within {args.max_nodes:,} positions searched")
    return 0


def _count(n: float) -> str:
    """A number of positions, in millions from a million on: ``416``, ``14.6M``."""
    return f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n:,.0f}"


def _secs(seconds: float) -> str:
    """A time of the solver benchmark: ``unsolved`` for a position past the node budget."""
    return "unsolved" if seconds == math.inf else f"{seconds:.3f}"


def _cmd_bench(args: argparse.Namespace, out: Console) -> int:
    if args.solver:
        return _cmd_bench_solver(args, out)
    deals, seconds = args.deals, args.seconds
    if deals is None and seconds is None:
        deals = 10_000
    for name, value in (("--deals", deals), ("--seconds", seconds)):
        if value is not None and value <= 0:
            raise UsageError(f"{name} must be more than 0")
    if args.all_presets:
        results = bench.run_presets(deals=deals, seconds=seconds, seed=args.seed)
    else:
        rules = Rules.preset(args.preset)
        results = [bench.run(rules, deals=deals, seconds=seconds, seed=args.seed, name=args.preset)]
    # A Ganjifa deal is 120 cards (about 110 moves): a fifth of the Mindi deals.
    results.append(
        bench.run_ganjifa(
            ganjifa.Rules(),
            deals=None if deals is None else max(1, deals // 5),
            seconds=seconds,
            seed=args.seed,
            name="ganjifa",
        )
    )
    table = Table(title="Random legal deals on one core", header_style="bold")
    for column in ("preset", "deals", "moves", "seconds", "deals/s", "moves/s"):
        table.add_column(column, justify="left" if column == "preset" else "right")
    for r in results:
        table.add_row(
            r.name,
            f"{r.deals:,}",
            f"{r.moves:,}",
            f"{r.seconds:.2f}",
            f"{r.deals_per_second:,.0f}",
            f"{r.moves_per_second:,.0f}",
        )
    out.print(table)
    python = sys.implementation.name + " " + ".".join(str(v) for v in sys.version_info[:3])
    out.print(Text(f"hukum {__version__}, {python}", style="dim"))
    return 0


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hukum",
        description="Mindi (Mendikot, Dehla Pakad): the web app, play in the terminal, "
        "computer players, game records, fair-shuffle checks and the engine's speed.",
        epilog="Run 'hukum COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"hukum {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    presets = ", ".join(PRESETS)

    play = commands.add_parser(
        "play",
        help="play a match in the terminal against three computer players",
        description="Play a match of Mindi at one seat against computer players. Type a "
        "card (10S, TS, 10♠, ♠10) or its number; 'help' lists the commands.",
    )
    bots = ", ".join(BOT_NAMES)
    play.add_argument(
        "--partner",
        default="rules",
        choices=BOT_NAMES,
        metavar="BOT",
        help=f"your partner(s): {bots} (default: rules)",
    )
    play.add_argument(
        "--opponents",
        default="rules",
        choices=BOT_NAMES,
        metavar="BOT",
        help=f"the opponents: {bots} (default: rules)",
    )
    play.add_argument(
        "--preset",
        default="classic",
        choices=list(PRESETS),
        metavar="NAME",
        help=f"rule preset: {presets} (default: classic)",
    )
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change one rule option, e.g. must_trump=true, trump=band, players=6 with "
        "deck=48, target=5, points=1,2,3 (repeat for more)",
    )
    play.add_argument(
        "--game",
        default="mindi",
        choices=("mindi", "ganjifa"),
        help="mindi (default) or ganjifa: Dashavatara Ganjifa against two computer players "
        "(--opponents; --option time=night, void_rule=trump_first, dukal=royal_run|either)",
    )
    play.add_argument("--seed", type=int, help="match seed, to play the same deals again")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--deals", type=_positive, metavar="N", help="end the match after N deals")
    play.add_argument(
        "--record", metavar="FILE", help="save the match record to FILE at the end or on quit"
    )
    play.set_defaults(run=_cmd_play)

    replay = commands.add_parser(
        "replay",
        help="print a saved match trick by trick",
        description="Load a match record, check it by replaying every move, and print each "
        "deal trick by trick.",
    )
    replay.add_argument("file", metavar="FILE", help="a record saved by 'hukum play --record'")
    replay.set_defaults(run=_cmd_replay)

    solve_cmd = commands.add_parser(
        "solve",
        help="analyse a recorded deal with the exact solver: which moves lost a mindi",
        description="Replay a deal of a match record and, for every move of its last tricks, "
        "solve the position with all hands seen: the best result the mover's team could "
        "force before and after the move, and the better move where it gave something away.",
    )
    solve_cmd.add_argument("file", metavar="RECORD", help="a record saved by 'hukum play --record'")
    solve_cmd.add_argument(
        "--deal", type=_positive, default=1, metavar="N", help="deal number (default 1)"
    )
    _tricks_option(
        solve_cmd,
        13,
        "K",
        "analyse the moves of the last K tricks (default 13: the whole deal, as far back as "
        "--max-nodes allows)",
    )
    solve_cmd.add_argument(
        "--max-nodes",
        type=_positive,
        metavar="N",
        help="work back from the last trick while the solves fit in N positions searched "
        "in all (default hukum.analysis.ANALYSIS_NODES: 10 million, a few seconds)",
    )
    solve_cmd.set_defaults(run=_cmd_solve)

    bench_cmd = commands.add_parser(
        "bench",
        help="measure how many random legal deals the engine plays per second",
        description="Play random legal deals on one core and print deals and moves per "
        "second (default: 10,000 deals of preset classic, then 2,000 deals of Ganjifa).",
    )
    bench_cmd.add_argument(
        "--preset",
        default="classic",
        choices=list(PRESETS),
        metavar="NAME",
        help=f"rule preset: {presets} (default: classic)",
    )
    bench_cmd.add_argument("--all-presets", action="store_true", help="measure every preset")
    bench_cmd.add_argument("--deals", type=_positive, metavar="N", help="deals per preset")
    bench_cmd.add_argument(
        "--seconds",
        type=_seconds,
        metavar="S",
        help="time per preset (with --deals: whichever first)",
    )
    bench_cmd.add_argument("--seed", type=int, default=0, help="seed of the random play")
    bench_cmd.add_argument(
        "--solver",
        action="store_true",
        help="time the exact solver instead, on seeded positions of each --trump kind "
        "(default 10 positions each)",
    )
    _tricks_option(
        bench_cmd, 8, "N", "with --solver: tricks left in each position, 13 for a whole deal"
    )
    bench_cmd.add_argument(
        "--trump",
        choices=("known", "cut", "both"),
        default="both",
        help="with --solver: positions with trump known (open hukum), cut hukum with trump "
        "not yet set, or both (default)",
    )
    bench_cmd.add_argument(
        "--max-nodes",
        type=_positive,
        metavar="N",
        help="with --solver: give up on a position after searching N positions (it counts "
        "as unsolved, slower than every solved one)",
    )
    bench_cmd.set_defaults(run=_cmd_bench)

    commands.add_parser(
        "arena",
        help="bot against bot in duplicate deals, with win rate and decision times",
        add_help=False,
    )

    from hukum.server.cli import add_commands as add_server_commands

    add_server_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hukum`` command; the exit code."""
    parser = _parser()
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["arena"]:
        from hukum import arena

        return arena.main(argv[1:])
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    out = Console(highlight=False)
    try:
        code: int = args.run(args, out)
        return code
    except UsageError as e:
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            Text(f"hukum {args.command}: error: {e}", style="red")
        )
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``hukum replay game.json | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
