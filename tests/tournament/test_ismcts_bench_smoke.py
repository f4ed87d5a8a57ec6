"""Smoke test: ``benchmarks/vs_openspiel_ismcts.py --quick`` runs and reports its figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conftest import run_benchmark, run_script


def test_vs_openspiel_ismcts_quick_on_the_real_state(tmp_path: Path) -> None:
    """``--ismcts-sees state``: IS-MCTS as OpenSpiel ships it, which knows the stock (its
    verdicts are ``n/a``: ``test_vs_openspiel_ismcts_verdicts``)."""
    out, figures = run_benchmark(
        "benchmarks/vs_openspiel_ismcts.py", tmp_path, "--bot", "heuristic", "--jobs", "1",
        "--ismcts-sees", "state", needs=["pyspiel"],
    )  # fmt: skip
    assert "searching the real state" in out
    assert figures["ismcts_sees"] == "state"
    assert figures["deals"] == 4
    assert "note: IS-MCTS searched the real OpenSpiel state" in out
    assert "points per deal ahead, OpenSpiel scoring:" in out
    assert "points per deal ahead, standard scoring:" in out
    assert figures["deals"] == 4
    assert 0 <= figures["bid_hit_rate"]["ours"] <= 1
    assert figures["ms_per_decision"]["ismcts"]["mean"] > 0


def test_vs_openspiel_ismcts_quick_searching_from_the_view(tmp_path: Path) -> None:
    """The default: IS-MCTS searches worlds sampled from its view."""
    out, figures = run_benchmark(
        "benchmarks/vs_openspiel_ismcts.py", tmp_path, "--bot", "heuristic", "--jobs", "1",
        needs=["pyspiel"],
    )  # fmt: skip
    assert "searching worlds from its view" in out
    assert figures["ismcts_sees"] == "view"
    assert "points per deal ahead, OpenSpiel scoring:" in out
    assert "points per deal ahead, standard scoring:" in out
    assert figures["deals"] == 4
    assert 0 <= figures["bid_hit_rate"]["ours"] <= 1
    assert figures["ms_per_decision"]["ismcts"]["mean"] > 0
    assert "hand sizes 1-4, 4 deals" in out


def test_vs_openspiel_ismcts_pairs_runs_deal_by_deal(tmp_path: Path) -> None:
    """The JSON keeps each deal's lead; ``--paired`` compares two runs deal by deal (the same
    seed deals the same cards; OpenSpiel's IS-MCTS is not reproducible from its seed, so a
    rerun does not pair to exactly zero)."""
    first = tmp_path / "first"
    first.mkdir()
    args = ("--bot", "search", "--jobs", "1", "--option", "rivalry=0.5")
    out, figures = run_benchmark(
        "benchmarks/vs_openspiel_ismcts.py", first, *args, needs=["pyspiel", "numba"]
    )
    assert out.startswith("search, rivalry=0.5 vs OpenSpiel IS-MCTS")
    assert figures["options"] == {"rivalry": 0.5}
    assert set(figures["leads"]) == {"0", "1", "2", "3"}
    out, again = run_benchmark(
        "benchmarks/vs_openspiel_ismcts.py", tmp_path, *args, "--paired",
        str(first / "figures.json"), needs=["pyspiel", "numba"],
    )  # fmt: skip
    assert set(again["leads"]) == set(figures["leads"])
    mean = sum(again["leads"][d] - figures["leads"][d] for d in figures["leads"]) / 4
    assert f"paired against {first / 'figures.json'}: {mean:+.2f} points per deal" in out
    assert "over 4 deals" in out


def test_vs_openspiel_ismcts_continues_from_its_journal(tmp_path: Path) -> None:
    """With ``--journal`` each deal is saved as it finishes; the same command again reads them
    back instead of playing them, and reports the same figures."""
    journal = tmp_path / "run.jsonl"
    args = ("--bot", "heuristic", "--jobs", "2", "--journal", str(journal))
    first_dir, again_dir = tmp_path / "first", tmp_path / "again"
    first_dir.mkdir()
    again_dir.mkdir()
    out, figures = run_benchmark(
        "benchmarks/vs_openspiel_ismcts.py", first_dir, *args, needs=["pyspiel"]
    )
    assert f"journal {journal}: 0 of 4 read back, 4 played now" in out
    out, again = run_benchmark(
        "benchmarks/vs_openspiel_ismcts.py", again_dir, *args, needs=["pyspiel"]
    )
    assert f"journal {journal}: 4 of 4 read back, 0 played now" in out
    assert again["leads"] == figures["leads"]
    assert again["bid_hit_rate"] == figures["bid_hit_rate"]
    other = run_script(
        "benchmarks/vs_openspiel_ismcts.py", "--quick", *args, "--ismcts-sees", "state",
        needs=["pyspiel"], expect=2,
    )  # fmt: skip
    assert "written with other settings: ismcts_sees 'view' there, 'state' here" in other.stderr


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        (("--bot", "heuristic", "--option", "rivalry=1"), "applies to --bot search only"),
        (("--bot", "search", "--option", "rivalry=2"), "rivalry must be between 0 and 1"),
        (("--bot", "search", "--option", "rivalry"), "options are OPTION=VALUE"),
        (("--bot", "search", "--paired", "OTHER"), "shares no deal with this run"),
    ],
)
def test_vs_openspiel_ismcts_refuses_bad_ab_arguments(
    tmp_path: Path, extra: tuple[str, ...], reason: str
) -> None:
    other = tmp_path / "other.json"
    other.write_text(
        json.dumps(
            {
                "benchmark": "vs_openspiel_ismcts",
                "seed": 2026,
                "ismcts_simulations": 20,  # --quick's
                "ismcts_sees": "view",
                "leads": {"900": 1.0},
            }
        ),
        encoding="utf-8",
    )
    arguments = [str(other) if a == "OTHER" else a for a in extra]
    completed = run_script(
        "benchmarks/vs_openspiel_ismcts.py", "--quick", *arguments, needs=["pyspiel"], expect=2
    )
    assert reason in completed.stderr
