"""Fair-play screening on the server (issue 42) through the real app and database: a
test-only cheat plays the exact solver's best card (every hand known) at a pool table over
the real game socket, against rule-based computer players; each finished deal is screened
in the app's worker process, its rows written once (only the person's seat), the player's
tally moves; a player past the threshold is in the moderators' queue with the evidence
(moderators only); the player's data download has the tally and deleting the account
removes it all. Two processes writing one room's screening write it once, on SQLite and
PostgreSQL.

The cheat (here, never in the product) reads the deal as it is from the table's actor in
this process (the test's privilege: the server never sends hidden hands) and solves it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text

from hukum.bots.solver import Solver, SolverBudgetError
from hukum.games import game_named
from hukum.mindi import Deal
from hukum.online.pools import POOLS
from hukum.online.screening import ALPHA, step, threshold
from hukum.server.db import MIGRATIONS, Store, make_engine, migrate, now
from hukum.server.identity.models import Player, Report
from hukum.server.play import screening
from hukum.server.play.models import ScreenedRoom, ScreenedSeat, ScreeningTally
from hukum.server.tables.actor import Table
from hukum.server.tables.config import TableConfig
from tests.server.conftest import play
from tests.server.helpers import Player as Scripted
from tests.server.helpers import seat_socket
from tests.server.test_fair_play import make_moderator
from tests.server.test_ratings import (
    PASSWORD,
    account,
    guest,
    make_app,
    me_id,
    rated_table,
    registry_of,
    settle,
    store_of,
)

#: The most deals the cheat plays for its first hit (about one deal in three has one
#: against rule-based players: 4 of 12 measured; 16 misses in a row: under 0.2 %).
MOST_DEALS = 16
#: The tricks from the end the cheat solves (the screening's window).
WINDOW = 10


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(f"sqlite:///{tmp_path / 'screen.db'}")) as c:
        yield c


def cheat(client: TestClient, code: str) -> Scripted:
    """A seat player that plays the solver's best card with every hand known in the last
    ``WINDOW`` tricks (the first legal card before)."""
    table = registry_of(client).tables[code]
    assert isinstance(table, Table) and table.match is not None

    def choose(view: dict[str, Any]) -> str:
        legal: list[str] = view["legal"]
        assert table.match is not None
        live: Any = table.match.deals[-1]
        if len(legal) == 1 or live.rules.hand_size - len(live.tricks) > WINDOW:
            return legal[0]
        deal = Deal(live.rules, live.dealer, live.dealt, shown_card=live.shown_card, seed=live.seed)
        for seat, move in live.history:
            deal.push(move, seat=seat)
        try:
            best = {str(m) for m in Solver(deal.rules, table_bits=18).solve(deal).best_moves}
        except SolverBudgetError:
            return legal[0]
        return next(m for m in legal if m in best)

    return Scripted(choose)


def play_one(client: TestClient, player: TestClient) -> str:
    """One pool deal: the cheat at seat 0, rule-based players at the others, played to the
    end over the game socket; its screening done. The room's code."""
    code = rated_table(client, "mindi", {0: player}, bots="rules")
    with seat_socket(player, code, None) as ws:
        play(ws, cheat(client, code))
    settle(client)
    assert client.portal is not None
    client.portal.call(screenings(client).settle)
    return code


def screenings(client: TestClient) -> screening.Screenings:
    found: screening.Screenings = client.app.state.screenings  # type: ignore[attr-defined]
    return found


def seats_of(store: Store, code: str) -> list[ScreenedSeat]:
    with store.session() as s:
        return list(s.scalars(select(ScreenedSeat).where(ScreenedSeat.room == code)))


def test_a_cheat_is_screened_once_per_deal_flagged_and_shown_to_moderators_only(
    client: TestClient,
) -> None:
    store = store_of(client)
    cheater = account(client, "Peeker")
    cheater_id = me_id(cheater)
    # A history: screened deals before these that left the ratio just under the flag (a
    # hit adds at least log(12.6 / 12) = 0.049: twelve of thirteen legal cards best).
    start = threshold(ALPHA) - 0.04
    with store.session() as s:
        s.add(
            ScreeningTally(
                player=cheater_id,
                matters=9,
                hits=9,
                llr=start,
                peak=start,
                deals=40,
                verdict="watch",
            )
        )
        s.commit()
    rooms: list[str] = []
    for _ in range(MOST_DEALS):
        code = play_one(client, cheater)
        rooms.append(code)
        rows = seats_of(store, code)
        # Only the person's seat; once; the cheat hits every decision that matters.
        assert [(r.seat, r.player, r.deal) for r in rows] == [(0, cheater_id, 1)]
        row = rows[0]
        assert row.decisions > 0 and row.hits == row.matters == len(row.evidence)
        # Each hit's step: the odds of the cheat against a random legal card.
        steps = [step(hit["chance"], True) for hit in row.evidence]
        assert row.llr == pytest.approx(sum(steps), abs=1e-3)
        with store.session() as s:
            assert s.get(ScreenedRoom, code) is not None
        if row.hits:
            break
    else:
        pytest.fail(f"no hit in {MOST_DEALS} deals of the full-view cheat")
    every = [r for code in rooms for r in seats_of(store, code)]
    with store.session() as s:
        tally = s.get(ScreeningTally, cheater_id)
        assert tally is not None
        assert tally.deals == 40 + len(rooms)
        assert tally.matters == 9 + sum(r.matters for r in every)
        assert tally.hits == 9 + sum(r.hits for r in every)
        assert tally.llr == pytest.approx(start + sum(r.llr for r in every))
        assert tally.peak == pytest.approx(tally.llr)
        assert tally.verdict == "flag"
        reports = s.scalars(select(Report).where(Report.reported == cheater_id)).all()
        assert [(r.reason, r.reporter, r.room) for r in reports] == [("screening", None, code)]
    # Written once: the same room again, by hand or by the catch-up, changes nothing.
    config = store.room(code)
    assert config is not None
    events = [(e.number, e.kind, dict(e.data)) for e in store.events(code)]
    deals, again = screening.screen_events(code, config, events)
    assert [(a.hits, a.matters, a.llr) for a in again] == [(row.hits, row.matters, row.llr)]
    assert deals == 1
    assert not screening.write(store, code, deals, again)
    assert screening.unscreened_rooms(store, 100) == []
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(ScreenedSeat)) == len(rooms)
        assert s.get(ScreeningTally, cheater_id).deals == 40 + len(rooms)  # type: ignore[union-attr]

    # The moderators' queue: the report with the evidence, each a link to the board.
    moderator = account(client, "Warden")
    make_moderator(client, me_id(moderator), "Warden")
    queue = moderator.get("/api/moderation/reports")
    assert queue.status_code == 200
    [flagged] = [r for r in queue.json()["reports"] if r["reason"] == "screening"]
    assert flagged["reporter"] == "" and flagged["reported"]["username"] == "Peeker"
    shown = flagged["screening"]
    assert shown["tally"]["verdict"] == "flag" and shown["tally"]["hits"] == tally.hits
    assert len(shown["decisions"]) == row.hits
    for hit, kept in zip(shown["decisions"], row.evidence, strict=True):
        assert hit["table"] == code and hit["deal"] == 1
        assert hit["board"] == f"/t/{code}/deals/1?move={kept['number'] - 1}"
        assert hit["card"] in hit["best"] and hit["card"] not in hit["viewed"]
    assert cheater_id not in str(queue.json())
    # Nobody else sees any of it: a guest, another player, the player themself.
    for other in (guest(client, "Nosy"), account(client, "Plain"), cheater, TestClient(client.app)):
        refused = other.get("/api/moderation/reports")
        assert refused.status_code in (401, 403)
        assert refused.json()["error"]["code"] in ("not_moderator", "no_session")
    # A player cannot choose the screening's reason.
    r = moderator.post("/api/reports", json={"table": code, "seat": 0, "reason": "screening"})
    assert r.status_code in (400, 422)
    # The player's own data has the tally (not the evidence); deleting the account removes it.
    data = cheater.get("/api/account/data").json()
    assert data["screening"]["verdict"] == "flag" and data["screening"]["deals"] == tally.deals
    gone = cheater.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    with store.session() as s:
        assert s.get(ScreeningTally, cheater_id) is None
        assert s.scalar(select(func.count()).select_from(ScreenedSeat)) == 0
        assert s.scalars(select(Report).where(Report.reason == "screening")).all() == []
        assert s.scalar(select(func.count()).select_from(ScreenedRoom)) == len(rooms)


def check_racing_writes(client: TestClient, url: str) -> None:
    """Four "processes" (each its own engine) write one room's screening: one does."""
    player = account(client, "Racer")
    player_id = me_id(player)
    code = rated_table(client, "mindi", {0: player}, bots="rules")
    registry_of(client).finished = None  # as if the process stopped before screening
    with seat_socket(player, code, None) as ws:
        play(ws, Scripted())
    store = store_of(client)
    assert code in screening.unscreened_rooms(store, 100)
    config = store.room(code)
    assert config is not None
    events = [(e.number, e.kind, dict(e.data)) for e in store.events(code)]
    deals, seats = screening.screen_events(code, config, events)
    assert deals == 1 and [(s.seat, s.player) for s in seats] == [(0, player_id)]
    engines = [make_engine(url) for _ in range(4)]
    try:
        stores = [Store(e) for e in engines]
        with ThreadPoolExecutor(4) as pool:
            wrote = list(pool.map(lambda st: screening.write(st, code, deals, seats), stores))
    finally:
        for e in engines:
            e.dispose()
    assert sorted(wrote) == [False, False, False, True]
    assert len(seats_of(store, code)) == 1
    with store.session() as s:
        tally = s.get(ScreeningTally, player_id)
        assert tally is not None and tally.deals == 1
    assert code not in screening.unscreened_rooms(store, 100)


def test_two_processes_write_a_room_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'race.db'}"
    with TestClient(make_app(url)) as c:
        check_racing_writes(c, url)


def test_two_processes_write_a_room_once_on_postgresql(postgres_url: str) -> None:
    with TestClient(make_app(postgres_url)) as c:
        check_racing_writes(c, postgres_url)


def test_a_full_queue_leaves_the_room_to_the_catch_up(tmp_path: Path) -> None:
    """No room waits (``screening_waiting=0``) and the worker is taken: a deal that ends is
    not dropped, the catch-up screens it."""
    with TestClient(make_app(f"sqlite:///{tmp_path / 'q.db'}", screening_waiting=0)) as c:
        player = account(c, "Queued")
        code = rated_table(c, "mindi", {0: player}, bots="rules")
        queue = screenings(c)
        assert c.portal is not None
        busy = c.portal.call(_occupy, queue)
        with seat_socket(player, code, None) as ws:
            play(ws, Scripted())
        settle(c)
        store = store_of(c)
        assert queue.deferred == 1 and code in screening.unscreened_rooms(store, 100)
        c.portal.call(_release, queue, busy)
        assert c.portal.call(queue.catch_up) == 1
        c.portal.call(queue.settle)
        assert screening.unscreened_rooms(store, 100) == []
        assert [(r.seat, r.player) for r in seats_of(store, code)] == [(0, me_id(player))]


async def _occupy(queue: screening.Screenings) -> Any:
    """Hold the worker's place (a room being screened) until :func:`_release`."""
    import asyncio

    gate = asyncio.Event()

    async def held() -> bool:
        await gate.wait()
        return False

    task = asyncio.get_running_loop().create_task(held())
    queue._rooms["held"] = task  # the queue's own bookkeeping: a room in its worker
    task.add_done_callback(lambda t: queue._done("held", t))
    return gate


async def _release(queue: screening.Screenings, gate: Any) -> None:
    gate.set()
    await queue.settle()


def log_of(
    config: TableConfig, seed: int, people: dict[int, str], by_bot: set[int]
) -> list[tuple[int, str, dict[str, Any]]]:
    """The log of a one-deal room played by rule-based players: ``people`` (seat: player
    id) at their seats, the moves of the seats in ``by_bot`` made by a computer player for
    the person (``"bot": true``), as the table writes them."""
    spec = config.spec
    match = spec.new_match(config.rules, 5)
    deal: Any = match.start_deal(seed=seed)
    players = [spec.make_bot("rules", seed=s) for s in range(4)]
    while not deal.is_over():
        seat = deal.turn
        deal.push(players[seat].choose(deal.view(seat)), seat=seat)
    events: list[tuple[str, dict[str, Any]]] = []
    for seat in range(4):
        if seat in people:
            events.append(("seat", {"seat": seat, "kind": "human", "player": people[seat]}))
        else:
            events.append(("seat", {"seat": seat, "kind": "bot"}))
    events.append(("start", {"match_seed": 5}))
    events.append(("deal", {"seed": seed, "commitment": "", "dealer": deal.dealer}))
    for seat, move in deal.history:
        events.append(("move", {"seat": seat, "move": str(move), "bot": seat in by_bot}))
    events.append(("deal_over", {}))
    events.append(("match_over", {}))
    return [(n, kind, data) for n, (kind, data) in enumerate(events, 1)]


def test_only_the_persons_own_moves_are_screened() -> None:
    """A person's moves a computer player made for them (their turn timed out) are not
    theirs: not screened; computer players' seats are never screened; Ganjifa is not."""
    spec = game_named("mindi")
    rules = spec.make_rules(POOLS["mindi"].preset, dict(POOLS["mindi"].options))
    config = TableConfig(rules, "classic", "rules", 30.0, "mindi", pool="mindi")
    events = log_of(config, 11, {0: "asha", 2: "ravi"}, by_bot={2})
    deals, seats = screening.screen_events("logroom1", config.to_dict(), events)
    assert deals == 1 and [(s.seat, s.player) for s in seats] == [(0, "asha"), (2, "ravi")]
    asha, ravi = seats
    assert asha.decisions > 0 and ravi.decisions == ravi.matters == ravi.hits == 0
    # Deterministic: the same log screens the same.
    assert screening.screen_events("logroom1", config.to_dict(), events)[1] == seats
    ganjifa = game_named("ganjifa")
    other = TableConfig(
        ganjifa.make_rules(POOLS["ganjifa"].preset, dict(POOLS["ganjifa"].options)),
        POOLS["ganjifa"].preset,
        "random",
        30.0,
        "ganjifa",
        pool="ganjifa",
    )
    assert screening.screen_events("logroom2", other.to_dict(), []) == (0, [])


def test_a_finished_challenge_deal_is_screened_by_the_catch_up(client: TestClient) -> None:
    """A daily challenge table's deal (the person at seat 0, the experts' seats not
    screened), finished while no process screened it: the catch-up finds and screens it."""
    player = account(client, "Daily")
    player_id = me_id(player)
    spec = game_named("mindi")
    rules = spec.make_rules("classic", dict(POOLS["mindi"].options))
    config = TableConfig(rules, "classic", "expert", None, "mindi", challenge="2026-12-07/3")
    store = store_of(client)
    code = "chal3scr"
    assert store.create_room(code, config.to_dict())
    for number, kind, data in log_of(config, 23, {0: player_id}, by_bot=set()):
        store.append(code, number, kind, data)
    assert code in screening.unscreened_rooms(store, 100)
    queue = screenings(client)
    assert client.portal is not None
    assert client.portal.call(queue.catch_up) == 1
    client.portal.call(queue.settle)
    assert [(r.seat, r.player, r.deal) for r in seats_of(store, code)] == [(0, player_id, 1)]
    assert screening.unscreened_rooms(store, 100) == []


def migrate_to(url: str, revision: str) -> None:
    """The database at ``revision`` of the migrations (as :func:`migrate` takes it to the
    newest)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(config, revision)


def check_rescreened_after_the_chance_migration(url: str) -> None:
    """A challenge room screened under the former test (fixed rates p0, p1; migration
    0005) loses its screening at migration 0006, its tally with it (the moderators' report
    stays), and the server's catch-up screens it again under the chance-adjusted test."""
    migrate_to(url, "0005")
    engine = make_engine(url)
    try:
        store = Store(engine)
        with store.session() as s:
            s.add(Player(id="p" * 32, name="Old"))
            s.commit()
        spec = game_named("mindi")
        rules = spec.make_rules("classic", dict(POOLS["mindi"].options))
        config = TableConfig(rules, "classic", "expert", None, "mindi", challenge="2026-12-07/1")
        code = "chal1old"
        assert store.create_room(code, config.to_dict())
        for number, kind, data in log_of(config, 29, {0: "p" * 32}, by_bot=set()):
            store.append(code, number, kind, data)
        at = now()
        old = {"room": code, "player": "p" * 32, "at": at}
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO screened_rooms (room, deals, screened_at) VALUES (:room, 1, :at)"
                ),
                old,
            )
            conn.execute(
                text(
                    "INSERT INTO screened_seats (room, deal, seat, player, decisions, matters,"
                    " hits, unjudged, evidence, screened_at) VALUES (:room, 1, 0, :player, 9, 2,"
                    " 2, 0, '[]', :at)"
                ),
                old,
            )
            conn.execute(
                text(
                    "INSERT INTO screening_tallies (player, matters, hits, llr, peak, deals, p0,"
                    " p1, verdict, updated_at) VALUES (:player, 20, 19, 7.5, 7.5, 30, 0.6, 0.95,"
                    " 'flag', :at)"
                ),
                old,
            )
        with store.session() as s:
            s.add(Report(reporter=None, reported="p" * 32, room=code, reason="screening"))
            s.commit()
        assert screening.unscreened_rooms(store, 100) == []
    finally:
        engine.dispose()

    migrate(url)
    with TestClient(make_app(url)) as c:  # its catch-up runs at start
        store = store_of(c)
        with store.session() as s:
            assert s.scalar(select(func.count()).select_from(Report)) == 1  # kept
        queue = screenings(c)
        assert c.portal is not None
        for _ in range(50):
            c.portal.call(queue.catch_up)
            c.portal.call(queue.settle)
            if not screening.unscreened_rooms(store, 100):
                break
        else:
            pytest.fail("the catch-up did not screen the room again")
        [row] = seats_of(store, code)
        config_now = store.room(code)
        assert config_now is not None
        events = [(e.number, e.kind, dict(e.data)) for e in store.events(code)]
        _, [again] = screening.screen_events(code, config_now, events)
        assert (row.seat, row.player, row.matters, row.hits) == (
            0,
            "p" * 32,
            again.matters,
            again.hits,
        )
        assert row.llr == pytest.approx(again.llr)
        with store.session() as s:
            tally = s.get(ScreeningTally, "p" * 32)
            assert tally is not None
            # Only the new screening: the former tally (30 deals, flagged) is gone.
            assert (tally.deals, tally.matters, tally.hits) == (1, row.matters, row.hits)
            assert tally.llr == pytest.approx(row.llr)
            assert tally.verdict == "clear"  # one honest deal under the new test


def test_a_room_screened_before_the_chance_migration_is_screened_again(tmp_path: Path) -> None:
    check_rescreened_after_the_chance_migration(f"sqlite:///{tmp_path / 'old.db'}")


def test_a_room_screened_before_the_chance_migration_is_screened_again_on_postgresql(
    postgres_url: str,
) -> None:
    check_rescreened_after_the_chance_migration(postgres_url)


def test_closing_stops_a_worker_in_the_middle_of_a_screening(tmp_path: Path) -> None:
    """The server's exit does not wait for a screening under way (at nice 10 on a busy
    machine one took minutes, the server's workers outliving it): the worker is stopped, and
    the room is left to the catch-up."""
    store = Store(make_engine(f"sqlite:///{tmp_path / 'close.db'}"))
    screenings = screening.Screenings(store, workers=1)
    pool = screenings._executor()
    busy = pool.submit(time.sleep, 600)  # a screening that will not end soon
    worker = next(iter(pool._processes.values()))
    give_up = time.monotonic() + 120
    while not busy.running():
        assert time.monotonic() < give_up, "the worker never started"
        time.sleep(0.05)
    closing = threading.Thread(target=screenings.close)
    closing.start()
    closing.join(timeout=60)
    assert not closing.is_alive(), "close() waited for the screening under way"
    assert not worker.is_alive()
