"""A wave of quick match: who sits with whom, where, and who waits (hukum.online.pools)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hukum.online.pools import (
    GAP_PER_SECOND,
    GAP_START,
    LEAVER_EXTRA,
    POOLS,
    Pool,
    Seating,
    Ticket,
    countdown_left,
    gap,
    wave,
)

MINDI = POOLS["mindi"]
GANJIFA = POOLS["ganjifa"]


def single(
    name: str,
    rating: float,
    since: float = 0.0,
    blocked: frozenset[str] = frozenset(),
    leaver: bool = False,
) -> Ticket:
    return Ticket(name, (name,), rating, since, blocked, leaver)


def party(name: str, rating: float, since: float = 0.0) -> Ticket:
    return Ticket(name, (name + "a", name + "b"), rating, since)


def teams(seating: Seating, ratings: dict[str, float]) -> tuple[float, float]:
    """The summed ratings of seats 0 + 2 and 1 + 3 (people only)."""
    s = seating.seats
    return (ratings[s[0] or ""] + ratings[s[2] or ""], ratings[s[1] or ""] + ratings[s[3] or ""])


# --- examples -------------------------------------------------------------------------------


def test_four_close_singles_make_one_table_balanced() -> None:
    tickets = [single("a", 1500), single("b", 1540), single("c", 1520), single("d", 1580)]
    (table,) = wave(MINDI, tickets, now=1.0)
    # 1580 + 1500 against 1540 + 1520: the strongest with the weakest.
    assert table.seats == ("d", "b", "a", "c")
    assert sorted(table.tickets) == ["a", "b", "c", "d"]


def test_too_few_people_inside_the_countdown_wait() -> None:
    tickets = [single("a", 1500), single("b", 1500), single("c", 1500)]
    assert wave(MINDI, tickets, now=MINDI.countdown - 0.1) == []


def test_a_player_alone_gets_computer_players_when_the_countdown_ends() -> None:
    alone = single("a", 1500, since=10.0)
    assert wave(MINDI, [alone], now=10.0 + MINDI.countdown - 0.5) == []
    (table,) = wave(MINDI, [alone], now=10.0 + MINDI.countdown)
    assert table.seats == ("a", None, None, None) and table.tickets == ("a",)


def test_overdue_players_sit_together_with_computer_players_for_the_rest() -> None:
    tickets = [single("a", 1500), single("b", 1700), single("c", 1600, since=15.0)]
    # c's countdown is not over, but c is waiting: c takes a seat rather than a computer
    # player, and the seat nobody takes goes to one.
    (table,) = wave(MINDI, tickets, now=20.0)
    assert sorted(p or "" for p in table.seats) == ["", "a", "b", "c"]
    assert wave(MINDI, tickets[2:], now=20.0) == []


def test_two_people_a_moment_apart_sit_at_one_table() -> None:
    """The first one's countdown ends: the second, who came 0.1 s later, sits with them."""
    tickets = [single("a", 1500), single("b", 1500, since=0.1)]
    (table,) = wave(MINDI, tickets, now=MINDI.countdown)
    assert sorted(p or "" for p in table.seats) == ["", "", "a", "b"]
    (three,) = wave(GANJIFA, tickets, now=GANJIFA.countdown)
    assert sorted(p or "" for p in three.seats) == ["", "a", "b"]


def test_a_party_sits_opposite() -> None:
    tickets = [party("p", 1500), single("x", 1490), single("y", 1510)]
    (table,) = wave(MINDI, tickets, now=0.0)
    assert table.seats == ("pa", "y", "pb", "x")
    two = wave(MINDI, [party("p", 1500), party("q", 1550)], now=0.0)
    assert [t.seats for t in two] == [("qa", "pa", "qb", "pb")]


def test_a_party_with_computer_players() -> None:
    (table,) = wave(MINDI, [party("p", 1500)], now=MINDI.countdown)
    assert table.seats == ("pa", None, "pb", None)
    (three,) = wave(GANJIFA, [party("p", 1500)], now=GANJIFA.countdown)
    assert three.seats == ("pa", "pb", None)


def test_blocked_players_never_sit_together() -> None:
    a = single("a", 1500, blocked=frozenset({"b"}))
    b = single("b", 1500, blocked=frozenset({"a"}))
    others = [single("c", 1500), single("d", 1500), single("e", 1500)]
    tables = wave(MINDI, [a, b, *others], now=0.0)
    assert len(tables) == 1 and not {"a", "b"} <= set(tables[0].seats)
    # A block given by one side only counts as well.
    one_sided = [single("a", 1500, blocked=frozenset({"b"})), single("b", 1500)]
    overdue = wave(MINDI, one_sided, now=MINDI.countdown)
    assert sorted(len([p for p in t.seats if p]) for t in overdue) == [1, 1]


def test_the_gap_widens_with_the_wait() -> None:
    assert gap(0.0) == GAP_START and gap(4.0) == GAP_START + 4 * GAP_PER_SECOND
    tickets = [single("a", 1500), single("b", 1550), single("c", 1650), single("d", 1700)]
    spread = 200.0
    inside = (spread - GAP_START) / GAP_PER_SECOND
    assert wave(MINDI, tickets, now=inside - 0.1) == []
    assert len(wave(MINDI, tickets, now=inside)) == 1


def test_nearest_ratings_first() -> None:
    low = [single(f"l{i}", 1000 + i) for i in range(4)]
    high = [single(f"h{i}", 2000 + i) for i in range(4)]
    middle = single("m", 1500)
    tables = wave(MINDI, [*high, middle, *low], now=1.0)
    assert sorted(sorted(t.tickets) for t in tables) == [
        ["h0", "h1", "h2", "h3"],
        ["l0", "l1", "l2", "l3"],
    ]


def test_the_closest_of_overlapping_tables_wins() -> None:
    ratings = [1500, 1510, 1520, 1530, 1531, 1532, 1533]
    tickets = [single(f"t{r}", r) for r in ratings]
    (table,) = wave(MINDI, tickets, now=0.0)
    assert sorted(table.tickets) == ["t1530", "t1531", "t1532", "t1533"]


def test_a_party_fits_in_after_a_single_that_does_not() -> None:
    tickets = [single("a", 1500), single("b", 1501), single("c", 1502), party("p", 1503)]
    (table,) = wave(MINDI, tickets, now=0.0)
    assert {"pa", "pb"} <= set(table.seats) and table.seats.index("pa") % 2 == 0


def test_leavers_sit_with_leavers_and_wait_longer() -> None:
    leaver = single("z", 1500, leaver=True)
    others = [single("a", 1500), single("b", 1500), single("c", 1500)]
    assert wave(MINDI, [leaver, *others], now=1.0) == []
    assert countdown_left(MINDI, leaver, 1.0) == MINDI.countdown + LEAVER_EXTRA - 1.0
    assert countdown_left(MINDI, others[0], 1.0) == MINDI.countdown - 1.0
    at_countdown = wave(MINDI, [leaver, *others], now=MINDI.countdown)
    assert [t.seats.count(None) for t in at_countdown] == [1]
    assert "z" not in at_countdown[0].seats
    later = wave(MINDI, [leaver], now=MINDI.countdown + LEAVER_EXTRA)
    assert [t.seats for t in later] == [("z", None, None, None)]
    leavers = [single(n, 1500, leaver=True) for n in "wxyz"]
    assert len(wave(MINDI, leavers, now=0.0)) == 1


def test_countdown_left_is_never_negative() -> None:
    ticket = single("a", 1500, since=5.0)
    assert countdown_left(MINDI, ticket, 5.0) == MINDI.countdown
    assert countdown_left(MINDI, ticket, 1000.0) == 0.0


def test_ganjifa_seats_three_strongest_first() -> None:
    tickets = [single("a", 1500), single("b", 1530), party("p", 1510)]
    (table,) = wave(GANJIFA, tickets, now=0.0)
    assert sorted(table.seats, key=str) == ["a", "pa", "pb"]
    (three,) = wave(GANJIFA, [single("a", 1500), single("b", 1530), single("c", 1510)], 0.0)
    assert three.seats == ("b", "c", "a")


def test_a_player_in_two_tickets_is_seated_once() -> None:
    first = single("a", 1500, since=0.0)
    again = Ticket("a2", ("a",), 1500, 1.0)
    tables = wave(MINDI, [again, first, single("b", 1500)], now=MINDI.countdown + 1)
    seated = [p for t in tables for p in t.seats if p]
    assert sorted(seated) == ["a", "b"]
    assert sorted(i for t in tables for i in t.tickets) == ["a", "b"]


def test_bad_tickets_are_refused() -> None:
    with pytest.raises(ValueError, match="one or two players"):
        wave(MINDI, [Ticket("t", ("a", "b", "c"), 1500, 0.0)], 0.0)
    with pytest.raises(ValueError, match="one or two players"):
        wave(MINDI, [Ticket("t", (), 1500, 0.0)], 0.0)
    with pytest.raises(ValueError, match="four seats"):
        wave(Pool("six", "mindi", "classic", seats=6), [], 0.0)


def test_a_big_wave_seats_everyone_overdue() -> None:
    rng = random.Random(7)
    tickets = [
        Ticket(
            f"t{i}",
            (f"p{i}a", f"p{i}b") if rng.random() < 0.05 else (f"p{i}",),
            rng.gauss(1500, 300),
            rng.uniform(0, 40),
            frozenset({f"p{rng.randrange(3000)}"}) if rng.random() < 0.02 else frozenset(),
            rng.random() < 0.03,
        )
        for i in range(3000)
    ]
    tables = wave(MINDI, tickets, now=40.0)
    check(MINDI, tickets, 40.0, tables)
    assert sum(t.seats.count(None) for t in tables) < 20


# --- properties -----------------------------------------------------------------------------


@st.composite
def waiting(draw: st.DrawFn, pool: Pool) -> list[Ticket]:
    """Tickets with distinct players, some parties, blocks between players, and leavers."""
    count = draw(st.integers(0, 14))
    tickets: list[Ticket] = []
    names: list[str] = []
    for i in range(count):
        players = (f"p{i}a", f"p{i}b") if draw(st.integers(0, 4)) == 0 else (f"p{i}",)
        names.extend(players)
        rating = float(draw(st.integers(1000, 2000)))
        since = float(draw(st.integers(0, 45)))
        leaver = draw(st.integers(0, 6)) == 0
        tickets.append(Ticket(f"t{i}", players, rating, since, frozenset(), leaver))
    pairs = (
        draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)), max_size=4))
        if names
        else []
    )
    blocked: dict[str, set[str]] = {}
    for a, b in pairs:
        if a != b:
            blocked.setdefault(a, set()).add(b)
            blocked.setdefault(b, set()).add(a)
    return [
        Ticket(
            t.id,
            t.players,
            t.rating,
            t.since,
            frozenset(set().union(*(blocked.get(p, set()) for p in t.players))),
            t.leaver,
        )
        for t in tickets
    ]


def check(pool: Pool, tickets: Sequence[Ticket], now: float, tables: list[Seating]) -> None:
    """Every promise a wave makes about its tables."""
    by_id = {t.id: t for t in tickets}
    seated_tickets = [i for t in tables for i in t.tickets]
    seated_players = [p for t in tables for p in t.seats if p is not None]
    assert len(seated_tickets) == len(set(seated_tickets)), "a ticket seated twice"
    assert len(seated_players) == len(set(seated_players)), "a player seated twice"
    for table in tables:
        members = [by_id[i] for i in table.tickets]
        assert len(table.seats) == pool.seats
        assert sorted(p for p in table.seats if p) == sorted(p for t in members for p in t.players)
        for a, b in combinations(members, 2):
            assert a.blocked.isdisjoint(b.players) and b.blocked.isdisjoint(a.players)
        assert len({t.leaver for t in members}) == 1, "a leaver with a non-leaver"
        if None in table.seats:
            assert any(countdown_left(pool, t, now) == 0 for t in members)
        spread = max(t.rating for t in members) - min(t.rating for t in members)
        assert spread <= gap(now - min(t.since for t in members)) + 1e-9
        if pool.partners:
            for t in members:
                if len(t.players) == 2:
                    seats = sorted(table.seats.index(p) for p in t.players)
                    assert seats in ([0, 2], [1, 3]), "a party not opposite"
            if len(members) == 4:
                ratings = {t.players[0]: t.rating for t in members}
                first, second = teams(table, ratings)
                r = sorted(ratings.values())
                best = min(abs(r[0] + r[3] - r[1] - r[2]), abs(r[0] + r[2] - r[1] - r[3]))
                assert abs(first - second) <= best + 1e-9, "teams not balanced"
    # No one whose countdown is over is left waiting.
    seated = set(seated_tickets)
    for ticket in tickets:
        if countdown_left(pool, ticket, now) == 0:
            assert ticket.id in seated


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["mindi", "ganjifa"]), st.data())
def test_every_wave_keeps_its_promises(name: str, data: st.DataObject) -> None:
    pool = POOLS[name]
    tickets = data.draw(waiting(pool))
    now = float(data.draw(st.integers(0, 70)))
    tables = wave(pool, tickets, now)
    check(pool, tickets, now, tables)
    shuffled = list(tickets)
    random.Random(data.draw(st.integers(0, 9))).shuffle(shuffled)
    assert wave(pool, shuffled, now) == tables, "the order of the tickets changed the wave"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1000, 2000), min_size=4, max_size=4),
    st.lists(st.integers(0, 40), min_size=4, max_size=4),
    st.integers(0, 60),
    st.booleans(),
)
def test_four_compatible_people_always_sit_together(
    ratings: list[int], since: list[int], now: int, leaver: bool
) -> None:
    tickets = [
        single(f"p{i}", float(r), float(s), leaver=leaver)
        for i, (r, s) in enumerate(zip(ratings, since, strict=True))
    ]
    tables = wave(MINDI, tickets, float(now))
    if max(ratings) - min(ratings) <= gap(now - min(since)):
        assert len(tables) == 1 and None not in tables[0].seats
    else:
        assert all(t.seats.count(None) > 0 for t in tables)
    check(MINDI, tickets, float(now), tables)
