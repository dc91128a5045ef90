"""The rating rules of rated play (hukum.online.ratings): wins, losses, draws, computer
players, leavers, Ganjifa's three sides, provisional ratings and the bot for a rating."""

from __future__ import annotations

import pytest

from hukum.online.ratings import (
    BOT_RATINGS,
    PROVISIONAL_GAMES,
    START_MU,
    START_SIGMA,
    Member,
    Side,
    bot_for,
    conservative,
    provisional,
    rate_match,
    shown,
    shown_deviation,
    win_probability,
)

NEW = Member(START_MU, START_SIGMA)


def person(mu: float = START_MU, sigma: float = START_SIGMA, left: bool = False) -> Member:
    return Member(mu, sigma, left=left)


def test_the_start_is_1500_with_its_deviation() -> None:
    assert shown(START_MU) == 1500
    assert shown_deviation(START_SIGMA) == 500
    assert conservative(START_MU, START_SIGMA) == pytest.approx(0.0)
    assert conservative(30.0, 1.0) > conservative(30.0, 2.0)


def test_a_win_raises_and_a_loss_lowers_every_person_in_mindi() -> None:
    new = rate_match([Side((NEW, NEW), 0), Side((NEW, NEW), 1)])
    for mu, sigma in (r for r in new[0] if r is not None):
        assert mu > START_MU and sigma < START_SIGMA
    for mu, _ in (r for r in new[1] if r is not None):
        assert mu < START_MU
    assert all(r is not None for side in new for r in side)
    assert new[0][0] == new[0][1]


def test_an_upset_moves_more_than_an_expected_result() -> None:
    strong, weak = person(30.0, 3.0), person(20.0, 3.0)
    expected = rate_match([Side((strong,), 0), Side((weak,), 1)])[0][0]
    upset = rate_match([Side((strong,), 1), Side((weak,), 0)])[0][0]
    assert expected is not None and upset is not None
    assert 30.0 - upset[0] > expected[0] - 30.0 > 0


def test_computer_players_are_never_rated_but_weigh_in() -> None:
    expert, rnd = Member.computer("mindi", "expert"), Member.computer("mindi", "random")
    with_expert = rate_match([Side((NEW, expert), 0), Side((NEW, NEW), 1)])
    with_random = rate_match([Side((NEW, rnd), 0), Side((NEW, NEW), 1)])
    assert with_expert[0][1] is None and with_random[0][1] is None
    gain_expert, gain_random = with_expert[0][0], with_random[0][0]
    assert gain_expert is not None and gain_random is not None
    # Winning beside the strongest partner proves less than winning beside the weakest.
    assert START_MU < gain_expert[0] < gain_random[0]
    assert expert.mu == BOT_RATINGS["mindi"]["expert"][0]
    lost_to_bots = rate_match(
        [Side((NEW, Member.computer("mindi", "rules")), 1), Side((expert, expert), 0)]
    )
    assert lost_to_bots[1] == [None, None]
    assert lost_to_bots[0][0] is not None and lost_to_bots[0][0][0] < START_MU


def test_a_leaver_loses_and_the_partner_who_stayed_is_not_rated() -> None:
    # The leaver's side won on the board (their computer player finished it): still a loss.
    new = rate_match([Side((person(left=True), NEW), 0), Side((NEW, NEW), 1)])
    leaver, partner = new[0]
    assert partner is None
    assert leaver is not None and leaver[0] < START_MU
    for opponent in new[1]:
        assert opponent is not None and opponent[0] > START_MU


def test_leavers_on_both_sides_each_lose_and_nobody_else_moves() -> None:
    new = rate_match([Side((person(left=True), NEW), 0), Side((NEW, person(left=True)), 1)])
    assert new[0][1] is None and new[1][0] is None
    for leaver in (new[0][0], new[1][1]):
        assert leaver is not None and leaver[0] < START_MU


def test_ganjifa_three_sides_in_order() -> None:
    new = rate_match([Side((NEW,), 1), Side((NEW,), 0), Side((NEW,), 2)])
    second, first, third = (side[0] for side in new)
    assert first is not None and second is not None and third is not None
    assert first[0] > second[0] > third[0]
    assert first[0] > START_MU > third[0]


def test_ganjifa_leaver_is_last_and_the_others_keep_their_order() -> None:
    new = rate_match([Side((person(left=True),), 0), Side((NEW,), 1), Side((NEW,), 2)])
    leaver, second, third = (side[0] for side in new)
    assert leaver is not None and second is not None and third is not None
    assert leaver[0] < START_MU
    assert second[0] > third[0]


def test_a_draw_moves_the_weaker_up_and_the_stronger_down() -> None:
    even = rate_match([Side((NEW, NEW), 0), Side((NEW, NEW), 0)])
    for side in even:
        for r in side:
            assert r is not None and r[0] == pytest.approx(START_MU) and r[1] < START_SIGMA
    strong, weak = person(30.0, 4.0), person(20.0, 4.0)
    new = rate_match([Side((strong,), 0), Side((weak,), 0)])
    assert new[0][0] is not None and new[0][0][0] < 30.0
    assert new[1][0] is not None and new[1][0][0] > 20.0


def test_a_match_needs_two_sides_with_members() -> None:
    with pytest.raises(ValueError):
        rate_match([Side((NEW,), 0)])
    with pytest.raises(ValueError):
        rate_match([Side((NEW,), 0), Side((), 1)])


def test_provisional_until_enough_games() -> None:
    assert provisional(0)
    assert provisional(PROVISIONAL_GAMES - 1)
    assert not provisional(PROVISIONAL_GAMES)


def test_a_rating_moves_less_than_the_default_beta_would_move_it() -> None:
    """One deal is mostly luck: a win moves a new player's rating by tens of points, not the
    hundred and fifty of OpenSkill's default beta (the module's docstring)."""
    from openskill.models import PlackettLuce

    new = rate_match([Side((NEW,), 0), Side((NEW,), 1)])
    assert new[0][0] is not None
    default = PlackettLuce().rate([[PlackettLuce().rating()], [PlackettLuce().rating()]])
    moved, moved_by_default = shown(new[0][0][0]) - 1500, shown(default[0][0].mu) - 1500
    assert 0 < moved < moved_by_default / 2


def test_bot_for_picks_the_nearest_level() -> None:
    levels = BOT_RATINGS["mindi"]
    assert bot_for("mindi", shown(levels["expert"][0]) + 500) == "expert"
    assert bot_for("mindi", 0) == "random"
    assert bot_for("mindi", shown(START_MU)) == "rules"
    assert bot_for("mindi", shown(levels["search"][0]) + 1) == "search"
    assert bot_for("ganjifa", 3000) == "search"
    assert set(BOT_RATINGS) == {"mindi", "ganjifa"}
    for game in BOT_RATINGS:
        mus = [BOT_RATINGS[game][level][0] for level in ("random", "rules", "search")]
        assert mus == sorted(mus)


def test_the_bot_levels_are_the_games_own() -> None:
    from hukum.bots import BOT_NAMES as MINDI
    from hukum.bots.ganjifa import BOT_NAMES as GANJIFA

    assert set(BOT_RATINGS["mindi"]) == set(MINDI)
    assert set(BOT_RATINGS["ganjifa"]) == set(GANJIFA)


def test_win_probability_follows_the_ratings() -> None:
    assert win_probability([(25.0, 8.0)], [(25.0, 8.0)]) == pytest.approx(0.5)
    strong = win_probability([(30.0, 1.0), (30.0, 1.0)], [(24.0, 1.0), (24.0, 1.0)])
    assert 0.5 < strong < 1.0
    assert win_probability([(24.0, 1.0), (24.0, 1.0)], [(30.0, 1.0), (30.0, 1.0)]) == (
        pytest.approx(1 - strong)
    )
