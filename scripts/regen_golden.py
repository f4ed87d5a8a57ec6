"""Regenerate the golden game records in tests/golden/records/ (review the diff before committing).

One complete game per preset (4 players; 3 and 7 players for a few), played by seeded random
players. `tests/golden/test_golden.py` replays them, and plays them again from their seeds: any
change in rules behaviour, in dealing or in the seeded generators shows up as a test failure, and
as a diff here once regenerated.

    .venv/bin/python scripts/regen_golden.py
"""

from __future__ import annotations

import random
from pathlib import Path

from ohhell.bots import RandomBot
from ohhell.engine import PRESETS, Rules, records
from ohhell.runner import play_game

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "records"

CASES: list[tuple[str, int]] = [(name, 4) for name in PRESETS] + [
    ("standard", 3),
    ("standard", 7),
    ("la-podrida", 5),
    ("simultaneous", 6),
]


def golden_records() -> dict[str, str]:
    """Each golden record's file name and text, played afresh from its seed."""
    out = {}
    for index, (preset, players) in enumerate(CASES):
        rules = Rules.preset(preset, players)
        seed = 1000 + index
        seats = [f"random {s}" for s in range(players)]
        result = play_game(
            rules,
            [RandomBot() for _ in seats],
            deal_rng=random.Random(seed),
            bot_rngs=[random.Random(seed * 10 + s) for s in range(players)],
        )
        meta = {"generator": "scripts/regen_golden.py", "preset": preset, "seed": seed}
        record = records.to_record(result.state, seats=seats, meta=meta)
        out[f"{preset}-{players}p.json"] = records.dumps(record)
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in golden_records().items():
        (OUT / name).write_text(text, encoding="utf-8")
        print(f"{name}: totals {records.loads(text)['result']['totals']}")


if __name__ == "__main__":
    main()
