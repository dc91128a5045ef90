"""The arena: bot against bot in duplicate, so that the luck of the cards cancels out, for
every game that offers it: the game's arena facet (:class:`hukum.game.ArenaFacet`) says how
it seats the bots and scores the plays; a game without one is refused (:func:`arena_of`).

Each deal (a one-deal match from a seed) is played several times from the same seed, the
bots changing seats between plays, so each bot holds each set of hands once, from the same
seats, with the same dealer. In Mindi a deal is played twice: bot A in the even seats
(team 0) and bot B in the odd seats (team 1), then swapped. In Ganjifa bot A plays alone
against two of bot B, three times, at seat 0, 1 and 2.

**Who wins a duplicate deal** is the game's rule (:meth:`~hukum.game.ArenaFacet.duplicate_score`).
In Mindi bot A wins it if it won more of the two plays; at one play each, if its tens over
both plays are more than B's; then if its match points over both plays (win 1, mendikot 2,
whitewash 3 by default) are more; then its tricks over both plays. If all of those are
level the duplicate deal is a tie, counted as half a win for each. In Ganjifa A wins it if
it captured more than 120 cards over its three plays (a third of the cards played), ties at
120. The win rate is A's wins (ties half) over the deals, with a 95% Wilson interval.

**A results file** (``results=``, ``hukum arena --results FILE``) keeps each deal's result
as it finishes, one JSON line after a first line naming the run (game, bots, options,
rules, seed). A run started again with the same file plays only the deals it lacks, so a
long run cut off (a closed laptop, a killed process) goes on where it stopped, and a run
split in parts gives the report of the whole from the file. A file of another run is
refused, and a last line left half written by a killed run is dropped (that deal is
played again). Each deal's line notes the code that played it (:func:`code_digest`), and
the report says how many deals read back were played by other code than the run's. While
a run uses the file no other run may (a second is refused). Two runs of the same deals
are compared deal by deal from their results files with :func:`compare` (``hukum
compare``): a paired difference, far narrower than the two win rates' intervals where the
runs score most deals alike.

>>> from hukum.mindi import Rules
>>> report = run_arena("rules", "random", deals=2, rules=Rules(), seed=1, workers=1)
>>> report.deals, len(report.plays)
(2, 4)
>>> from hukum import ganjifa
>>> report = run_arena("rules", "random", 1, ganjifa.Rules(), seed=1, game="ganjifa")
>>> report.deals, len(report.plays), sum(report.plays[0].scores)
(1, 3, 120)
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
import os
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field, fields
from functools import cache, partial
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # Windows: no advisory lock
    fcntl = None  # type: ignore[assignment]

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from hukum import records
from hukum.game import AnyGame, ArenaFacet, NotOfferedError, Player
from hukum.games import game_named
from hukum.play import play_deal

__all__ = [
    "ArenaReport",
    "Comparison",
    "DuplicateResult",
    "Entrant",
    "ResultsFile",
    "arena_of",
    "check_run",
    "code_digest",
    "compare",
    "format_comparison",
    "format_report",
    "package_digest",
    "play_duplicate",
    "read_results",
    "run_arena",
    "wilson",
]


@dataclass(frozen=True)
class DuplicateResult:
    """The plays of one deal (the game's play results, from bot A's side) and the
    decision times of each bot in them (seconds)."""

    deal: int
    plays: tuple[Any, ...]
    times_a: tuple[float, ...]
    times_b: tuple[float, ...]


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion ``successes / n``."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return lo, hi


def _percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0 … 1) of ``values`` by the nearest-rank method; 0 if empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class ArenaReport:
    """The results of an arena run and the figures computed from them."""

    game: str
    bot_a: str
    bot_b: str
    rules: Any
    seed: int
    results: tuple[DuplicateResult, ...]
    wall_seconds: float = 0.0
    record_dir: str | None = None
    results_file: str | None = None
    resumed: int = 0
    """Deals read from the results file, not played in this run."""
    other_code: int = 0
    """Of those, the deals whose line names other code than this run's (:func:`code_digest`)."""
    options_a: dict[str, Any] = field(default_factory=dict)
    """Bot A's options (``--a``)."""
    options_b: dict[str, Any] = field(default_factory=dict)
    """Bot B's options (``--b``)."""

    def matchup(self) -> str:
        """``A vs B``, each bot with its options: ``expert (draws=3) vs search``."""

        def named(bot: str, options: dict[str, Any]) -> str:
            given = ", ".join(f"{k}={v}" for k, v in options.items())
            return f"{bot} ({given})" if given else bot

        return f"{named(self.bot_a, self.options_a)} vs {named(self.bot_b, self.options_b)}"

    @property
    def plays(self) -> list[Any]:
        """Every play of every deal, in order."""
        return [p for r in self.results for p in r.plays]

    @property
    def score(self) -> float:
        """Bot A's duplicate deals won, ties counting half."""
        spec = game_named(self.game)
        return sum(arena_of(spec).duplicate_score(r.plays) for r in self.results)

    @property
    def deals(self) -> int:
        """Number of duplicate deals played."""
        return len(self.results)

    @property
    def first_deal(self) -> int:
        """The number of the first deal played (deals are numbered from 0 within a seed)."""
        return min((r.deal for r in self.results), default=0)

    def heading(self) -> str:
        """``N duplicate deals``, with ``from deal K`` if the first deal is not deal 0."""
        first = f" from deal {self.first_deal}" if self.first_deal else ""
        return f"{self.deals} duplicate deals{first}"

    @property
    def win_rate(self) -> float:
        """Bot A's duplicate win rate."""
        return self.score / self.deals if self.deals else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the duplicate win rate."""
        return wilson(self.score, self.deals)

    def times(self, side: str) -> list[float]:
        """Every decision time of side ``A`` or ``B``, in seconds."""
        return [t for r in self.results for t in (r.times_a if side == "A" else r.times_b)]

    def time_stats(self, side: str) -> tuple[float, float, float]:
        """Decision time p50, p95 and max of side ``A`` or ``B``, in seconds."""
        t = self.times(side)
        return _percentile(t, 0.5), _percentile(t, 0.95), max(t, default=0.0)


#: A bot of the arena: a bot's name, or a function from a seed to a player (e.g. an
#: external policy, :meth:`hukum.envs.agents.PolicyPlayer.factory`); such a function must
#: be picklable when ``workers > 1``, and its ``name`` attribute names it in the report.
Entrant = str | Callable[[int], Player[Any, Any]]


RESULTS_FORMAT = "hukum-arena-results"


#: The parts of the package that do not change how bots play (left out of :func:`code_digest`).
_NOT_PLAY = ("cli", "envs", "server", "terminal")


def _code(path: Path) -> bytes:
    """What of a source file can change play: a Python file's syntax tree without its
    comments, docstrings and layout (the file as it is if it does not parse); another
    file's bytes."""
    data = path.read_bytes()
    if path.suffix != ".py":
        return data
    try:
        tree = ast.parse(data, filename=str(path))
    except SyntaxError:
        return data
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                code = [s for s in block if not _is_text(s)]
                setattr(node, name, code or [ast.Pass()])
    return ast.dump(tree).encode()


def _is_text(statement: ast.stmt) -> bool:
    """A statement that is a string alone: a docstring, or an attribute's after it."""
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def package_digest(root: Path) -> str:
    """A digest of the play code of the package at ``root``: its Python files' syntax trees
    (comments, docstrings and layout do not count) and its models, but not the parts in
    which play does not happen (``cli``, ``envs``, ``server``, ``terminal``)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        part = path.relative_to(root)
        if path.suffix in (".py", ".npz") and part.parts[0] not in _NOT_PLAY:
            digest.update(part.as_posix().encode() + b"\0" + _code(path))
    return digest.hexdigest()[:16]


@cache
def code_digest() -> str:
    """The :func:`package_digest` of hukum (the engine, the bots, their model, the arena):
    two runs with the same digest ran the same code. A results file notes it on every deal's
    line, so a run resumed after the code changed says so."""
    return package_digest(Path(__file__).resolve().parent)


def _head(path: str | os.PathLike[str], line: str) -> dict[str, Any]:
    """A results file's first line, naming its run; ValueError if it is not one."""
    try:
        head = json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: line 1: not an arena results file ({e})") from None
    if not isinstance(head, dict) or head.get("format") != RESULTS_FORMAT:
        raise ValueError(f"{path}: line 1: not an arena results file")
    return head


class ResultsFile:
    """An arena run's results file: a first line naming the run, then one line per deal
    (see the module documentation). Reading checks that the file is of this run."""

    def __init__(self, path: str | os.PathLike[str], run: dict[str, Any], game: str) -> None:
        self.path = Path(path)
        # As it reads back from JSON (tuples become lists), so that it compares equal.
        self.run = json.loads(json.dumps({"format": RESULTS_FORMAT, "version": 1, **run}))
        self.play_type = arena_of(game_named(game)).play_type
        #: The deals read whose line names other code than this (or none: written before
        #: lines named it), by :func:`code_digest`.
        self.other_code: set[int] = set()
        self._held: IO[str] | None = None

    def read(self) -> dict[int, DuplicateResult]:
        """The deals' results in the file (none if there is no file); ValueError, the file
        unchanged, if it is another run's or a whole line of it is not a result."""
        if not self.path.exists():
            return {}
        try:
            text = self.path.read_text(encoding="utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"{self.path}: not an arena results file ({e})") from None
        whole = text.split("\n")[:-1]  # after the last newline: a line left half written
        if not whole:
            return {}
        head = _head(self.path, whole[0])
        if head != self.run:
            keys = self.run.keys() | head.keys()
            differ = sorted(k for k in keys if head.get(k) != self.run.get(k))
            raise ValueError(
                f"{self.path} holds the results of another run ({', '.join(differ)} "
                "differ): give another file, or the run's own bots, options, rules and seed"
            )
        results = {}
        self.other_code = set()
        for number, line in enumerate(whole[1:], start=2):
            try:
                data = json.loads(line)
                result = self._result(data)
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
                raise ValueError(f"{self.path}: line {number}: not a deal's result ({e})") from None
            results[result.deal] = result
            if data.get("code") != code_digest():
                self.other_code.add(result.deal)
        return results

    def _result(self, data: dict[str, Any]) -> DuplicateResult:
        names = {f.name for f in fields(self.play_type)}
        plays = []
        for play in data["plays"]:
            if set(play) != names:
                raise ValueError(f"a play has the fields {sorted(play)}, not {sorted(names)}")
            values = {k: tuple(v) if isinstance(v, list) else v for k, v in play.items()}
            plays.append(self.play_type(**values))
        return DuplicateResult(
            int(data["deal"]),
            tuple(plays),
            tuple(float(t) for t in data["times_a"]),
            tuple(float(t) for t in data["times_b"]),
        )

    def lock(self) -> None:
        """Hold the file for this run until the process ends or :meth:`unlock`: another run
        on the same file at the same time is refused (ValueError) instead of both writing.
        (An advisory lock where the system has one, POSIX ``flock``.)"""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a", encoding="utf-8")
        if fcntl is not None:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.close()
                raise ValueError(
                    f"{self.path} is in use by another arena run: wait for it to end, or give "
                    "another file"
                ) from None
        self._held = handle

    def unlock(self) -> None:
        """Let other runs use the file."""
        handle = self._held
        if handle is not None:
            handle.close()  # closing releases the lock
            self._held = None

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.unlock()

    def start(self) -> None:
        """Make the file ready to add to: its first line if it is new; a last line left
        half written dropped."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.run) + "\n", encoding="utf-8")
            return
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            with self.path.open("r+b") as f:
                f.truncate(end)

    def add(self, results: Sequence[DuplicateResult]) -> None:
        """Append deals' results, a line each."""
        lines = "".join(
            json.dumps(
                {
                    "deal": r.deal,
                    "plays": [asdict(p) for p in r.plays],
                    "times_a": [round(t, 6) for t in r.times_a],
                    "times_b": [round(t, 6) for t in r.times_b],
                    "code": code_digest(),
                }
            )
            + "\n"
            for r in results
        )
        with self.path.open("a", encoding="utf-8") as f:
            f.write(lines)


def entrant_name(entrant: Entrant) -> str:
    """How an entrant is named in a report."""
    if isinstance(entrant, str):
        return entrant
    return str(getattr(entrant, "name", getattr(entrant, "__name__", "policy")))


def arena_of(spec: AnyGame) -> ArenaFacet[Any, Any]:
    """The game's arena facet; NotOfferedError if the game has none (its bots cannot meet
    in the arena)."""
    if spec.arena is None:
        raise NotOfferedError(f"{spec.title} is not offered in the arena: it has no arena facet")
    return spec.arena


def play_duplicate(
    bot_a: Entrant,
    bot_b: Entrant,
    rules: Any,
    seed: int,
    number: int,
    options_a: dict[str, Any] | None = None,
    options_b: dict[str, Any] | None = None,
    record_dir: str | None = None,
    game: str = "mindi",
) -> DuplicateResult:
    """Play deal ``number`` of an arena run once for each of the game's seatings."""
    spec = game_named(game)
    match_seed = spec.deal_seed(seed, number)
    arena = arena_of(spec)
    one = arena.one_deal(rules)
    options = {"A": options_a or {}, "B": options_b or {}}
    names: dict[str, Entrant] = {"A": bot_a, "B": bot_b}
    plays: list[Any] = []
    times: dict[str, list[float]] = {"A": [], "B": []}
    for index, sides in enumerate(arena.seatings(rules)):
        play_seed = spec.deal_seed(match_seed, 100 + index)
        players: dict[int, Player[Any, Any]] = {}
        side_of: dict[int, str] = {}
        for side in sides:
            entrant, seed_of_bot = names[side.bot], play_seed + side.seed_offset
            bot = (
                spec.make_bot(entrant, seed=seed_of_bot, **options[side.bot])
                if isinstance(entrant, str)
                else entrant(seed_of_bot)
            )
            for seat in side.seats:
                players[seat] = bot
                side_of[seat] = side.bot
        match = spec.new_match(one, seed=match_seed)
        deal = match.start_deal()
        play_deal(deal, players, partial(_add_time, times, side_of))
        a_seats = next(side.seats for side in sides if side.bot == "A")
        plays.append(arena.play(number, a_seats, deal))
        if record_dir is not None:
            records.save(match, Path(record_dir) / f"deal{number:05d}-{chr(65 + index)}.json")
    return DuplicateResult(number, tuple(plays), tuple(times["A"]), tuple(times["B"]))


def _add_time(
    times: dict[str, list[float]], side_of: dict[int, str], seat: int, _: object, seconds: float
) -> None:
    times[side_of[seat]].append(seconds)


def _chunk(
    args: tuple[Entrant, Entrant, Any, int],
    numbers: Sequence[int],
    options_a: dict[str, Any] | None,
    options_b: dict[str, Any] | None,
    record_dir: str | None,
    game: str,
) -> list[DuplicateResult]:
    return [play_duplicate(*args, n, options_a, options_b, record_dir, game) for n in numbers]


def _chunks(numbers: Sequence[int], size: int) -> Iterator[list[int]]:
    """The deal numbers in runs of ``size``."""
    for start in range(0, len(numbers), size):
        yield list(numbers[start : start + size])


def check_run(deals: int, workers: int, first_deal: int) -> None:
    """Refuse an arena run that cannot be played (ValueError, with the reason)."""
    if deals < 1:
        raise ValueError("the arena needs at least one deal")
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if first_deal < 0:
        raise ValueError(f"first_deal={first_deal}: deals are numbered from 0")


def run_arena(
    bot_a: Entrant,
    bot_b: Entrant,
    deals: int,
    rules: Any,
    seed: int,
    workers: int = 1,
    *,
    game: str = "mindi",
    options_a: dict[str, Any] | None = None,
    options_b: dict[str, Any] | None = None,
    record_dir: str | os.PathLike[str] | None = None,
    progress: bool = False,
    chunk: int | None = None,
    first_deal: int = 0,
    results: str | os.PathLike[str] | None = None,
) -> ArenaReport:
    """Play ``deals`` duplicate deals of ``game`` of bot A against bot B and gather the
    report: the deals numbered ``first_deal`` on of the ``seed`` (so a long run can be split
    in parts whose results are those of the whole run). A bot is a bot's name or an
    :data:`Entrant` function (an external policy). With ``results``, a results file: the
    deals already in it are read, not played again, and each deal played is added to it."""
    check_run(deals, workers, first_deal)
    spec = game_named(game)
    arena_of(spec)  # a game the arena cannot play is refused before anything starts
    for entrant, options in ((bot_a, options_a), (bot_b, options_b)):
        if isinstance(entrant, str):  # a bad name or option fails here, not in a worker
            spec.make_bot(entrant, **(options or {}))
    wanted = range(first_deal, first_deal + deals)
    rec = None
    if record_dir is not None:  # before the results file is held: nothing fails in between
        rec = str(record_dir)
        Path(rec).mkdir(parents=True, exist_ok=True)
    kept: dict[int, DuplicateResult] = {}
    store = None
    other_code = 0
    if results is not None:
        if not (isinstance(bot_a, str) and isinstance(bot_b, str)):
            raise ValueError("a results file needs the bots given by name")
        run = {
            "game": game,
            "bot_a": bot_a,
            "bot_b": bot_b,
            "options_a": options_a or {},
            "options_b": options_b or {},
            "rules": spec.rules_to_dict(rules),
            "seed": seed,
        }
        store = ResultsFile(results, run, game)
        code_digest()  # the code as the run starts, before anyone edits it
        store.lock()
        try:
            kept = {n: r for n, r in store.read().items() if n in wanted}
            store.start()
        except BaseException:  # not another run's file, or unreadable: let it go
            store.unlock()
            raise
        other_code = len(store.other_code & kept.keys())
    todo = [n for n in wanted if n not in kept]
    size = chunk or max(1, min(20, len(todo) // (workers * 8) or 1))
    if store is not None and chunk is None:
        size = min(size, 2)  # a deal's result is kept when its chunk ends: lose little to a kill
    start = time.perf_counter()
    done: list[DuplicateResult] = list(kept.values())
    bar = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        disable=not progress,
        transient=False,
    )
    with bar, store or nullcontext():  # the file is let go when the run ends, or fails
        name_a, name_b = entrant_name(bot_a), entrant_name(bot_b)
        task = bar.add_task(arena_of(spec).title(name_a, name_b), total=deals)
        bar.advance(task, len(kept))
        args = (bot_a, bot_b, rules, seed)

        def finished(part: list[DuplicateResult]) -> None:
            done.extend(part)
            if store is not None:
                store.add(part)
            bar.advance(task, len(part))

        if workers == 1:
            for numbers in _chunks(todo, size):
                finished(_chunk(args, numbers, options_a, options_b, rec, game))
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = [
                    pool.submit(_chunk, args, numbers, options_a, options_b, rec, game)
                    for numbers in _chunks(todo, size)
                ]
                for future in as_completed(futures):
                    finished(future.result())
    done.sort(key=lambda r: r.deal)
    return ArenaReport(
        game,
        name_a,
        name_b,
        rules,
        seed,
        tuple(done),
        wall_seconds=time.perf_counter() - start,
        record_dir=rec,
        results_file=None if results is None else str(results),
        resumed=len(kept),
        other_code=other_code,
        options_a=dict(options_a or {}),
        options_b=dict(options_b or {}),
    )


def read_results(path: str | os.PathLike[str]) -> ArenaReport:
    """The report of a results file as it stands, its run named by its first line, without
    playing; ValueError if it is not an arena results file (or names an unknown game)."""
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: not an arena results file ({e})") from None
    head = _head(path, first)
    run = {k: v for k, v in head.items() if k not in ("format", "version")}
    try:
        spec = game_named(str(run["game"]))
        rules = spec.rules_from_dict(run["rules"])
        names = (str(run["bot_a"]), str(run["bot_b"]), int(run["seed"]))
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"{path}: line 1: not an arena run ({e})") from None
    store = ResultsFile(path, run, spec.name)
    results = store.read()
    return ArenaReport(
        spec.name,
        names[0],
        names[1],
        rules,
        names[2],
        tuple(results[n] for n in sorted(results)),
        results_file=str(path),
        resumed=len(results),
        other_code=len(store.other_code),
        options_a=dict(run.get("options_a") or {}),
        options_b=dict(run.get("options_b") or {}),
    )


@dataclass(frozen=True)
class Comparison:
    """Two arena runs on the same deals, compared deal by deal: bot A's duplicate score in
    each (1 won, ½ tied, 0 lost) over the deals both played. Two versions of one bot against
    the same opponent often play many deals alike, so the difference of the paired scores
    is known much more closely than the two win rates' own intervals say."""

    deals: int
    """Deals in both runs."""
    base: float
    """The first run's win rate over those deals."""
    other: float
    """The second run's win rate over those deals."""
    differ: int
    """Deals whose duplicate score is not the same in the two runs."""
    spread: float
    """The standard deviation of the per-deal differences (other − base)."""

    @property
    def difference(self) -> float:
        """The second run's win rate less the first's."""
        return self.other - self.base

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of :attr:`difference` (normal, from the per-deal differences)."""
        half = 1.959964 * self.spread / math.sqrt(self.deals) if self.deals > 1 else 1.0
        return self.difference - half, self.difference + half


def compare(base: ArenaReport, other: ArenaReport) -> Comparison:
    """``other`` against ``base`` over the deals both played (see :class:`Comparison`);
    ValueError if they are not of the same deals (game, rules and seed) or share none."""
    differ = [
        f"{name} ({a} and {b})"
        for name, a, b in (("game", base.game, other.game), ("seed", base.seed, other.seed))
        if a != b
    ]
    if not differ and base.rules != other.rules:
        differ.append("rules")
    if differ:
        raise ValueError(f"the runs are not of the same deals: {', '.join(differ)} differ")
    spec = game_named(base.game)
    mine = {r.deal: arena_of(spec).duplicate_score(r.plays) for r in base.results}
    theirs = {r.deal: arena_of(spec).duplicate_score(r.plays) for r in other.results}
    common = sorted(mine.keys() & theirs.keys())
    if not common:
        raise ValueError("the runs have no deal in common")
    n = len(common)
    steps = [theirs[d] - mine[d] for d in common]
    spread = statistics.stdev(steps) if n > 1 else 0.0
    return Comparison(
        deals=n,
        base=sum(mine[d] for d in common) / n,
        other=sum(theirs[d] for d in common) / n,
        differ=sum(1 for x in steps if x),
        spread=spread,
    )


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 0.1 else f"{seconds * 1000:.0f} ms"


def format_report(report: ArenaReport) -> Table:
    """The report as a Rich table: the win rate, the game's own figures, decision times."""
    spec = game_named(report.game)
    lo, hi = report.interval
    plays = len(report.results[0].plays) if report.results else 0
    each = f" ({plays} plays each)" if plays > 2 else ""
    title = f"{arena_of(spec).title(report.bot_a, report.bot_b)}: {report.heading()}{each}, "
    table = Table(title=f"{title}seed {report.seed}", show_header=True)
    table.add_column("figure")
    table.add_column(f"A: {report.bot_a}", justify="right")
    table.add_column(f"B: {report.bot_b}", justify="right")
    table.add_row(
        "duplicate win rate (ties ½)",
        f"{report.win_rate:.1%} [{lo:.1%}, {hi:.1%}]",
        f"{1 - report.win_rate:.1%}",
    )
    for row in arena_of(spec).rows(report.plays):
        table.add_row(*row)
    for i, label in enumerate(("decision time p50", "decision time p95", "decision time max")):
        table.add_row(label, _ms(report.time_stats("A")[i]), _ms(report.time_stats("B")[i]))
    rules = spec.describe_rules(report.rules) or spec.default_preset
    table.caption = f"rules: {rules}; {report.wall_seconds:.0f} s"
    if report.record_dir:
        table.caption += f"; records in {report.record_dir}"
    if report.results_file:
        read = f", {report.resumed} deals read from it" if report.resumed else ""
        if report.other_code:
            read += (
                f" ({report.other_code} of them played by other code than this: hukum's "
                "engine or bots changed since, or a file from before versions were noted)"
            )
        table.caption += f"; results in {report.results_file}{read}"
    return table


def format_comparison(base: ArenaReport, others: Sequence[ArenaReport]) -> Table:
    """Each of ``others`` against ``base``, deal by deal (:func:`compare`), as a Rich table."""
    spec = game_named(base.game)
    title = f"against {base.results_file or 'the first run'}: {base.matchup()}"
    table = Table(title=f"{spec.title} arena runs compared deal by deal {title}")
    for label in ("run", "A vs B", "deals in both", "first run", "this run"):
        table.add_column(label, justify="left" if label in ("run", "A vs B") else "right")
    table.add_column("difference [95%]", justify="right")
    table.add_column("deals scored otherwise", justify="right")
    for other in others:
        c = compare(base, other)
        lo, hi = c.interval
        table.add_row(
            other.results_file or "",
            other.matchup(),
            str(c.deals),
            f"{c.base:.1%}",
            f"{c.other:.1%}",
            f"{c.difference:+.1%} [{lo:+.1%}, {hi:+.1%}]",
            str(c.differ),
        )
    table.caption = (
        "bot A's duplicate win rate (ties ½) over the deals both runs played; the difference's "
        "interval is paired: a deal scored alike in both runs adds nothing to it"
    )
    return table
