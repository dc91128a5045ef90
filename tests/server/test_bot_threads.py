"""The computer players decide on threads of their own
(:func:`hukum.server.tables.scheduler.bot_threads`), not on the event loop's default
executor, which stores every table's moves: a crowd of expert decisions waiting for a
thread never holds back a person's move; each thread has its decision made in a bot process
(:func:`~hukum.server.tables.scheduler.bot_processes`), the same move as here, and a dead
process is replaced; and a challenge position's expert reply, the same at every table of
the deal, is kept and given again without a decision (issue 42; docs/scale.md, "Daily
challenge under load")."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from hukum.games import make_bot
from hukum.mindi import Deal, Rules, View
from hukum.server.tables.scheduler import BOT_THREADS, bot_processes, bot_threads, decide
from tests.server.conftest import create, play
from tests.server.helpers import Player, seat_socket
from tests.server.test_challenge_api import client, db_url, first_legal, start, today
from tests.server.test_ratings import account

__all__ = ["client", "db_url"]  # the fixtures, as test_challenge_api.py makes them


@contextmanager
def holding() -> Iterator[threading.Event]:
    """Every bot thread busy until the event is set (set at the end in any case)."""
    release = threading.Event()
    jobs = [bot_threads().submit(release.wait, 300) for _ in range(BOT_THREADS)]
    try:
        yield release
    finally:
        release.set()
        for job in jobs:
            job.result(timeout=60)


@pytest.fixture
def held() -> Iterator[threading.Event]:
    """Every bot thread busy until the event is set."""
    with holding() as release:
        yield release


def waiting() -> int:
    """Decisions waiting for a bot thread."""
    return bot_threads()._work_queue.qsize()


def test_a_person_s_moves_are_stored_while_the_expert_waits_for_a_thread(
    client: TestClient, held: threading.Event
) -> None:
    asha = account(client, "asha")
    code = start(asha, today(), 1)  # deal 1's dealer is seat 0: the expert leads
    with seat_socket(asha, code, None) as ws:
        assert ws.receive_json()["type"] == "state"
        give_up = time.monotonic() + 120
        while waiting() == 0:  # the expert's decision waits for a bot thread
            assert time.monotonic() < give_up, "the expert's decision never reached the threads"
            time.sleep(0.05)
        # Meanwhile a person at another table plays: each move is stored and acknowledged.
        made = create(client, start_now=True, bots="rules")
        ravi = Player()
        with seat_socket(client, made["code"], made["token"]) as other:
            play(other, ravi, moves=6)
        assert ravi.moves == 6 and not ravi.errors, ravi.errors
        assert waiting() == 1  # the expert still waits
        held.set()
        me = Player(first_legal)
        play(ws, me)  # the threads free, the experts answer: the deal is played to its end
    assert me.match_over and me.moves == 13 and not me.errors, me.errors


def test_a_challenge_position_s_expert_reply_is_kept(client: TestClient) -> None:
    asha = account(client, "asha")
    first = Player(first_legal)
    with seat_socket(asha, start(asha, today(), 2), None) as ws:
        play(ws, first)
    # Every bot thread busy: the same cards at another account's table of the deal get
    # every expert reply all the same, the kept ones.
    with holding() as release:
        # Were a decision asked for, it would wait until this frees the threads.
        watchdog = threading.Timer(120, release.set)
        watchdog.start()
        ravi = account(client, "ravi")
        second = Player(first_legal)
        with seat_socket(ravi, start(ravi, today(), 2), None) as ws:
            play(ws, second)
        watchdog.cancel()
        assert not release.is_set() and waiting() == 0  # no decision was asked for

    def moves(player: Player) -> list[tuple[int, str]]:
        return [(m["seat"], m["move"]) for m in player.log if m.get("kind") == "move"]

    assert first.match_over and second.match_over
    assert len(moves(first)) == 52 and moves(second) == moves(first)


def a_view() -> View:
    """A position of the first trick, where the expert plays as the search player."""
    deal = Deal.new(Rules(), dealer=0, seed=11)
    for _ in range(2):
        deal.push(deal.legal_moves()[0])
    assert deal.turn is not None
    return deal.view(deal.turn)


def test_a_decision_is_made_in_a_bot_process_and_is_the_same_as_here() -> None:
    view = a_view()
    here = make_bot("mindi", "expert", seed=5).choose(view)
    assert decide("mindi", "expert", 5, view) == here
    assert bot_processes().submit(os.getpid).result(timeout=120) != os.getpid()


def test_a_dead_bot_process_is_replaced_and_the_decision_still_made() -> None:
    view = a_view()
    pool = bot_processes()
    pid = pool.submit(os.getpid).result(timeout=120)
    os.kill(pid, signal.SIGKILL)
    here = make_bot("mindi", "search", seed=3).choose(view)
    assert decide("mindi", "search", 3, view) == here  # made whether the pool broke yet or not
    give_up = time.monotonic() + 60
    while bot_processes() is pool:  # the pool is seen broken at the latest by the next decision
        assert time.monotonic() < give_up, "the broken pool was kept"
        decide("mindi", "search", 3, view)
    fresh = bot_processes().submit(os.getpid).result(timeout=120)
    assert fresh not in (pid, os.getpid())
