"""The OpenSpiel games (hukum.envs.openspiel): loaded by name with parameters, OpenSpiel's own
random simulation test for every Mindi preset, more seats and Ganjifa, an OpenSpiel
algorithm (IS-MCTS) playing whole deals, resampling from an information state, no hidden
card in a player's tensors, illegal actions refused with nothing changed, and seeds giving
hukum's own deals."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from hukum.encoding import ActionError
from hukum.envs.agents import BotAgent
from hukum.envs.core import EnvGame
from hukum.envs.openspiel import HukumState, game_class, game_name, load
from hukum.game import GameError, NotOfferedError, RulesError
from hukum.games import GAMES
from tests.toygame import SPEC as TOY

#: (game, preset, options): every Mindi preset, more seats, open hukum, Ganjifa by day and
#: by night.
CASES: list[tuple[str, str | None, dict[str, Any]]] = [
    *(("mindi", preset, {}) for preset in GAMES["mindi"].presets),
    ("mindi", "classic", {"players": 6, "deck": 48}),
    ("mindi", "hidden", {"players": 8, "deck": 48, "reveal": "on_request"}),
    ("mindi", "classic", {"trump": "open"}),
    ("ganjifa", None, {"time": "day"}),
    ("ganjifa", None, {"time": "night", "dukal": "either"}),
]


def _id(case: tuple[str, str | None, dict[str, Any]]) -> str:
    game, preset, options = case
    return "-".join([game, preset or "default", *(f"{k}={v}" for k, v in options.items())])


def _random_state(game: Any, rng: random.Random, actions: int) -> Any:
    """A state of ``game`` after ``actions`` random actions (chance outcomes included)."""
    state = game.new_initial_state()
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _hidden_hands(state: Any, player: int) -> list[str]:
    """The hands of the seats other than ``player`` (what ``player`` must not see)."""
    play = state.play
    return [str(play.view(s).hand) for s in range(play.game.players) if s != player]


# ---------------------------------------------------------------------- loading


def test_games_load_by_name_with_parameters() -> None:
    game = pyspiel.load_game("python_hukum_mindi(preset=hidden)")
    assert (game.num_players(), game.num_distinct_actions()) == (4, 109)
    assert game.get_type().short_name == game_name("mindi") == "python_hukum_mindi"
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    six = pyspiel.load_game('python_hukum_mindi(options={"players":6;"deck":48},reward=points)')
    assert six.num_players() == 6 and six.max_utility() == 3.0
    same = pyspiel.load_game("python_hukum_mindi", {"options": '{"players": 6, "deck": 48}'})
    assert same.num_players() == 6
    assert pyspiel.load_game(str(six)).num_players() == 6  # the game's own string loads
    assert load("mindi", options={"players": 8, "deck": 48}).num_players() == 8
    ganjifa = load("ganjifa", options={"time": "night"})
    assert (ganjifa.num_players(), ganjifa.num_distinct_actions()) == (3, 960)
    assert ganjifa.get_type().min_num_players == ganjifa.get_type().max_num_players == 3
    mindi_type = game.get_type()
    assert (mindi_type.min_num_players, mindi_type.max_num_players) == (4, 8)


@pytest.mark.parametrize(
    ("name", "error", "listed"),
    [
        ("python_hukum_mindi(preset=nope)", RulesError, "classic, hidden"),
        ('python_hukum_mindi(options={"colour":1})', RulesError, "players, deck"),
        ('python_hukum_mindi(options={"players":5})', RulesError, "4, 6 or 8"),
        ("python_hukum_mindi(reward=money)", RulesError, "win, points"),
        ("python_hukum_mindi(options=[1])", RulesError, "JSON object"),
        ("python_hukum_mindi(colour=1)", pyspiel.SpielError, "options, preset, reward, seed"),
    ],
)
def test_unknown_names_are_refused_with_the_valid_ones(name, error, listed) -> None:
    with pytest.raises(error, match=listed):
        pyspiel.load_game(name)


def test_load_refuses_an_unknown_game_preset_or_option() -> None:
    with pytest.raises(GameError, match="mindi, ganjifa"):
        load("chess")
    with pytest.raises(RulesError, match="classic"):
        load("mindi", preset="nope")
    with pytest.raises(RulesError, match="players"):
        load("mindi", options={"players": 7})


# ---------------------------------------------------------------------- OpenSpiel's tests


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_openspiel_random_simulation_test_passes(case) -> None:
    game, preset, options = case
    pyspiel.random_sim_test(load(game, preset, options), num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize(
    "name",
    ["python_hukum_mindi(preset=hidden)", "python_hukum_ganjifa(seed=3)"],
)
def test_random_simulation_with_serialized_states(name: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=1, serialize=True, verbose=False)


def test_a_state_and_a_resampled_one_survive_serialization() -> None:
    game = load("mindi", "hidden", seed=4)
    rng = random.Random(2)
    state = _random_state(game, rng, 20)
    for one in (state, state.resample_from_infostate(1, rng.random)):
        _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, one))
        assert str(back) == str(one) and back.history() == one.history()
        assert back.information_state_string(1) == one.information_state_string(1)


@pytest.mark.parametrize(
    ("game", "preset", "simulations"),
    [("mindi", "hidden", 20), ("mindi", "dehla-pakad", 20), ("ganjifa", None, 10)],
)
def test_ismcts_plays_a_whole_deal_against_random_players(game, preset, simulations) -> None:
    spiel_game = load(game, preset)
    bot = ismcts.ISMCTSBot(
        spiel_game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(2),
    )
    rng = np.random.RandomState(3)
    state = spiel_game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert searched >= 10
    assert sum(state.returns()) == pytest.approx(0) and any(state.returns())


# ---------------------------------------------------------------------- chance nodes


def test_chance_nodes_deal_the_dealer_the_shown_card_and_every_card() -> None:
    game = load("mindi", options={"trump": "open"})
    state = game.new_initial_state()
    slots, n = game.card_slots, game.num_players()
    assert game.max_chance_outcomes() == 2 * slots + n
    assert state.chance_outcomes() == [(slots + s, 0.25) for s in range(n)]
    state.apply_action(slots + 2)  # dealer 2
    shown = state.chance_outcomes()
    assert len(shown) == 52 and state.action_to_string(shown[0][0]) == "show 2C"
    state.apply_action(slots + n + 51)  # AS shown to all
    order = random.Random(5).sample(range(52), 52)
    for i, card in enumerate(order):
        assert state.is_chance_node() and len(state.chance_outcomes()) == 52 - i
        assert state.chance_outcomes()[0][1] == pytest.approx(1 / (52 - i))
        state.apply_action(card)
    assert not state.is_chance_node()
    deal = state.play.deal
    enc = state.play.game.encoding
    assert deal.dealer == 2 and enc.card_index(deal.shown_card) == 51
    assert [[enc.card_index(c) for c in hand] for hand in deal.dealt] == [
        order[13 * s : 13 * (s + 1)] for s in range(n)
    ]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal 2C"
    assert state.action_to_string(0, 0) == "play 2C"  # the same id, a player's action


def test_a_seed_gives_hukums_own_deal_without_chance_nodes() -> None:
    for seed in (0, 7, 123):
        state = load("mindi", "classic", seed=seed).new_initial_state()
        assert not state.is_chance_node() and state.history() == []
        rules = GAMES["mindi"].make_rules("classic")
        dealer = random.Random(seed).randrange(4)  # as EnvGame.new_play picks it
        deal = GAMES["mindi"].new_deal(rules, dealer, seed)
        assert state.play.deal.dealer == dealer
        assert [state.view(s).hand for s in range(4)] == [deal.view(s).hand for s in range(4)]
        assert str(state) == EnvGame("mindi", "classic").new_play(seed=seed).describe()
    ganjifa = load("ganjifa", seed=5).new_initial_state()
    assert str(ganjifa) == EnvGame("ganjifa").new_play(seed=5).describe()


# ---------------------------------------------------------------------- actions


@pytest.mark.parametrize("actions", [0, 30, 60])
def test_an_illegal_action_is_refused_naming_the_legal_ones_and_changes_nothing(
    actions: int,
) -> None:
    state = _random_state(load("mindi", "hidden"), random.Random(6), actions)
    before, history = str(state), state.history()
    illegal = next(a for a in range(200) if a not in state.legal_actions())
    error = ValueError if state.is_chance_node() else ActionError
    legal = state.legal_actions()[0]
    with pytest.raises(error, match=rf"{illegal} .* legal: {legal} |possible: {legal} "):
        state.apply_action(illegal)
    assert str(state) == before and state.history() == history
    state.apply_action(legal)  # the state still plays on
    assert len(state.history()) == len(history) + 1


def test_clones_are_independent() -> None:
    state = _random_state(load("mindi"), random.Random(7), 60)
    clone = state.clone()
    assert isinstance(clone, HukumState) and str(clone) == str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert len(clone.history()) == len(state.history()) + 1 and str(clone) != str(state)
    assert state.information_state_string(0) != clone.information_state_string(0)


def test_a_ganjifa_answer_is_several_actions_by_the_same_player() -> None:
    rng = random.Random(8)
    for _ in range(40):
        state = _random_state(load("ganjifa"), rng, 130)
        while not state.is_terminal() and not state.pending:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.pending:
            break
    else:
        pytest.skip("no Dukal answered in these deals")
    player, pending = state.current_player(), state.pending
    assert state.legal_actions() and all(a not in state.legal_actions() for a in pending)
    assert "chosen:" in state.information_state_string(player)
    assert "chosen:" not in state.information_state_string((player + 1) % 3)
    resampled = state.resample_from_infostate(player, rng.random)
    assert resampled.pending == pending and resampled.current_player() == player
    other = state.resample_from_infostate((player + 1) % 3, rng.random)
    assert other.pending == () and other.current_player() == player


# ---------------------------------------------------------------------- information


RESAMPLED = [
    ("mindi", "classic", {}),
    ("mindi", "hidden", {}),
    ("mindi", "dehla-pakad", {}),
    ("mindi", "hidden", {"players": 6, "deck": 48, "reveal": "on_request"}),
    ("mindi", "classic", {"trump": "open"}),
    ("ganjifa", None, {}),
]


@pytest.mark.parametrize("case", RESAMPLED, ids=_id)
@pytest.mark.parametrize("seeded", [False, True], ids=["chance", "seed"])
def test_resampling_keeps_the_information_state_and_deals_the_rest_anew(case, seeded) -> None:
    game, preset, options = case
    spiel_game = load(game, preset, options, seed=11 if seeded else None)
    rng = random.Random(9)
    moved = 0
    total = 0
    for _ in range(3):
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node() or rng.random() < 0.6:
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            for player in range(spiel_game.num_players()):
                other = state.resample_from_infostate(player, rng.random)
                assert other.information_state_string(player) == (
                    state.information_state_string(player)
                )
                assert other.observation_tensor(player) == state.observation_tensor(player)
                assert other.current_player() == state.current_player()
                assert other.legal_actions(player) == state.legal_actions(player)
                if player == state.current_player() or not state.pending:
                    assert len(other.history()) == len(state.history())
                total += 1
                moved += _hidden_hands(other, player) != _hidden_hands(state, player)
            state.apply_action(rng.choice(state.legal_actions()))
    assert total > 30 and moved > total // 2


@pytest.mark.parametrize("case", RESAMPLED, ids=_id)
def test_no_hidden_card_in_a_players_tensors(case) -> None:
    """Other seats' cards dealt anew (a resampled state) change neither tensor."""
    game, preset, options = case
    spiel_game = load(game, preset, options)
    rng = random.Random(10)
    reshuffled = 0
    for actions in range(0, 200, 7):
        state = _random_state(spiel_game, rng, actions)
        if state.is_terminal():
            continue
        for player in range(spiel_game.num_players()):
            other = state.resample_from_infostate(player, rng.random)
            assert other.information_state_tensor(player) == (
                state.information_state_tensor(player)
            )
            assert other.observation_tensor(player) == state.observation_tensor(player)
            if not state.is_chance_node() and not other.is_chance_node():
                reshuffled += _hidden_hands(other, player) != _hidden_hands(state, player)
    assert reshuffled > 10


def test_resampling_while_dealing_keeps_what_is_public() -> None:
    game = load("mindi", options={"trump": "open"})
    state = _random_state(game, random.Random(11), 20)
    assert state.is_chance_node()
    other = state.resample_from_infostate(3, random.Random(1).random)
    assert other.history()[:2] == state.history()[:2] and len(other.history()) == 20
    assert other.information_state_string(3) == state.information_state_string(3)
    assert "dealer" in state.information_state_string(3)


def test_tensors_have_the_documented_layout() -> None:
    game = load("mindi", "dehla-pakad")
    state = _random_state(game, random.Random(12), 53)  # dealt; seat to announce
    player = state.current_player()
    enc = state.play.game.encoding
    info = np.array(state.information_state_tensor(player))
    observation = np.array(state.observation_tensor(player))
    n, bits = 4, 7
    dealt, rest = info[:52], info[52:]
    assert dealt.sum() == 5  # announce hukum: the first five cards, seen before announcing
    assert (rest[: enc.observation_size] == observation).all()
    history = rest[enc.observation_size :].reshape(game.max_actions, n + 1 + bits)
    assert not history.any()
    assert game.information_state_tensor_size() == 52 + enc.observation_size + history.size
    for seat in range(n):  # before any move: the announcer keeps the five it has seen
        other = state.resample_from_infostate(seat, random.Random(seat).random)
        assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert other.information_state_string(seat) == state.information_state_string(seat)
    state.apply_action(state.legal_actions()[0])  # announce clubs
    history = np.array(state.information_state_tensor((player + 1) % n))[
        52 + enc.observation_size :
    ].reshape(game.max_actions, n + 1 + bits)
    announce = state.history()[-1]
    assert history[0, n - 1] == 1  # who: the seat before the observer
    assert sum(int(b) << i for i, b in enumerate(history[0, n + 1 :])) == announce
    assert not history[1:].any()


def test_bot_agents_play_in_openspiel() -> None:
    state = load("mindi", "hidden", seed=2).new_initial_state()
    bots = [BotAgent("mindi", "rules", seed=s) for s in range(4)]
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(bots[player](state, player))
    assert sum(state.returns()) == 0 and len(state.history()) >= 52


def test_each_game_with_a_learning_facet_is_registered_through_its_spec() -> None:
    for spec in GAMES.values():
        made = game_class(spec)
        assert made is game_class(spec) and made.hukum_game == spec.name
        assert game_name(spec.name) in pyspiel.registered_names()
        assert type(pyspiel.load_game(game_name(spec.name))) is made
    assert TOY.learning is None
    with pytest.raises(NotOfferedError, match="High Card is not offered to learning programs"):
        game_class(TOY)
