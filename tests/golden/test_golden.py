"""Golden records: one complete game per preset, replayed through the engine and played again
from its seed (the seeded deals and generators are pinned: a change to dealing or shuffling
would change every seeded game, records and tournaments alike).

Regenerate with ``.venv/bin/python scripts/regen_golden.py`` and review the diff.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from ohhell.engine import PRESETS, records

RECORDS = sorted((Path(__file__).parent / "records").glob("*.json"))


def test_every_preset_has_a_golden_record() -> None:
    covered = {path.name.rsplit("-", 1)[0] for path in RECORDS}
    assert covered == set(PRESETS)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_golden_record_replays_and_round_trips(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    record = records.loads(text)
    state = records.replay(record)
    assert state.is_over
    assert len(state.results) == state.rules.hand_count
    assert list(state.totals) == record["result"]["totals"]
    assert list(state.winners) == record["result"]["winners"]
    rebuilt = records.to_record(state, seats=record["seats"], meta=record["meta"])
    assert records.dumps(rebuilt) == text  # byte-exact round trip


def test_golden_records_are_what_their_seeds_play_again() -> None:
    script = Path(__file__).parents[2] / "scripts" / "regen_golden.py"
    spec = importlib.util.spec_from_file_location("regen_golden", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fresh = module.golden_records()
    assert sorted(fresh) == [path.name for path in RECORDS]
    for path in RECORDS:
        assert fresh[path.name] == path.read_text(encoding="utf-8"), path.name
