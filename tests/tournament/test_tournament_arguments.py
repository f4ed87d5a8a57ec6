"""The tournament's Python API refuses what ``ohhell tournament`` refuses, with the same
checks (one place: :func:`~ohhell.tournament.duplicate.check_bots`, ``check_jobs``,
:func:`~ohhell.tournament.deals.check_seed`), before anything is played: a matchup that could
not be played as asked, and arguments of the wrong kind (a ``TypeError`` naming them)."""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import require

from ohhell.bots.base import Budget
from ohhell.engine import Rules, Schedule
from ohhell.tournament import (
    DealFileError,
    Matchup,
    TournamentError,
    generate_deal_sets,
    run_tournament,
)

RULES = Rules(player_count=3, schedule=Schedule.CUSTOM, custom_hand_sizes=(1, 2))


def matchup(**changes: Any) -> Matchup:
    given: dict[str, Any] = {"rules": RULES, "candidate": "heuristic", "baseline": "random"}
    return Matchup(**(given | changes))


@pytest.mark.parametrize("side", ["candidate", "baseline"])
def test_a_spec_that_sets_its_own_simulations_beside_a_budget_of_them_is_refused(
    side: str,
) -> None:
    """One of the two would be ignored (as ``--budget-sims`` with such a spec is refused)."""
    with pytest.raises(TournamentError) as info:
        matchup(**{side: "search:simulations=16"}, budget=Budget(simulations=16))
    assert str(info.value) == (
        f"{side} search:simulations=16 sets its own simulations, and budget.simulations 16"
        " sets them for every bot: give one or the other"
    )
    matchup(**{side: "search:simulations=16"})  # without a budget of simulations: its own
    matchup(**{side: "search:simulations=none"}, budget=Budget(simulations=16))  # not its own


OPENSPIEL_HANDS = Rules(
    player_count=4,
    schedule=Schedule.CUSTOM,
    custom_hand_sizes=(1, 3),
    trump_in_last_hand=True,
    hook=True,
)


@pytest.mark.parametrize("side", ["candidate", "baseline"])
def test_ismcts_is_refused_where_every_deal_set_would_be_voided(side: str) -> None:
    """It plays only OpenSpiel's hands (said without OpenSpiel installed)."""
    standard = Rules(player_count=4)  # hands of 13 cards: OpenSpiel deals at most 12 to 4
    problem = f"{side}: the 'ismcts' bot plays only hands of OpenSpiel's oh_hell, and these rules"
    with pytest.raises(TournamentError, match=f"^{re.escape(problem)}"):
        matchup(rules=standard, **{side: "ismcts"})


@pytest.mark.parametrize("side", ["candidate", "baseline"])
def test_ismcts_keeps_a_budget_of_seconds_only_by_openspiel_s_clock(
    side: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a budget of seconds it keeps OpenSpiel's clock; an open-spiel without one (before
    2.0) would void its slower decisions as overruns, so it is refused there. A budget of
    seconds and simulations both is refused anyway: OpenSpiel keeps one or the other."""
    require("pyspiel")
    from ohhell import openspiel_bridge

    seconds = Budget(seconds=0.1)
    matchup(rules=OPENSPIEL_HANDS, **{side: "ismcts:worlds=2"}, budget=seconds)
    monkeypatch.setattr(openspiel_bridge, "ismcts_has_clock", lambda: False)
    with pytest.raises(TournamentError, match=f"^{side}: the 'ismcts' bot has no clock") as info:
        matchup(rules=OPENSPIEL_HANDS, **{side: "ismcts:worlds=2"}, budget=seconds)
    assert str(info.value).endswith(
        "so under a budget of seconds its slower decisions would be voided as overruns: give"
        " it a budget of simulations"
    )
    both = Budget(seconds=0.1, simulations=8)
    with pytest.raises(TournamentError, match="a budget of seconds and of simulations both"):
        matchup(rules=OPENSPIEL_HANDS, **{side: "ismcts"}, budget=both)


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"seed": -1}, TournamentError, r"^the seed must be 0 or more, got -1"),
        ({"seed": "x"}, TypeError, r"^the seed must be a whole number, got 'x'$"),
        ({"seed": 1.5}, TypeError, r"^the seed must be a whole number, got 1.5$"),
        ({"seed": True}, TypeError, r"^the seed must be a whole number, got True$"),
        ({"candidate": object()}, TypeError, r"^the candidate must be a bot spec, a str such as"),
        ({"baseline": None}, TypeError, r"^the baseline must be a bot spec, .*, got None$"),
        ({"rules": None}, TypeError, r"^a matchup's rules must be a Rules, got None$"),
        ({"budget": 16}, TypeError, r"^a matchup's budget must be a Budget, got 16$"),
        ({"overrun_factor": 0}, ValueError, r"^overrun_factor must be at least 1"),
        ({"overrun_factor": math.nan}, ValueError, r"^overrun_factor must be at least 1"),
    ],
    ids=[
        "negative seed",
        "text seed",
        "fraction seed",
        "bool seed",
        "object candidate",
        "no baseline",
        "no rules",
        "number budget",
        "overrun 0",
        "overrun nan",
    ],
)
def test_a_matchup_that_is_not_one_is_refused_when_made(
    changes: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        matchup(**changes)


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"seed": 1.5}, TypeError, r"^the seed must be a whole number, got 1.5$"),
        ({"seed": -5}, DealFileError, r"^the seed must be 0 or more, got -5"),
        ({"count": 2.0}, TypeError, r"^the number of deal sets must be a whole number, got 2.0$"),
        ({"count": True}, TypeError, r"^the number of deal sets must be a whole number, got True"),
        ({"rules": None}, TypeError, r"^rules must be a Rules, got None$"),
    ],
    ids=["fraction seed", "negative seed", "fraction count", "bool count", "no rules"],
)
def test_deal_sets_of_arguments_of_the_wrong_kind_are_refused(
    arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    given: dict[str, Any] = {"rules": RULES, "count": 2, "seed": 1} | arguments
    with pytest.raises(error, match=message):
        generate_deal_sets(**given)


def test_run_tournament_refuses_a_number_of_jobs_that_is_not_one() -> None:
    """As ``--jobs`` is: a whole number from 1 to 4 per core, before anything is played."""
    deal_sets = generate_deal_sets(RULES, 1, seed=1)
    played: list[object] = []
    with pytest.raises(TypeError, match=r"^jobs must be a whole number, got 1.5$"):
        run_tournament(matchup(), deal_sets, jobs=1.5, on_done=played.append)  # type: ignore[arg-type]
    for jobs in (0, 10**6):
        with pytest.raises(TournamentError, match=r"^jobs must be from 1 to \d+ \(4 per core"):
            run_tournament(matchup(), deal_sets, jobs=jobs, on_done=played.append)
    with pytest.raises(TypeError, match=r"^deal_sets must be DealSets .*, got list$"):
        run_tournament(matchup(), [], jobs=1)  # type: ignore[arg-type]
    assert played == []


def test_the_tournament_functions_name_an_argument_of_the_wrong_kind() -> None:
    """``done=[1]`` and ``play_deal_set(..., None)`` were an ``AttributeError`` from inside,
    ``skip=['a']`` a failed comparison in ``sorted``."""
    from ohhell.tournament import play_tournament
    from ohhell.tournament.duplicate import play_deal_set

    matchup = Matchup(rules=RULES, candidate="heuristic", baseline="random")
    deal_sets = generate_deal_sets(RULES, 2, seed=1)
    with pytest.raises(TypeError, match=r"^done must hold DealSetOutcome, got 1$"):
        run_tournament(matchup, deal_sets, jobs=1, done=[1])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"^skip must hold deal-set numbers \(int\), got 'a'$"):
        play_tournament(matchup, deal_sets, jobs=1, skip=["a"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"^deal_set must be a DealSet, got None$"):
        play_deal_set(matchup, 0, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^matchup must be a Matchup, got None$"):
        play_deal_set(None, 0, deal_sets.sets[0])  # type: ignore[arg-type]


OWN = "tests.tournament.own_bot.LowBot"


def test_a_bot_of_ones_own_plays_a_tournament_by_its_module_name() -> None:
    """A bot class a user writes was refused: Matchup took only the built-in bots' names.
    It is named by where it is defined, with options as for the others, and made in each
    worker process from that name."""
    from ohhell.players import make_player
    from ohhell.tournament import compute_stats

    assert make_player(f"{OWN}:greedy=true").greedy is True  # type: ignore[attr-defined]
    matchup = Matchup(rules=RULES, candidate=OWN, baseline="heuristic", seed=3)
    deal_sets = generate_deal_sets(RULES, 2, seed=1)
    stats = compute_stats(matchup, run_tournament(matchup, deal_sets, jobs=1))
    assert (stats.candidate.bot, stats.deal_sets) == (OWN, 2)
    assert stats.candidate.bids.total == 2 * 3 * 2  # two hands, three games, two deal sets
    # made in worker processes from its name (a module of the tests may not be importable in
    # the fork server a test before started; the command-line test plays one of the tests')
    named = Matchup(rules=RULES, candidate="ohhell.bots.HeuristicBot", baseline="random", seed=3)
    by_name = run_tournament(named, deal_sets, jobs=2)
    as_ever = run_tournament(dataclasses.replace(named, candidate="heuristic"), deal_sets, jobs=1)
    assert [[(g.totals, g.hands) for g in o.games] for o in by_name] == [
        [(g.totals, g.hands) for g in o.games] for o in as_ever
    ]


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("tests.tournament.no_such_module.Bot", "cannot import tests.tournament.no_such_module"),
        ("tests.tournament.own_bot.HighBot", "module tests.tournament.own_bot has no HighBot"),
        ("tests.tournament.own_bot.not_a_bot", "made <object object at"),
        (  # where in the bot's own code, not in the library it called
            "tests.tournament.own_bot.broken",
            "making it raised ZeroDivisionError: Fraction(1, 0) (",
        ),
        (f"{OWN}:wild=1", "has no option 'wild'; its options: greedy"),
        (f"{OWN}:greedy=maybe", "wants true or false"),
    ],
)
def test_a_bot_of_ones_own_that_cannot_be_made_says_why(spec: str, said: str) -> None:
    with pytest.raises(TournamentError, match=re.escape(said)) as info:
        Matchup(rules=RULES, candidate=spec, baseline="heuristic")
    if "raised" in said:  # the line of the bot's module its failure came through
        assert re.search(r"own_bot\.py, line \d+\)$", str(info.value))


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ('raise RuntimeError("broken on purpose")\n', "RuntimeError: broken on purpose ("),
        ("def choose(:\n", "SyntaxError: invalid syntax (broken_bots_"),
    ],
)
def test_a_bot_module_that_fails_as_it_is_imported_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, said: str
) -> None:
    module = f"broken_bots_{len(source)}"  # a name of its own: a failed import is not cached
    (tmp_path / f"{module}.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(TournamentError, match=re.escape(f"importing {module} raised {said}")):
        Matchup(rules=RULES, candidate=f"{module}.Bot", baseline="heuristic")


def test_a_module_a_journal_names_is_not_imported_to_compare_players() -> None:
    """A resumed tournament compares the journal's bots with the command's: a module named
    only in the file is never imported for that (a file is data, not code to run)."""
    import sys

    from ohhell.players import same_player

    assert not same_player("tests.tournament.never_imported.Bot", "heuristic")
    assert "tests.tournament.never_imported" not in sys.modules
    assert same_player(f"{OWN}:greedy=yes", f"{OWN}: greedy=true")
    assert not same_player(OWN, f"{OWN}:greedy=true")
