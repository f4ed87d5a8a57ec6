"""Bot specs (``NAME:OPTION=VALUE:...``): variants of a bot by name, for the command line and
tournaments, with clear errors for every bad option (:mod:`ohhell.bots.levels`)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.conftest import require

from ohhell.bots import Budget
from ohhell.bots.heuristic import HeuristicBot
from ohhell.bots.levels import (
    LEVELS,
    LevelBot,
    bot_options,
    build_bot,
    make_bot,
    sets_own_simulations,
    split_spec,
)
from ohhell.bots.search import SearchBot
from ohhell.engine import Rules, apply, new_game, random_deal, view_for
from ohhell.players import make_player


def test_a_spec_sets_each_option_as_its_declared_type() -> None:
    bot = make_bot("search:simulations=320:rivalry=0.5:spoiler=false:compiled=no")
    assert isinstance(bot, SearchBot)
    assert (bot.simulations, bot.rivalry, bot.spoiler, bot.compiled) == (320, 0.5, False, False)
    assert type(bot.simulations) is int and type(bot.rivalry) is float
    # the defaults are untouched
    assert make_bot("search").rivalry == SearchBot().rivalry
    assert make_bot(" search : rivalry = 1 ").rivalry == 1.0  # spaces around the parts


def test_split_spec_keeps_the_items_in_order() -> None:
    assert split_spec("hard:b=1:a=2") == ("hard", ("b=1", "a=2"))
    assert split_spec("random") == ("random", ())
    assert split_spec(" hard : b = 1 :a=2 ") == ("hard", ("b = 1", "a=2"))  # parts stripped


def test_a_spec_sets_its_own_simulations_however_it_is_spaced_or_cased() -> None:
    """Whether a spec gives its bot simulations of its own (what a tournament's budget and a
    level refuse) reads the option as the bot does: spaces around it, ``none`` in any case."""
    assert sets_own_simulations("search: simulations = 4")
    assert not sets_own_simulations("ismcts:simulations=None")
    assert not sets_own_simulations("ismcts:simulations = NONE ")
    assert not sets_own_simulations("search:rivalry=0.5")
    with pytest.raises(ValueError, match="the hard level sets how long its bot thinks"):
        make_player("hard: simulations =4")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:depth=3", "bot 'search:depth=3': search has no option 'depth'; its options: "),
        ("search:rivalry", "options are OPTION=VALUE, got 'rivalry'"),
        ("search:=3", "options are OPTION=VALUE, got '=3'"),
        ("search:simulations=1.5", "search option simulations wants a whole number, got '1.5'"),
        ("search:simulations=many", "search option simulations wants a number, got 'many'"),
        ("search:spoiler=maybe", "search option spoiler wants true or false, got 'maybe'"),
        ("search:rivalry=nan", "search option rivalry wants a finite number, got 'nan'"),
        ("search:simulations=inf", "search option simulations wants a finite number, got 'inf'"),
        (  # Python's int() and float() read these; a bot option is written in the digits 0-9
            "search:simulations=1_000",
            "search option simulations wants a number in the digits 0-9, got '1_000'",
        ),
        (
            "search:simulations=\u0661\u0660",
            "search option simulations wants a number in the digits 0-9, got '\u0661\u0660'",
        ),
        ("search:rivalry=0_5", "search option rivalry wants a number in the digits 0-9"),
        ("search:rivalry=0.5:rivalry=0.2", "search option rivalry is given twice"),
        ("search:rivalry=2", "bot 'search:rivalry=2': rivalry must be between 0 and 1, got 2.0"),
        ("search:sampler=1", "search has no option 'sampler'"),  # not a plain value
        ("random:seed=1", "random has no option 'seed'; its options: none"),
        ("heuristic:x=1", "heuristic has no option 'x'; its options: none"),
        ("genius:x=1", "unknown bot 'genius'"),
        ("easy:x=1", "bot 'easy:x=1': easy (random) has no option 'x'"),  # the level typed
    ],
)
def test_a_bad_spec_says_what_was_wrong(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match="^.*" + message.replace("(", r"\(").replace(")", r"\)")):
        make_player(spec)


def test_a_level_spec_sets_its_bot_and_keeps_the_level_budget() -> None:
    bot = make_player("hard:rivalry=0.5")
    assert isinstance(bot, LevelBot)
    assert bot.name == "hard"
    assert isinstance(bot.bot, SearchBot) and bot.bot.rivalry == 0.5
    assert bot.budget == LEVELS["hard"].budget
    with pytest.raises(ValueError, match=r"'expert:depth=1': expert \(search\) has no option"):
        make_player("expert:depth=1")
    with pytest.raises(ValueError, match=r"medium \(heuristic\) has no option 'rivalry'"):
        make_player("medium:rivalry=1")
    assert isinstance(make_player("medium").bot, HeuristicBot)  # type: ignore[attr-defined]


def test_a_level_spec_cannot_set_the_simulations_its_budget_would_ignore() -> None:
    with pytest.raises(ValueError) as error:
        make_player("hard:simulations=4")
    assert str(error.value) == (
        "bot 'hard:simulations=4': the hard level sets how long its bot thinks (its budget,"
        " 1280 simulations or 0.15 s per decision, or a tournament's), so it takes no"
        " simulations option: to choose the simulations, name the bot instead"
        " (search:simulations=N)"
    )
    with pytest.raises(ValueError, match="the expert level sets how long its bot thinks"):
        make_player("expert:rivalry=0.1:simulations=9000")
    with pytest.raises(ValueError, match="options are OPTION=VALUE, got 'simulations'"):
        make_player("hard:simulations")  # malformed, not a simulations option
    assert make_player("search:simulations=4").simulations == 4  # type: ignore[attr-defined]
    with pytest.raises(ValueError) as unknown:  # the options offered leave simulations out
        make_player("hard:bogus=1")
    assert "hard (search) has no option 'bogus'; its options: min_worlds, " in str(unknown.value)
    assert "simulations" not in str(unknown.value)
    with pytest.raises(ValueError, match="the hard level sets how long its bot thinks"):
        make_player("hard:simulations=none")  # whatever the value: the level takes none


def test_whole_numbers_are_read_exactly_and_a_spec_is_text() -> None:
    huge = 10**22 - 1
    assert make_bot(f"search:simulations={huge}").simulations == huge  # type: ignore[attr-defined]
    assert make_bot("search:simulations=1e3").simulations == 1000  # type: ignore[attr-defined]
    for spec in (None, 5):
        with pytest.raises(TypeError, match="a bot spec is text, such as 'search:rivalry=0\\.5'"):
            make_player(spec)  # type: ignore[arg-type]


def test_a_level_without_a_budget_of_simulations_is_told_as_its_bot() -> None:
    """Only a level whose budget sets the simulations refuses a simulations option for that
    reason: the easy and medium levels' bots have no such option, and say so."""
    for spec, bot in (("easy", "random"), ("medium", "heuristic")):
        with pytest.raises(ValueError) as error:
            make_player(f"{spec}:simulations=3")
        assert str(error.value) == (
            f"bot '{spec}:simulations=3': {spec} ({bot}) has no option 'simulations';"
            " its options: none"
        )


def test_a_value_the_bot_rejects_with_a_type_error_is_a_value_error_naming_the_spec() -> None:
    class Picky:
        def __init__(self, *, count: int = 1) -> None:
            if count > 2:
                raise TypeError(f"count must be at most 2, got {count}")

    with pytest.raises(ValueError, match=r"^bot 'picky:count=3': count must be at most 2, got 3$"):
        build_bot(Picky, "picky:count=3")
    assert isinstance(build_bot(Picky, "picky:count=2"), Picky)


def test_bot_options_reads_none_where_an_option_may_be_none() -> None:
    class Optional:
        def __init__(self, *, limit: int | None = 3, scale: float = 1.0) -> None:
            self.limit, self.scale = limit, scale

    assert bot_options(Optional, ["limit=none", "scale=2"], name="x") == {
        "limit": None,
        "scale": 2.0,
    }
    with pytest.raises(ValueError, match="x option limit wants a number, got 'lots'"):
        bot_options(Optional, ["limit=lots"], name="x")


def test_only_keyword_options_of_one_plain_type_are_settable() -> None:
    """A positional parameter, or one that takes a choice of types, is no option of a spec
    (the error lists the options there are)."""

    class Mixed:
        def __init__(self, size: int = 1, *, either: int | str = 1, scale: float = 1.0) -> None:
            self.size, self.either, self.scale = size, either, scale

    assert bot_options(Mixed, ["scale=2"], name="x") == {"scale": 2.0}
    for item in ("size=2", "either=2"):
        with pytest.raises(ValueError, match=r"^x has no option '\w+'; its options: scale$"):
            bot_options(Mixed, [item], name="x")


def test_a_search_spec_plays_as_the_same_options_given_directly() -> None:
    """The spec builds the same bot: same seed, same view, same action."""
    state = new_game(Rules.preset("standard", 4))
    state, _ = apply(state, random_deal(state, random.Random(5)))
    view = view_for(state, min(view_for(state, 0).to_act))
    assert view.legal_actions
    budget = Budget(simulations=64)
    by_spec = make_bot("search:rivalry=1:bid_factor=2").choose(view, random.Random(1), budget)
    direct = SearchBot(rivalry=1.0, bid_factor=2).choose(view, random.Random(1), budget)
    assert by_spec == direct


@given(
    simulations=st.integers(min_value=1, max_value=10**6),
    rivalry=st.floats(min_value=0.0, max_value=1.0),
    spoiler=st.booleans(),
    spelled=st.sampled_from([("true", "false"), ("yes", "no"), ("on", "off"), ("1", "0")]),
)
def test_any_valid_spec_reads_back_exactly(
    simulations: int, rivalry: float, spoiler: bool, spelled: tuple[str, str]
) -> None:
    switch = spelled[0] if spoiler else spelled[1]
    bot = make_bot(f"search:simulations={simulations}:rivalry={rivalry!r}:spoiler={switch}")
    assert isinstance(bot, SearchBot)
    assert (bot.simulations, bot.rivalry, bot.spoiler) == (simulations, rivalry, spoiler)


@pytest.mark.parametrize("seconds", [0, -1.0, math.inf, math.nan, True, 10**400])
def test_a_budget_is_a_positive_finite_time(seconds: float) -> None:
    """A whole number is a time too, but not one beyond any float (which a deadline is): it
    would overflow where the runner and the search reckon with it."""
    with pytest.raises(ValueError, match="seconds must be a positive finite number"):
        Budget(seconds=seconds)
    assert str(Budget(seconds=10**300)) == "1e+300 s"


def test_a_budget_takes_numpy_s_numbers_as_python_s() -> None:
    """A count or a time computed with numpy is a count or a time: kept as int and float."""
    require("numpy")
    import numpy as np

    budget = Budget(simulations=np.int64(320), seconds=np.float32(0.5))
    assert (budget.simulations, budget.seconds) == (320, 0.5)
    assert (type(budget.simulations), type(budget.seconds)) == (int, float)
    with pytest.raises(ValueError, match="simulations must be a positive integer"):
        Budget(simulations=np.float64(2.0))
    with pytest.raises(ValueError, match="seconds must be a positive finite number"):
        Budget(seconds=np.float32("inf"))


@pytest.mark.parametrize("simulations", [0, -3, True, False, 2.5, "10"])
def test_a_budget_is_a_positive_whole_number_of_simulations(simulations: int) -> None:
    with pytest.raises(
        ValueError, match=rf"simulations must be a positive integer, got {simulations!r}$"
    ):
        Budget(simulations=simulations)
